/*
 * threadcheck: threads as Linux has them (see threadcheck.h).
 *   threadcheck              every group
 *   threadcheck GROUP...     only these (e.g. `threadcheck mutex`)
 *   threadcheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/sys.h"
#include "threadcheck.h"

long tc_futex(volatile int *uaddr, int op, int val, const void *timeout)
{
	return el_syscall4(SYS_futex, (long)uaddr, op, val, (long)timeout);
}

long tc_gettid(void)
{
	return el_syscall1(SYS_gettid, 0);
}

int tc_pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

void tc_nap_ms(long ms)
{
	struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static const struct el_group groups[] = {
	{"mutex", "4 threads contend on a mutex; TLS, tids, join values", tc_pthread},
	{"signals", "tgkill to one thread; a process signal goes to a thread not blocking it",
	 tc_signals},
	{"exit", "exit_group from a thread; the main thread's pthread_exit", tc_exit},
	{"clone", "raw clone: SETTLS, PARENT_SETTID, CHILD_SETTID, CHILD_CLEARTID + futex wake",
	 tc_clone},
	{"futex", "FUTEX_WAIT/WAKE: EAGAIN, ETIMEDOUT, wake counts, errors", tc_futex_group},
	{"sched", "affinity, sched_yield interleaving, timer preemption", tc_sched},
};

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("threadcheck", groups, _IONBF, argc, argv);
}
