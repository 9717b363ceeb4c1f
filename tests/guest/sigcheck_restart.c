/*
 * sigcheck restart: a signal from another process interrupts a blocking
 * system call.  wait4() on a live child restarts under SA_RESTART and fails
 * with EINTR without it (Linux's -ERESTARTSYS); nanosleep() answers EINTR
 * either way (Linux never restarts it after a handler) with the time left;
 * sigsuspend() wakes up.  The sender is a forked child that waits before each
 * step so the parent is already asleep; a run where the signal came too early
 * is retried.  Only fork, wait4, kill and nanosleep: no pipes.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sigcheck.h"

#define DELAY_NS 100000000l  /* 100 ms between the child's steps */

static void nap(long ns)
{
	struct timespec t = {.tv_sec = ns / 1000000000l, .tv_nsec = ns % 1000000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Child: wait, SIGUSR1 to the parent, wait again, exit 0. */
static pid_t sender(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	nap(DELAY_NS);
	kill(parent, SIGUSR1);
	nap(DELAY_NS);
	_exit(0);
}

static void wait_interrupted(const char *name, int flags, int want_eintr)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int st = -1, e, ok;
		pid_t child, r, again = 0;

		sc_install(SIGUSR1, sc_record_handler, flags);
		sc_reset();
		child = sender();
		if (child < 0) {
			el_fail(name, "fork: %s", strerror(errno));
			return;
		}
		r = waitpid(child, &st, 0);
		e = errno;
		if (r < 0 && e == EINTR)
			again = waitpid(child, &st, 0);
		sc_default(SIGUSR1);
		if (want_eintr)
			ok = r == -1 && e == EINTR && again == child;
		else
			ok = r == child;
		ok = ok && sc_seen.count == 1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (ok) {
			el_pass(name);
			return;
		}
		if (attempt == 2)
			el_fail(name,
				"waitpid gave %d (errno %s), then %d; handler ran %d times, status %#x;"
				" want %s",
				r, strerror(e), again, sc_seen.count, st,
				want_eintr ? "EINTR, then the child" : "the child (restarted)");
	}
}

static int reap(pid_t pid)
{
	int st = -1;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void sleep_interrupted(void)
{
	struct timespec req = {.tv_sec = 5}, rem = {0};
	pid_t child;
	int r, e;

	sc_install(SIGUSR1, sc_record_handler, SA_RESTART);
	sc_reset();
	child = sender();
	r = nanosleep(&req, &rem);
	e = errno;
	el_expect("restart.nanosleep_eintr_with_remaining",
		  r == -1 && e == EINTR && sc_seen.count == 1 && rem.tv_sec >= 3 && rem.tv_sec < 5,
		  "nanosleep %d errno %s, handler %d, remaining %lld.%09ld (want about 4.9 s)", r,
		  strerror(e), sc_seen.count, (long long)rem.tv_sec, rem.tv_nsec);
	el_expect("restart.sender_exited", reap(child), "the sending child failed");
	sc_default(SIGUSR1);
}

static void suspend_woken(void)
{
	sigset_t none;
	pid_t child;
	int r, e;

	sc_install(SIGUSR1, sc_record_handler, 0);
	sc_reset();
	sc_block(SC_BIT(SIGUSR1));
	child = sender();
	sigemptyset(&none);
	r = sigsuspend(&none);
	e = errno;
	el_expect("restart.sigsuspend_woken_by_child",
		  r == -1 && e == EINTR && sc_seen.count == 1 && sc_seen.si.si_pid == child &&
			  sc_seen.si.si_code == SI_USER,
		  "sigsuspend %d errno %s, handler %d, si_pid %d (child %d) si_code %d", r,
		  strerror(e), sc_seen.count, sc_seen.si.si_pid, child, sc_seen.si.si_code);
	reap(child);
	sc_unblock(SC_BIT(SIGUSR1));
	sc_default(SIGUSR1);
}

void sc_restart(void)
{
	wait_interrupted("restart.wait4_sa_restart_restarts", SA_RESTART, 0);
	wait_interrupted("restart.wait4_without_sa_restart_eintr", 0, 1);
	sleep_interrupted();
	suspend_woken();
}
