/*
 * The nested runner's warm VMs (harness/nested/README.md), with
 * --nested so they run on every host, each test in a runner directory of
 * its own (ENTRYLAB_NESTED_RUNNER_DIR) so that the suite's other commands
 * never share its slots: the record says which path a run took, a second
 * command finds the runner warm, a runner killed with SIGKILL between two
 * commands is replaced and the command says so, two commands at once are
 * both right, a hung runner is replaced, --no-warm boots a VM for one
 * command, and `entrylab runner stop` leaves no QEMU behind.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "harness.h"
#include "host_io.h"

TestSuite(nested_runner, .timeout = 300);

/* A runner directory for this test alone; ENTRYLAB_NESTED_RUNNERS slots in it. */
static const char *own_runners(const char *name, const char *runners)
{
	static char dir[256];

	snprintf(dir, sizeof(dir), "%s.runners", tmp_output(name));
	cr_assert(mkdir(dir, 0700) == 0 || errno == EEXIST, "mkdir %s", dir);
	setenv("ENTRYLAB_NESTED_RUNNER_DIR", dir, 1);
	setenv("ENTRYLAB_NESTED_RUNNERS", runners, 1);
	return dir;
}

static void stop_runners(void)
{
	struct el_proc p;

	entrylab(&p, "runner", "stop", NULL);
	cr_expect_eq(p.status, 0, "runner stop: %s", p.err);
	proc_free(&p);
	unsetenv("ENTRYLAB_NESTED_RUNNER_DIR");
	unsetenv("ENTRYLAB_NESTED_RUNNERS");
}

/* One `run --nested getpid 1000`; its record's host.nested, checked ok. */
static struct json_object *run_getpid(const char *out, struct el_proc *p, const char *extra)
{
	struct json_object *rec;

	if (extra)
		entrylab(p, "run", "--nested", extra, "-o", out, "getpid", "1000", NULL);
	else
		entrylab(p, "run", "--nested", "-o", out, "getpid", "1000", NULL);
	cr_assert_eq(p->status, 0, "run getpid: exit %d\n%s", p->status, p->err);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect_str_eq(jstr(rec, "host.kvm"), "nested");
	cr_assert(jget(rec, "host.nested"), "the record has no host.nested:\n%s",
		  json_object_to_json_string(rec));
	return rec;
}

/* The QEMU pid `entrylab runner` lists for the one runner, or 0. */
static long runner_pid(void)
{
	struct el_proc p;
	const char *at;
	long pid = 0;

	entrylab(&p, "runner", NULL);
	cr_expect_eq(p.status, 0);
	at = strstr(p.out, "QEMU pid ");
	if (at)
		pid = strtol(at + strlen("QEMU pid "), NULL, 10);
	proc_free(&p);
	return pid;
}

/*
 * Whether pid has ended: no such process, or a zombie.  A killed runner is
 * not our child: its parent (init, here) reaps it when it gets to it, which
 * took more than 2 s on a loaded 2-core machine (load 10), while the process
 * had long stopped running.
 */
