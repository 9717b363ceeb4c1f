/*
 * Fleets without a cluster (harness/matrix/fleet.h): what --emit writes,
 * the resubmit commands, and --collect on parts written here by hand: a
 * missing task, a part of another version or task, a class whose hosts
 * differ, and a complete fleet.  The end-to-end runs through a real
 * one-node Slurm cluster and GNU parallel are tests/kvm/test_fleet.c.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <ftw.h>
#include <unistd.h>

#include "commands.h"
#include "experiment.h"
#include "fleet.h"
#include "host_io.h"
#include "status.h"
#include <stdarg.h>

#define PF EL_SOURCE_DIR "/harness/experiments/pagefault-return.ini"

static char *slurp(const char *dir, const char *name)
{
	char path[4200], err[256];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = io_read_file(path, 16u << 20, &len, err, sizeof(err));
	cr_assert(text, "%s", err);
	return text;
}

/* `entrylab matrix ARGS...` in this process; its exit status. */
static int matrix(const char *a0, ...)
{
	char *argv[32] = {"matrix"};
	int argc = 1;
	va_list ap;

	va_start(ap, a0);
	for (const char *a = a0; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	fflush(NULL);
	return cmd_matrix(argc, argv);
}

/* A fleet of pagefault-return, -r 2 over classA and classB: 8 tasks, 0-3 and 4-7. */
static void emit(char *dir, const char *engine)
{
	strcpy(dir, "/tmp/test_fleet.XXXXXX");
	cr_assert(mkdtemp(dir));
	cr_assert_eq(matrix(PF, "-r", "2", "--hosts", "classA,classB", "--emit", engine, dir, NULL),
		     0);
}

/* The plan's matrix id, which every part must carry. */
static void plan_id(const char *dir, char *id, size_t len)
{
	char *text = slurp(dir, "plan.json");
	struct json_object *o = json_tokener_parse(text), *v;

	cr_assert(o && json_object_object_get_ex(o, "id", &v));
	snprintf(id, len, "%s", json_object_get_string(v));
	json_object_put(o);
	free(text);
}

/* Task t's part as a node would write it; version and task may be falsified. */
static void part(const char *dir, unsigned t, const char *version, unsigned as_task,
		 const char *cpu, const char *status)
{
	static const char *const var[] = {"iret", "iret", "sysret", "sysret"};
	char id[64], path[4200];
	FILE *f;

	plan_id(dir, id, sizeof(id));
	snprintf(path, sizeof(path), "%s/parts/task-%u.json", dir, t);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "{\"schema\":\"entrylab.run/1\",\"status\":\"%s\",\"version\":\"%s\","
		   "\"bench\":{\"name\":\"pagefault\",\"iterations\":1000},"
		   "\"host\":{\"cpu_model\":\"%s\",\"kvm\":\"native\",\"pmu\":\"none\"},"
		   "\"region\":{\"ns\":%u,\"iterations\":1000},"
		   "\"experiment\":{\"name\":\"pagefault-return\",\"id\":\"%s\",\"variant\":\"%s\","
		   "\"run\":%u},"
		   "\"fleet\":{\"task\":%u,\"class\":\"%s\",\"host\":\"node%u\","
		   "\"microcode\":\"0x1\"}}\n",
		status, version, cpu, 100000 + 1000 * (t % 4), id, var[t % 4], t % 2 + 1,
		as_task, t < 4 ? "classA" : "classB", t);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The test's fleet directory, gone. */
static void rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static unsigned lines(const char *text)
{
	unsigned n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

Test(fleet, emit_writes_one_array_per_class_and_a_submit_script)
{
	char dir[64], *a, *b, *submit, *plan;
	struct stat st;

	emit(dir, "slurm");
	a = slurp(dir, "slurm/classA.sbatch");
	b = slurp(dir, "slurm/classB.sbatch");
	submit = slurp(dir, "submit.sh");
	plan = slurp(dir, "plan.json");
	cr_expect(strstr(a, "#SBATCH --array=0-3\n"), "%s", a);
	cr_expect(strstr(a, "#SBATCH --constraint=classA\n"));
	cr_expect(strstr(a, "#SBATCH --exclusive\n"), "a benchmark reserves the node");
	cr_expect(strstr(a, "--task $((0 + SLURM_ARRAY_TASK_ID))"));
	cr_expect(strstr(b, "#SBATCH --array=0-3\n") && strstr(b, "--constraint=classB\n"));
	cr_expect(strstr(b, "--task $((4 + SLURM_ARRAY_TASK_ID))"), "%s", b);
	cr_expect(strstr(submit, "--dependency=\"afterany$deps\""), "%s", submit);
	cr_expect(strstr(plan, "\"fleet\"") && !strstr(plan, "\"--emit\""),
		  "the plan's options are the matrix's, without --emit");
	cr_expect_eq(stat(strcat(strcpy((char[128]){0}, dir), "/submit.sh"), &st), 0);
	cr_expect(st.st_mode & 0100, "submit.sh is executable");
	cr_expect_eq(matrix(PF, "--hosts", "classA", "--emit", "slurm", dir, NULL), EL_EXIT_USAGE,
		     "a directory holding a plan is not overwritten");
	free(a);
	free(b);
	free(submit);
	free(plan);
	rmtree(dir);
}

Test(fleet, resubmit_commands_name_exactly_the_tasks_to_run)
{
	struct fleet f = {.engine = FLEET_SLURM, .dir = "/d", .entrylab = "/bin/entrylab", .nt = 8,
			  .nc = 2};
	bool want[8] = {0, 1, 1, 0, 0, 0, 1, 0};
	char cmd[512];

	f.c[0] = (struct fleet_class){.name = "classA", .first = 0, .n = 4};
	f.c[1] = (struct fleet_class){.name = "classB", .first = 4, .n = 4};
	fleet_resubmit(&f, 0, want, cmd, sizeof(cmd));
	cr_expect_str_eq(cmd, "sbatch --array=1-2 /d/slurm/classA.sbatch");
	fleet_resubmit(&f, 1, want, cmd, sizeof(cmd));
	cr_expect_str_eq(cmd, "sbatch --array=2 /d/slurm/classB.sbatch", "array index, not task id");
	want[6] = false;
	fleet_resubmit(&f, 1, want, cmd, sizeof(cmd));
	cr_expect_str_eq(cmd, "");
	f.engine = FLEET_PARALLEL;
	fleet_resubmit(&f, 0, want, cmd, sizeof(cmd));
	cr_expect_str_eq(cmd, "parallel --will-cite --sshloginfile /d/parallel/classA.hosts "
			      "/bin/entrylab matrix --run-one /d --task {} ::: 1 2");
}

Test(fleet, collect_merges_a_complete_fleet_by_class)
{
	char dir[64], *md, *csv, *runs;

	emit(dir, "slurm");
	for (unsigned t = 0; t < 8; t++)
		part(dir, t, ENTRYLAB_VERSION, t, "Cpu One", "ok");
	cr_assert_eq(matrix("--collect", dir, NULL), 0);
	md = slurp(dir, "report.md");
	csv = slurp(dir, "summary.csv");
	runs = slurp(dir, "runs.jsonl");
	cr_expect_eq(lines(runs), 8, "each task once");
	cr_expect(strstr(md, "## Across host classes"), "%s", md);
	cr_expect(strstr(md, "## Class classA\n") && strstr(md, "## Class classB\n"));
	cr_expect(!strstr(md, "**Warning**"), "one kind of host per class");
	cr_expect(!strncmp(csv, "class,hosts,variant,", 20), "%.60s", csv);
	cr_expect(strstr(csv, "\nclassB,"), "rows of each class");
	free(md);
	free(csv);
	free(runs);
	rmtree(dir);
}

Test(fleet, collect_names_missing_tasks_and_refuses_foreign_parts)
{
	char dir[64], *runs;

	emit(dir, "slurm");
	for (unsigned t = 0; t < 8; t++)
		if (t != 1 && t != 2)
			part(dir, t, t == 5 ? "v0-other" : ENTRYLAB_VERSION, t == 6 ? 7 : t, "Cpu One",
			     t == 3 ? "guest-crash" : "ok");
	cr_expect_eq(matrix("--collect", dir, NULL), FLEET_EXIT_MISSING,
		     "tasks 1 and 2 missing, 5 another version's, 6 another task's");
	runs = slurp(dir, "runs.jsonl");
	cr_expect_eq(lines(runs), 4, "0, 3 (a failed run is a record), 4, 7; got:\n%s", runs);
	free(runs);
	part(dir, 1, ENTRYLAB_VERSION, 1, "Cpu One", "ok");
	part(dir, 2, ENTRYLAB_VERSION, 2, "Cpu One", "ok");
	part(dir, 5, ENTRYLAB_VERSION, 5, "Cpu One", "ok");
	part(dir, 6, ENTRYLAB_VERSION, 6, "Cpu One", "ok");
	cr_expect_eq(matrix("--collect", dir, NULL), FLEET_EXIT_FAILED, "task 3 crashed");
	part(dir, 3, ENTRYLAB_VERSION, 3, "Cpu One", "ok");
	cr_expect_eq(matrix("--collect", dir, NULL), 0);
	rmtree(dir);
}

Test(fleet, collect_splits_a_class_whose_hosts_differ)
{
	char dir[64], *md;

	emit(dir, "slurm");
	for (unsigned t = 0; t < 8; t++)
		part(dir, t, ENTRYLAB_VERSION, t, t == 1 || t == 3 ? "Cpu Two" : "Cpu One", "ok");
	cr_assert_eq(matrix("--collect", dir, NULL), 0);
	md = slurp(dir, "report.md");
	cr_expect(strstr(md, "## Class classA\n") && strstr(md, "## Class classA/2\n"), "%s", md);
	cr_expect(strstr(md, "**Warning**: the hosts of class classA differ"));
	cr_expect(strstr(md, "| variant | classA | classA/2 | classB |"), "the pivot's columns");
	free(md);
	rmtree(dir);
}

Test(fleet, parallel_emit_lists_tasks_and_hosts_per_class)
{
	char dir[64], *tasks, *hosts, *submit;

	emit(dir, "parallel");
	tasks = slurp(dir, "parallel/classB.tasks");
	hosts = slurp(dir, "parallel/classA.hosts");
	submit = slurp(dir, "submit.sh");
	cr_expect_str_eq(tasks, "4\n5\n6\n7\n");
	cr_expect(strstr(hosts, "\n1/:\n"), "one benchmark at a time on a host: %s", hosts);
	cr_expect(strstr(submit, "--joblog \"$dir/parallel/$class.joblog\" --resume-failed"),
		  "%s", submit);
	cr_expect(strstr(submit, "--sshloginfile \"$dir/parallel/$class.hosts\""));
	free(tasks);
	free(hosts);
	free(submit);
	rmtree(dir);
}

Test(fleet, host_sections_are_checked)
{
	char path[] = "/tmp/test_fleet_exp.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w"), *err = fopen("/dev/null", "w");
	struct el_experiment *e = calloc(1, sizeof(*e));
	struct exp_host h = {0};

	cr_assert(f && e && err);
	fputs("[experiment]\nname = x\nbench = getpid\n[variant a]\n"
	      "[host skl]\nconstraint = skylake&pcid\nexpect = GenuineIntel 6 0x55\n"
	      "[host bad]\nconstraint = a;rm -rf /\nexpect = Intel six\ncolour = red\n", f);
	fclose(f);
	cr_expect_eq(experiment_load(path, e, err), 3, "the constraint, the expect, the key");
	cr_expect_eq(e->nhosts, 2);
	cr_expect_eq(experiment_host(e, "skl"), 0);
	cr_expect(e->hosts[0].has_expect && e->hosts[0].model == 0x55 && e->hosts[0].family == 6);
	cr_expect_eq(experiment_parse_expect("AuthenticAMD 25 1", &h), 0);
	cr_expect_eq(experiment_parse_expect("AuthenticAMD 25", &h), -1);
	cr_expect_eq(experiment_parse_expect("AuthenticAMD 25 1 7", &h), -1);
	experiment_free(e);
	free(e);
	fclose(err);
	unlink(path);
}
