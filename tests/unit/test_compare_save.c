/*
 * The saved report of a records file (cli/compare_save.c): what a resumed
 * or nested matrix calls on its runs.jsonl.  The records name pti-global,
 * whose file (found by name) shapes report.md and chooses the columns.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "compare_save.h"

static const char *variants[][3] = {
	{"none-nopcid", "host,-pcid", "1000000"},
	{"entry-nopcid", "host,-pcid", "800000"},
};

static void write_records(const char *path)
{
	FILE *f = fopen(path, "w");

	cr_assert(f);
	for (int v = 0; v < 2; v++)
		for (int run = 1; run <= 2; run++)
			fprintf(f,
				"{\"status\":\"ok\",\"bench\":{\"name\":\"lseek\",\"iterations\":"
				"1000},\"request\":{\"cpu\":\"%s\",\"append\":\"pti=on\"},"
				"\"host\":{\"cpu_model\":\"Test CPU\",\"kvm\":\"native\",\"pmu\":"
				"\"none\"},\"guest\":{\"exit_status\":0},\"region\":{\"tsc_ticks\":"
				"%s,\"tsc_khz\":1000000,\"syscalls\":1000},\"experiment\":{\"name\":"
				"\"pti-global\",\"variant\":\"%s\",\"run\":%d,\"runs\":2,\"baseline\":"
				"\"none-nopcid\",\"seed\":\"002\"}}\n",
				variants[v][1], variants[v][2], variants[v][0], run);
	fprintf(f, "not a record\n");
	fclose(f);
}

static char *slurp(const char *path)
{
	char err[512];
	size_t len;
	char *buf = io_read_file(path, 64u << 20, &len, err, sizeof(err));

	cr_assert(buf, "%s was not written: %s", path, err);
	return buf;
}

Test(compare_save, records_file_shaped_by_its_experiment)
{
	char dir[] = "/tmp/el-cmpsave-XXXXXX", path[128], err[256], *md, *csv;
	struct report_meta over = {.command = "entrylab matrix --resume X",
				   .runs_file = "runs.jsonl",
				   .planned = 12,
				   .kept = 4,
				   .scale = "default"};

	setenv("ENTRYLAB_EXPERIMENTS", EL_SOURCE_DIR "/harness/experiments", 1);
	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
	write_records(path);
	cr_assert_eq(compare_save_records(path, NULL, dir, &over, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	md = slurp(path);
	cr_expect(strstr(md, "# pti-global (seed 002)"), "%s", md);
	cr_expect(strstr(md, "`entrylab matrix --resume X`"), "%s", md);
	cr_expect(strstr(md, "### without PCID"), "%s", md);
	cr_expect(strstr(md, "| no global (baseline) | 1,000,000"), "%s", md);
	cr_expect(strstr(md, "| entry | 1,250,000"), "%s", md);
	cr_expect(strstr(md, "4 of 12 planned runs kept"), "%s", md);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	csv = slurp(path);
	cr_expect(strstr(csv, ",dTLB-load-misses,dTLB-load-misses/iter,0,not-counted,"),
		  "the experiment's columns: %s", csv);
	cr_expect(strstr(csv, "entry-nopcid,lseek,\"host,-pcid\",pti=on,iterations/s,iter/s,2,"
			      "1250000,"),
		  "%s", csv);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	cr_expect_eq(system(path), 0);
	free(md);
	free(csv);
	cr_expect_neq(compare_save_records("/nonexistent.jsonl", NULL, "/tmp", NULL, err,
					   sizeof(err)),
		      0);
	cr_expect(strstr(err, "cannot read the records in /nonexistent.jsonl"), "%s", err);
}