static bool ended(long pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	size_t n;

	if (kill((pid_t)pid, 0) != 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (COMM) STATE ...": the state follows the last ')' */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* Whether pid is gone, after waiting up to 5 s for it to go. */
static bool gone(long pid)
{
	for (int i = 0; i < 250 && !ended(pid); i++)
		usleep(20000);
	return ended(pid);
}

Test(nested_runner, warm_then_killed_then_replaced)
{
	const char *out = tmp_output("warm.jsonl");
	struct json_object *rec;
	struct el_proc p;
	long pid;

	own_runners("warm", "1");
	rec = run_getpid(out, &p, NULL);
	cr_expect_str_eq(jstr(rec, "host.nested.runner"), "warm");
	cr_expect(json_object_get_boolean(jget(rec, "host.nested.runner_started")),
		  "the first command boots the runner");
	json_object_put(rec);
	proc_free(&p);

	rec = run_getpid(out, &p, NULL);
	cr_expect(!json_object_get_boolean(jget(rec, "host.nested.runner_started")),
		  "the second command found it warm");
	cr_expect_eq(json_object_get_int64(jget(rec, "host.nested.runner_commands")), 2);
	cr_expect_lt(json_object_get_double(jget(rec, "host.nested.setup_s")), 1.0,
		     "a warm runner's set-up is a connect");
	json_object_put(rec);
	proc_free(&p);

	pid = runner_pid();
	cr_assert_gt(pid, 1, "entrylab runner lists no runner");
	cr_assert_eq(kill((pid_t)pid, SIGKILL), 0);
	cr_assert(gone(pid), "QEMU %ld outlived SIGKILL", pid);

	rec = run_getpid(out, &p, NULL);
	cr_expect(strstr(p.err, "the warm runner in slot 0 is gone"),
		  "the command must say it replaced the runner:\n%s", p.err);
	cr_expect(json_object_get_boolean(jget(rec, "host.nested.runner_started")));
	cr_expect_eq(json_object_get_int64(jget(rec, "host.nested.runner_commands")), 1,
		     "a new runner");
	cr_expect_neq(runner_pid(), pid);
	json_object_put(rec);
	proc_free(&p);
	stop_runners();
	cr_expect_neq(kill((pid_t)pid, 0), 0);
}

/* `entrylab run getpid & entrylab run gettid`: two slots, each its own right record. */
Test(nested_runner, two_commands_at_once)
{
	const char *benches[2] = {"getpid", "gettid"};
	char outs[2][256];
	pid_t kids[2];

	own_runners("twice", "2");
	for (int i = 0; i < 2; i++) {
		snprintf(outs[i], sizeof(outs[i]), "%s", tmp_output(benches[i]));
		kids[i] = fork();
		cr_assert_geq(kids[i], 0);
		if (!kids[i]) {
			char errf[600];
			int null = open("/dev/null", O_WRONLY), efd;

			snprintf(errf, sizeof(errf), "%s.err", outs[i]);
			efd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(null, 1);
			dup2(efd, 2);
			execl(EL_ENTRYLAB, EL_ENTRYLAB, "run", "--nested", "-o", outs[i], benches[i],
			      "1000", (char *)NULL);
			_exit(127);
		}
	}
	for (int i = 0; i < 2; i++) {
		struct json_object *rec;
		int status;
		char errf[600], ebuf[128], *err;
		size_t elen;

		cr_assert_eq(waitpid(kids[i], &status, 0), kids[i]);
		snprintf(errf, sizeof(errf), "%s.err", outs[i]);
		err = io_read_file(errf, 1 << 20, &elen, ebuf, sizeof(ebuf));
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: status 0x%x\n%s",
			  benches[i], status, err ? err : ebuf);
		free(err);
		rec = last_record(outs[i]);
		cr_assert(rec, "%s: no record", benches[i]);
		cr_expect_str_eq(jstr(rec, "status"), "ok");
		cr_expect_str_eq(jstr(rec, "bench.name"), benches[i]);
		cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 1000,
			     "%s: the run measured its own loop", benches[i]);
		json_object_put(rec);
	}
	stop_runners();
}

Test(nested_runner, no_warm_is_a_vm_for_one_command)
{
	const char *out = tmp_output("cold.jsonl");
	struct json_object *rec;
	struct el_proc p;

	own_runners("cold", "1");
	rec = run_getpid(out, &p, "--no-warm");
	cr_expect_str_eq(jstr(rec, "host.nested.runner"), "cold");
	cr_expect(json_object_get_boolean(jget(rec, "host.nested.runner_started")));
	json_object_put(rec);
	proc_free(&p);
	cr_expect_eq(runner_pid(), 0, "--no-warm left a warm runner behind");
	stop_runners();
}

/*
 * A runner that hangs (its QEMU stopped with SIGSTOP): the next command gets
 * no ACK within ENTRYLAB_NESTED_ACK_TIMEOUT, says so, kills it, and runs on
 * a new one; nothing ran on the hung one, so the command is not failed.
 */
Test(nested_runner, hung_runner_is_replaced)
{
	const char *out = tmp_output("hung.jsonl");
	struct json_object *rec;
	struct el_proc p;
	long pid;

	own_runners("hung", "1");
	rec = run_getpid(out, &p, NULL);
	json_object_put(rec);
	proc_free(&p);
	pid = runner_pid();
	cr_assert_gt(pid, 1, "entrylab runner lists no runner");
	cr_assert_eq(kill((pid_t)pid, SIGSTOP), 0);
	setenv("ENTRYLAB_NESTED_ACK_TIMEOUT", "3", 1);
	rec = run_getpid(out, &p, NULL);
	unsetenv("ENTRYLAB_NESTED_ACK_TIMEOUT");
	cr_expect(strstr(p.err, "did not take the command within 3 s; replacing it"),
		  "the command must say it replaced the hung runner:\n%s", p.err);
	cr_expect(json_object_get_boolean(jget(rec, "host.nested.runner_started")),
		  "it ran on a new runner");
	json_object_put(rec);
	proc_free(&p);
	cr_expect(gone(pid), "the hung QEMU %ld is still there", pid);
	stop_runners();
}
