/*
 * Fleets end to end (harness/matrix/fleet.h, docs/fleet.md): `--trace`
 * tasks (QEMU TCG, no KVM needed) emitted, submitted to a private one-node
 * Slurm cluster whose node carries the features classA and classB
 * (tests/fleet/slurm-cluster.sh: its daemons started here and stopped by
 * PID), run, and collected; tasks cancelled with scancel are named by
 * --collect with the command that resubmits them, and that command
 * completes the fleet.  The same through GNU parallel on this machine.
 * Without Slurm, MUNGE or parallel the tests skip with the reason.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define CLUSTER EL_SOURCE_DIR "/tests/fleet/slurm-cluster.sh"

TestSuite(fleet, .timeout = 300);

static char state[64]; /* this test's cluster */

static void cluster_stop(void)
{
	struct el_proc p;

	if (!state[0])
		return;
	proc_run(&p, (const char *const[]){"/bin/sh", CLUSTER, "stop", state, NULL});
	proc_free(&p);
	proc_run(&p, (const char *const[]){"/bin/rm", "-rf", state, NULL});
	proc_free(&p);
	state[0] = '\0';
}

/* A cluster of this test's own, SLURM_CONF pointing at it; skips when Slurm is not here. */
static void cluster_start(void)
{
	char conf[128];
	struct el_proc p;

	snprintf(state, sizeof(state), "/tmp/elslurm.XXXXXX");
	cr_assert(mkdtemp(state));
	proc_run(&p, (const char *const[]){"/bin/sh", CLUSTER, "start", state, NULL});
	if (p.status == 77) {
		state[0] = '\0';
		cr_skip_test("%s", p.out);
	}
	cr_assert_eq(p.status, 0, "the one-node cluster did not start:\n%s%s", p.out, p.err);
	proc_free(&p);
	snprintf(conf, sizeof(conf), "%s/slurm.conf", state);
	setenv("SLURM_CONF", conf, 1);
}

/* Runs a shell command line; its status (output in p, freed by the caller). */
static int sh(struct el_proc *p, const char *cmd)
{
	proc_run(p, (const char *const[]){"/bin/sh", "-c", cmd, NULL});
	return p->status;
}

/* Waits until the cluster has no job left (queued or running). */
static void slurm_idle(void)
{
	time_t end = time(NULL) + 180;
	struct el_proc p;

	for (;;) {
		int busy;

		cr_assert_eq(sh(&p, "squeue -h -o %i"), 0, "squeue: %s", p.err);
		busy = p.out[0] != '\0';
		proc_free(&p);
		if (!busy)
			return;
		cr_assert(time(NULL) < end, "jobs still queued after 180 s");
		usleep(300 * 1000);
	}
}

/* The fleet of the issue: pagefault-return, traced, 2 runs on each of 2 classes. */
static const char *emit(const char *engine)
{
	const char *dir = tmp_output("fleet");
	struct el_proc p;

	entrylab(&p, "matrix", "pagefault-return", "--trace", "-r", "2", "--hosts",
		 "classA,classB", "--emit", engine, dir, NULL);
	cr_assert_eq(p.status, 0, "emit: %s%s", p.out, p.err);
	cr_expect(strstr(p.out, "8 tasks"), "%s", p.out);
	proc_free(&p);
	return dir;
}

/* The collected fleet: runs.jsonl holds tasks 0-7 exactly once, each with its class. */
static void expect_complete(const char *dir, const char *engine)
{
	char path[256];
	struct el_proc p;
	int seen[8] = {0};
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	entrylab(&p, "matrix", "--collect", dir, NULL);
	cr_expect_eq(p.status, 0, "collect: %s%s", p.out, p.err);
	cr_expect(strstr(p.out, "8 tasks: 8 ok"), "%s", p.out);
	proc_free(&p);
	snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
	cr_assert_eq(record_count(path), 8);
	cr_assert((f = fopen(path, "r")));
	while (getline(&line, &cap, f) > 0) {
		struct json_object *r = json_tokener_parse(line);
		int t = json_object_get_int(jget(r, "fleet.task"));

		cr_assert(r && t >= 0 && t < 8);
		seen[t]++;
		cr_expect_str_eq(jstr(r, "fleet.class"), t < 4 ? "classA" : "classB");
		cr_expect_str_eq(jstr(r, "fleet.engine"), engine);
		cr_expect_str_eq(jstr(r, "status"), "ok");
		cr_expect(jget(r, "fleet.job"), "the engine's job id is recorded");
		json_object_put(r);
	}
	free(line);
	fclose(f);
	for (int t = 0; t < 8; t++)
		cr_expect_eq(seen[t], 1, "task %d has %d records", t, seen[t]);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	cr_assert((f = fopen(path, "r")));
	{
		char md[65536];
		size_t n = fread(md, 1, sizeof(md) - 1, f);

		md[n] = '\0';
		cr_expect(strstr(md, "## Class classA\n") && strstr(md, "## Class classB\n"),
			  "a section per class:\n%s", md);
		cr_expect(strstr(md, "## Across host classes"));
	}
	fclose(f);
}

/* The job id submit.sh recorded for what ("classA", "collect"). */
static long job_of(const char *dir, const char *what)
{
	char path[256], name[64];
	long id = -1, v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/slurm/jobs", dir);
	cr_assert((f = fopen(path, "r")), "submit.sh wrote no %s", path);
	while (fscanf(f, "%63s %ld", name, &v) == 2)
		if (!strcmp(name, what))
			id = v;
	fclose(f);
	cr_assert_gt(id, 0, "no job for %s", what);
	return id;
}

