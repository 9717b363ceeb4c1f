/*
 * User mode in the guest: every benchmark runs to completion and reports
 * its region; user programs of our own check the Linux ABI from inside.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "array_size.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(programs, .timeout = 900);

/* Runs a benchmark with small arguments; returns its record (caller puts it). */
static struct json_object *bench_run(const char *name, const char *const *args, int want)
{
	const char *argv[32] = {EL_ENTRYLAB, "run", "-o", NULL, name};
	struct el_proc p;
	struct json_object *rec;
	char out[64];
	int n = 5;

	snprintf(out, sizeof(out), "bench-%s.jsonl", name);
	argv[3] = tmp_output(out);
	while (args && *args && n < 30)
		argv[n++] = *args++;
	argv[n] = NULL;
	proc_run(&p, argv);
	cr_expect_eq(p.status, want, "%s: exit %d, want %d\n%s", name, p.status, want, p.err);
	rec = last_record(argv[3]);
	cr_assert(rec, "%s: no record", name);
	proc_free(&p);
	return rec;
}

static void expect_region(struct json_object *rec, const char *name)
{
	cr_expect_str_eq(jstr(rec, "status"), "ok", "%s", name);
	cr_assert(jget(rec, "region.tsc_ticks"), "%s: no region in the record", name);
	cr_expect_gt(json_object_get_int64(jget(rec, "region.tsc_ticks")), 0, "%s", name);
	cr_expect_eq(json_object_get_int64(jget(rec, "region.exits")), 0,
		     "%s: VM exits inside the measured region", name);
}

/*
 * A check program of tests/guest/ in the guest: it exits 0 with exactly
 * `passed` checks passed, none failed or skipped, and no FAIL line.  Each
 * one checks Linux's behaviour (it passes on a Linux host as well).
 */
static void expect_all_pass(const char *name, unsigned passed)
{
	char bin[256], out[64], want[96];
	struct el_proc p;

	snprintf(bin, sizeof(bin), GUEST_BIN "%s", name);
	snprintf(out, sizeof(out), "%s.jsonl", name);
	snprintf(want, sizeof(want), "%s: %u passed, 0 failed, 0 skipped", name, passed);
	{
		const char *argv[] = {EL_ENTRYLAB, "run", "--timeout", "120", "-o", tmp_output(out),
				      "--exec", bin, NULL};

		proc_run(&p, argv);
	}
	cr_expect_eq(p.status, 0, "%s failed in the guest:\n%s\n%s", name, p.out, p.err);
	cr_expect(strstr(p.out, want), "want \"%s\":\n%s", want, p.out);
	cr_expect(!strstr(p.out, "FAIL:"), "%s", p.out);
	proc_free(&p);
}

static const char *const small[] = {"200", NULL};

Test(programs, pagefault)
{
	const char *const args[] = {"1M", "3", NULL};
	struct json_object *rec = bench_run("pagefault", args, 0);

	expect_region(rec, "pagefault");
	/* 1 MiB = 256 pages, 3 rounds: at least 768 zero-page faults. */
	cr_expect_geq(json_object_get_int64(jget(rec, "region.page_faults")), 768);
	json_object_put(rec);
}

Test(programs, lseek)
{
	struct json_object *rec = bench_run("lseek", small, 0);

	expect_region(rec, "lseek");
	cr_expect_geq(json_object_get_int64(jget(rec, "region.syscalls")), 200);
	json_object_put(rec);
}

Test(programs, getpid_gettid)
{
	struct json_object *rec = bench_run("getpid", small, 0);

	expect_region(rec, "getpid");
	json_object_put(rec);
	rec = bench_run("gettid", small, 0);
	expect_region(rec, "gettid");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 200,
		     "exactly one syscall per iteration inside the region");
	json_object_put(rec);
}

/* pipe: every round trip is exactly two writes and two reads, and no interrupt paces it. */
Test(programs, pipe_round_trips)
{
	struct json_object *rec = bench_run("pipe", small, 0);

	expect_region(rec, "pipe");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 4 * 200,
		     "four syscalls per round trip inside the region");
	json_object_put(rec);
}

Test(programs, vdso_clock_gettime_makes_no_syscall)
{
	const char *const args[] = {"1000", NULL};
	struct json_object *rec = bench_run("clock_gettime", args, 0);

	expect_region(rec, "clock_gettime");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 0,
		     "clock_gettime went to the kernel: the vDSO was not used");
	json_object_put(rec);
}

Test(programs, time_benches)
{
	static const char *const names[] = {"gettimeofday", "time", "getcpu"};

	for (size_t i = 0; i < EL_ARRAY_SIZE(names); i++) {
		struct json_object *rec = bench_run(names[i], small, 0);

		expect_region(rec, names[i]);
		json_object_put(rec);
	}
}

