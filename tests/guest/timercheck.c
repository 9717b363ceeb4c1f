/*
 * timercheck: sleeps and wakeups under load (a lost timer
 * interrupt or wakeup hangs it).
 *   timercheck [SLEEPS [CHILDREN]]     default 200 sleeps of 1 ms, 50 children
 *
 * Phase 1 sleeps 1 ms SLEEPS times in a row; phase 2 forks CHILDREN that
 * each sleep 1-5 ms a few times and exit with their index while the parent
 * sleeps beside them and then waits for every one.  Checked: each sleep
 * returns 0 and not before its time (CLOCK_MONOTONIC), every child is
 * reaped once with its own status, and the whole run ends (a lost wakeup
 * hangs it, which the run's --timeout reports).  How late the sleeps were
 * is printed, never bounded: under emulation or beside CPU hogs a wakeup
 * may be late without being lost (the record's guest.timer says how late
 * the kernel's timer interrupts came and how often its backstop fired).
 * Runs on a Linux host too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define NSEC_PER_MSEC 1000000ll
#define CHILD_SLEEPS 4

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

struct sleep_stats {
	long sleeps, early, failed;
	long long worst_over_ns;
};

/* One nanosleep of ms, checked: returns 0, and not before its time. */
static void sleep_once(struct sleep_stats *s, long ms)
{
	struct timespec d = {0, ms * NSEC_PER_MSEC};
	long long t0 = now_ns(), dt;
	int r = nanosleep(&d, NULL);

	dt = now_ns() - t0;
	s->sleeps++;
	if (r) {
		s->failed++;
		return;
	}
	if (dt < ms * NSEC_PER_MSEC)
		s->early++;
	else if (dt - ms * NSEC_PER_MSEC > s->worst_over_ns)
		s->worst_over_ns = dt - ms * NSEC_PER_MSEC;
}

static void report(const char *name, const struct sleep_stats *s)
{
	el_expect(name, s->failed == 0 && s->early == 0,
		  "%ld sleeps: %ld returned an error, %ld returned early", s->sleeps, s->failed,
		  s->early);
	printf("timercheck: %s: %ld sleeps, worst oversleep %lld us\n", name, s->sleeps,
	       s->worst_over_ns / 1000);
}

static void phase_sleeps(long n)
{
	struct sleep_stats s = {0};
	long i;

	for (i = 0; i < n; i++)
		sleep_once(&s, 1);
	report("sleep.1ms", &s);
}

/* A child: a few short sleeps of its own, early/failed ones in its status. */
static int child(int idx)
{
	struct sleep_stats s = {0};
	int i;

	for (i = 0; i < CHILD_SLEEPS; i++)
		sleep_once(&s, 1 + (idx + i) % 5);
	return s.failed || s.early ? 100 + idx % 100 : idx % 100;
}

static void phase_children(int n)
{
	struct sleep_stats s = {0};
	pid_t *pids = calloc((size_t)n, sizeof(*pids));
	int i, reaped = 0, wrong = 0, forked = 0, st;

	if (!pids) {
		el_fail("children", "calloc: out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(child(i));
		forked += pids[i] > 0;
	}
	for (i = 0; i < CHILD_SLEEPS; i++)
		sleep_once(&s, 1);
	for (i = 0; i < n; i++) {
		pid_t r;

		if (pids[i] <= 0)
			continue;
		do
			r = waitpid(pids[i], &st, 0);
		while (r < 0 && errno == EINTR);
		if (r != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st) != i % 100)
			wrong++;
		else
			reaped++;
	}
	el_expect("children.fork", forked == n, "%d of %d forks succeeded", forked, n);
	el_expect("children.reaped", reaped == forked && !wrong,
		  "%d of %d children reaped with their own status (%d wrong or early)", reaped,
		  forked, wrong);
	el_expect("children.none_left", waitpid(-1, &st, WNOHANG) < 0 && errno == ECHILD,
		  "a child is left after every one was waited for");
	report("children.parent_sleeps", &s);
	free(pids);
}

int main(int argc, char **argv)
{
	long sleeps = argc > 1 ? strtol(argv[1], NULL, 0) : 200;
	int children = argc > 2 ? (int)strtol(argv[2], NULL, 0) : 50;

	if (sleeps < 0 || sleeps > 1000000 || children < 0 || children > 1000) {
		fprintf(stderr, "usage: timercheck [SLEEPS (0-1000000) [CHILDREN (0-1000)]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	phase_sleeps(sleeps);
	phase_children(children);
	return el_summary("timercheck");
}
