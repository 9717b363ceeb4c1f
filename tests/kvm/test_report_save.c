/*
 * The saved report end to end: the shipped pti-global experiment, two runs
 * per variant, then `entrylab compare --save DIR` on its records: report.md
 * with the seed's rows (no global / entry / all text, lseeks/s, change, %),
 * summary.csv with its header and a row per variant x metric, the chart.
 * (The matrix writing these itself is the matrix directory's test.)
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_io.h"
#include "harness.h"

static char *slurp(const char *path)
{
	char err[512];
	size_t len;
	char *buf = io_read_file(path, 64u << 20, &len, err, sizeof(err));

	cr_assert(buf, "%s was not written: %s", path, err);
	return buf;
}

Test(report_save, pti_global_seed_table, .timeout = 900)
{
	const char *out = tmp_output("pti.jsonl");
	char dir[4096], path[4200], *md, *csv, *svg, *slash;
	struct el_proc p, c;

	entrylab(&p, "matrix", "pti-global", "-r", "2", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "matrix exit %d\n%s%s", p.status, p.out, p.err);
	snprintf(dir, sizeof(dir), "%s", out);
	slash = strrchr(dir, '/');
	cr_assert(slash);
	*slash = '\0';
	entrylab(&c, "compare", "--save", dir, out, NULL);
	cr_assert_eq(c.status, 0, "compare exit %d\n%s", c.status, c.err);

	snprintf(path, sizeof(path), "%s/report.md", dir);
	md = slurp(path);
	cr_expect(strstr(md, "# pti-global (seed 002)"), "%s", md);
	cr_expect(strstr(md, "### without PCID"), "%s", md);
	cr_expect(strstr(md, "| | lseeks/s | change | % | outside the noise? |"), "%s", md);
	cr_expect(strstr(md, "| no global (baseline) | "), "%s", md);
	cr_expect(strstr(md, "\n| entry | ") && strstr(md, "\n| all text | "), "%s", md);
	cr_expect(strstr(md, "- entry vs no global: "), "the seed's sentence: %s", md);
	if (nested_mode()) {
		/* TCG offers no PCID: the PCID table's rows are skipped (report_md.c md_cells) */
		const char *pcid = strstr(md, "### with PCID\n");

		cr_expect(strstr(md, "timings are not meaningful"), "%s", md);
		cr_assert(pcid, "no PCID table: %s", md);
		cr_expect(strstr(pcid, "\n| no global (baseline) | skipped | | | |\n"),
			  "PCID baseline row skipped: %s", md);
		cr_expect(strstr(pcid, "\n| entry | skipped | | | |\n"), "PCID rows skipped: %s", md);
		cr_expect(strstr(pcid, "\n| all text | skipped | | | |\n"), "PCID rows skipped: %s",
			  md);
	}
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	csv = slurp(path);
	cr_expect(!strncmp(csv, "variant,bench,cpu,append,metric,unit,n,mean,", 44), "%s", csv);
	cr_expect(strstr(csv, "\nentry-nopcid,lseek,\"host,-pcid\",pti=on pti.global=entry,"
			      "iterations/s,iter/s,2,"), "%s", csv);
	snprintf(path, sizeof(path), "%s/pti-global-lseeks_s.svg", dir);
	svg = slurp(path);
	cr_expect(strstr(svg, "</svg>"));
	cr_expect(strstr(svg, "<rect class=\"bar\""), "%s", svg);
	free(md);
	free(csv);
	free(svg);
	proc_free(&p);
	proc_free(&c);
}