Test(fleet, slurm_runs_every_task_once_and_reports_by_class, .fini = cluster_stop)
{
	const char *dir;
	char cmd[512];
	struct el_proc p;

	cluster_start();
	dir = emit("slurm");
	snprintf(cmd, sizeof(cmd), "%s/submit.sh", dir);
	cr_assert_eq(sh(&p, cmd), 0, "submit: %s%s", p.out, p.err);
	cr_expect(strstr(p.out, "submitted collect"), "%s", p.out);
	proc_free(&p);
	slurm_idle();
	/* the collect job ran after both arrays (afterany) and merged all 8 */
	snprintf(cmd, sizeof(cmd), "cat %s/logs/collect-%ld.out", dir, job_of(dir, "collect"));
	cr_expect_eq(sh(&p, cmd), 0);
	cr_expect(strstr(p.out, "8 tasks: 8 ok"), "the collect job's log:\n%s", p.out);
	proc_free(&p);
	expect_complete(dir, "slurm");
}

Test(fleet, slurm_cancelled_tasks_are_named_and_resubmitted, .fini = cluster_stop)
{
	const char *dir;
	char cmd[1024], *line, *save;
	struct el_proc p;
	unsigned resubmits = 0;

	cluster_start();
	dir = emit("slurm");
	/* everything held, two tasks cancelled, the rest released */
	snprintf(cmd, sizeof(cmd), "SBATCH_HOLD=1 %s/submit.sh", dir);
	cr_assert_eq(sh(&p, cmd), 0, "submit: %s%s", p.out, p.err);
	proc_free(&p);
	snprintf(cmd, sizeof(cmd), "scancel %ld_1 %ld_2 && scontrol release %ld %ld %ld",
		 job_of(dir, "classA"), job_of(dir, "classB"), job_of(dir, "classA"),
		 job_of(dir, "classB"), job_of(dir, "collect"));
	cr_assert_eq(sh(&p, cmd), 0, "%s: %s%s", cmd, p.out, p.err);
	proc_free(&p);
	slurm_idle();
	entrylab(&p, "matrix", "--collect", dir, NULL);
	cr_expect_eq(p.status, 1, "tasks missing: exit 1; %s%s", p.out, p.err);
	cr_expect(strstr(p.err, "task 1 (class classA, iret run 2): missing"), "%s", p.err);
	cr_expect(strstr(p.err, "task 6 (class classB, sysret run 1): missing"), "%s", p.err);
	snprintf(cmd, sizeof(cmd), "sbatch --array=1 %s/slurm/classA.sbatch", dir);
	cr_expect(strstr(p.err, cmd), "the resubmit command for classA:\n%s", p.err);
	snprintf(cmd, sizeof(cmd), "sbatch --array=2 %s/slurm/classB.sbatch", dir);
	cr_expect(strstr(p.err, cmd), "the resubmit command for classB:\n%s", p.err);
	/* run exactly the commands it printed */
	for (line = strtok_r(p.err, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct el_proc q;

		if (strncmp(line, "  sbatch ", 9))
			continue;
		cr_expect_eq(sh(&q, line + 2), 0, "%s: %s%s", line, q.out, q.err);
		proc_free(&q);
		resubmits++;
	}
	proc_free(&p);
	cr_expect_eq(resubmits, 2);
	slurm_idle();
	expect_complete(dir, "slurm");
}

Test(fleet, parallel_runs_every_task_once_and_resubmits_lost_ones)
{
	const char *dir;
	char cmd[1024], *line, *save;
	struct el_proc p;
	unsigned reruns = 0;

	if (sh(&p, "command -v parallel") != 0) {
		proc_free(&p);
		cr_skip_test("GNU parallel is not installed (apt-get install parallel)");
	}
	proc_free(&p);
	dir = emit("parallel");
	snprintf(cmd, sizeof(cmd), "%s/submit.sh", dir);
	cr_assert_eq(sh(&p, cmd), 0, "submit.sh (parallel, then collect): %s%s", p.out, p.err);
	proc_free(&p);
	expect_complete(dir, "parallel");
	/* two parts lost: collect names them and the parallel command that reruns them */
	snprintf(cmd, sizeof(cmd), "rm %s/parts/task-1.json %s/parts/task-6.json", dir, dir);
	cr_assert_eq(sh(&p, cmd), 0);
	proc_free(&p);
	entrylab(&p, "matrix", "--collect", dir, NULL);
	cr_expect_eq(p.status, 1, "%s%s", p.out, p.err);
	for (line = strtok_r(p.err, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct el_proc q;

		if (strncmp(line, "  parallel ", 11))
			continue;
		cr_expect(strstr(line, "::: 1") || strstr(line, "::: 6"), "%s", line);
		cr_expect_eq(sh(&q, line + 2), 0, "%s: %s%s", line, q.out, q.err);
		proc_free(&q);
		reruns++;
	}
	proc_free(&p);
	cr_expect_eq(reruns, 2);
	expect_complete(dir, "parallel");
	/* submit.sh again: the joblogs say all succeeded, --resume-failed reruns nothing */
	snprintf(cmd, sizeof(cmd), "%s/submit.sh", dir);
	cr_expect_eq(sh(&p, cmd), 0, "%s%s", p.out, p.err);
	cr_expect(!strstr(p.err, "task "), "no task ran again:\n%s", p.err);
	proc_free(&p);
}