Test(programs, vsyscall_native)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", "vsyscall=native", "-o",
			      tmp_output("vsys.jsonl"), "vsyscall", "200", NULL};
	struct el_proc p;
	struct json_object *rec;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "%s", p.err);
	rec = last_record(argv[5]);
	cr_assert(rec);
	expect_region(rec, "vsyscall");
	cr_expect_str_eq(jstr(rec, "guest.config.vsyscall"), "native");
	json_object_put(rec);
	proc_free(&p);
}

Test(programs, usercheck)
{
	char host_time[48];
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", "vsyscall=native", "-o",
			      tmp_output("usercheck.jsonl"), "--exec", GUEST_BIN "usercheck",
			      "--vsyscall=native", "--vdso=yes", host_time, "--host-time-tol=2", NULL};

	snprintf(host_time, sizeof(host_time), "--host-time=%lld", (long long)time(NULL));
	struct el_proc p;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "usercheck failed in the guest:\n%s\n%s", p.out, p.err);
	{
		/* The guest's realtime is not after the host's once the command is done (order, not a bound). */
		long long done = (long long)time(NULL), guest = -1;
		const char *line = strstr(p.out, "usercheck: time.host: CLOCK_REALTIME ");

		cr_expect(line && sscanf(line, "usercheck: time.host: CLOCK_REALTIME %lld", &guest) == 1,
			  "usercheck printed no time.host line:\n%s", p.out);
		cr_expect(guest <= done + 2, "the guest's CLOCK_REALTIME %lld s is after the host's %lld s "
			  "at the end of the command", guest, done);
	}
	cr_expect(strstr(p.out, "PASS"), "no PASS line arrived from the guest program:\n%s", p.out);
	cr_expect(!strstr(p.out, "FAIL"), "%s", p.out);
	proc_free(&p);
}

Test(programs, exec_status_and_stdout)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", tmp_output("st.jsonl"), "--exec",
			      GUEST_BIN "usercheck", "--no-such-option", NULL};
	struct el_proc p;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 2, "the program's usage status (2) must be the run's, got %d",
		     p.status);
	proc_free(&p);
}

Test(programs, segfault_is_139)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", tmp_output("segv.jsonl"), "--exec",
			      GUEST_BIN "segv", NULL};
	struct el_proc p;
	struct json_object *rec;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 139, "a faulting process ends with 139, got %d", p.status);
	rec = last_record(argv[3]);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "status"), "ok", "the guest kernel survived the fault");
	cr_expect(strstr(jstr(rec, "console"), "segfault"), "no segfault line on the console");
	json_object_put(rec);
	proc_free(&p);
}

Test(programs, bad_exec_refused_before_boot)
{
	struct el_proc p;

	entrylab(&p, "run", "--exec", "/bin/sh", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "static"), "%s", p.err);
	proc_free(&p);
	entrylab(&p, "run", "no-such-bench", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "list benches"), "%s", p.err);
	proc_free(&p);
}

/*
 * Sleeps and wakeups (tests/guest/timercheck): 100 sleeps of 1 ms, then 20
 * children sleeping beside their parent, three boots.  Passes when every
 * sleep returns in order and every child is reaped; a lost wakeup would hang
 * it until --timeout.  The record's guest.timer must be there and agree with
 * itself: the program's sleeps took timer interrupts.
 */
Test(programs, timercheck_sleeps_and_children)
{
	const char *out = tmp_output("timercheck.jsonl");
	const char *argv[] = {EL_ENTRYLAB, "run", "-r", "3", "--timeout", "60", "-o", out,
			      "--exec", GUEST_BIN "timercheck", "100", "20", NULL};
	struct json_object *rec;
	struct el_proc p;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "timercheck failed in the guest:\n%s\n%s", p.out, p.err);
	cr_expect(strstr(p.out, "timercheck: 5 passed, 0 failed"), "%s", p.out);
	cr_expect_eq(record_count(out), 3);
	rec = last_record(out);
	cr_assert(rec, "no record");
	cr_assert(jget(rec, "guest.timer"), "the record has no guest.timer");
	cr_expect_geq(json_object_get_int64(jget(rec, "guest.timer.interrupts")), 1,
		      "100 sleeps took no timer interrupt");
	cr_expect_leq(json_object_get_int64(jget(rec, "guest.timer.late_last_ns")),
		      json_object_get_int64(jget(rec, "guest.timer.late_max_ns")));
	cr_expect_leq(json_object_get_int64(jget(rec, "guest.timer.fallbacks")),
		      json_object_get_int64(jget(rec, "guest.timer.interrupts")));
	json_object_put(rec);
	proc_free(&p);
}

/*
 * Pipes (tests/guest/pipecheck): blocking ping-pong between parent
 * and child, EOF, EPIPE with SIGPIPE, O_NONBLOCK's EAGAIN and the 65536-byte
 * capacity, atomic 4096-byte writes from two writers, EINTR and SA_RESTART
 * on a blocked read, O_CLOEXEC across exec.  The program checks Linux's
 * behaviour (it passes on a Linux host); here every check must pass and
 * none be skipped, on our kernel.
 */
Test(programs, pipecheck)
{
	expect_all_pass("pipecheck", 35);
}

/*
 * Files and devices (tests/guest/filecheck): umask, chmod,
 * chown, timestamps, statx; hard links, symlinks, rename(at2), truncate,
 * statfs; /dev's devices and links; MAP_SHARED of /dev/shm files across
 * fork, POSIX shm and a named semaphore; fcntl record locks (POSIX and
 * OFD, waits, EINTR, EDEADLK, release at close and exit) and flock.  The
 * program checks Linux's behaviour (it passes on a Linux host, as root);
 * here every check must pass and none be skipped, on our kernel.
 */
Test(programs, filecheck)
{
	expect_all_pass("filecheck", 148);
}

/*
 * /proc (tests/guest/proccheck): self and thread-self per caller,
 * a child's exe, cwd, cmdline, environ, stat, status and maps, its states
 * S, T, Z and its directory gone once reaped, fd/ links, a re-exec through
 * /proc/self/exe, and the system files.  The program checks Linux's
 * behaviour (it passes on a Linux host); here every check must pass.
 */
Test(programs, proccheck)
{
	expect_all_pass("proccheck", 46);
}

/*
 * AF_UNIX sockets (tests/guest/unixcheck): socketpair, path,
 * abstract and autobind names, listen/connect/accept4 and the backlog,
 * stream, datagram and seqpacket data (boundaries, MSG_PEEK, MSG_TRUNC,
 * iovecs), SCM_RIGHTS, options (SO_PEERCRED ...), blocking with EINTR and
 * SA_RESTART, shutdown, and the peer's close (EOF, EPIPE with SIGPIPE,
 * ECONNRESET).  The program checks Linux's behaviour (it passes on a Linux
 * host); here every check must pass, on our kernel.
 */
Test(programs, unixcheck)
{
	expect_all_pass("unixcheck", 140);
}

/*
 * Robust futex lists and PI futexes (tests/guest/futexcheck):
 * robust mutexes whose owner thread or process dies (EOWNERDEAD,
 * pthread_mutex_consistent, ENOTRECOVERABLE), the kernel's robust-list walk
 * on raw words (owned, foreign, pending, looping, at exec), set/get_robust_list, PI
 * mutexes under contention between threads, and the raw FUTEX_*_PI errors.
 * The program checks Linux's behaviour (it passes on a Linux host); here
 * every check must pass, on our kernel.
 */
Test(programs, futexcheck)
{
	expect_all_pass("futexcheck", 22);
}

/*
 * poll, ppoll, select, pselect6, epoll and FIFOs (tests/guest/pollcheck):
 * readiness of pipe ends, timeouts, wakes by another process,
 * EINTR and the sigmask swapped for the wait, epoll's level, edge and
 * one-shot modes and its errnos, FIFO opens that wait for the other end.
 * The program checks Linux's behaviour (it passes on a Linux host); here
 * every check must pass and none be skipped, on our kernel.
 */
Test(programs, pollcheck)
{
	expect_all_pass("pollcheck", 74);
}

/*
 * Credentials, process groups, sessions and job control
 * (tests/guest/jobcheck): set*id's rules in a child that drops
 * root, EPERM across users, setpgid/setsid/getsid with their errors,
 * kill(0) and kill(-pgid), waitpid by group, group stop and continue as
 * wait(WUNTRACED/WCONTINUED), waitid and SIGCHLD report them, a stopped
 * two-thread process, the orphaned group's SIGHUP, and the console as the
 * controlling terminal (termios, tcsetpgrp, SIGTTOU/SIGTTIN of a
 * background job).  The program checks Linux's behaviour (it passes on a
 * Linux host, under a pty for the terminal part); here every check must
 * pass, the terminal ones included.
 */
Test(programs, jobcheck)
{
	expect_all_pass("jobcheck", 64);
}

/*
 * System V message queues and semaphores (tests/guest/sysvcheck, issue
 * 25): keys and limits, msgrcv's type selection, E2BIG and MSG_NOERROR,
 * full and empty queues with IPC_NOWAIT and with a waiter woken by
 * another process, semop arrays all or nothing, wait-for-zero, ERANGE,
 * semtimedop's timeout, GETNCNT/GETZCNT, SEM_UNDO at exit, EINTR (not
 * restarted) and EIDRM, the ctl commands.  The program checks Linux's
 * behaviour (it passes on a Linux host); here every check must pass.
 */
Test(programs, sysvcheck)
{
	expect_all_pass("sysvcheck", 66);
}
