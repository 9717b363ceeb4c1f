/*
 * forkcheck: processes as Linux has them (see forkcheck.h).
 *   forkcheck              every default group
 *   forkcheck GROUP...     only these
 *   forkcheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forkcheck.h"

pid_t fc_spawn(int (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn());
	return pid;
}

int fc_wait(pid_t pid)
{
	int st = -1;
	pid_t r;

	do
		r = waitpid(pid, &st, 0);
	while (r < 0 && errno == EINTR);
	return r == pid ? st : -1;
}

void fc_nap_ms(long ms)
{
	struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static const struct el_group groups[] = {
	{"fork", "fork: exit statuses, what the child inherits and what it does not", fc_fork},
	{"wait", "wait4, waitid, WNOHANG, WNOWAIT, ECHILD, many children, SIGCHLD", fc_wait_group},
	{"vfork", "vfork shares memory and suspends the parent until _exit", fc_vfork},
	{"orphan", "an orphan is reparented to init (or our subreaper) (extra)", fc_orphan},
};

int main(int argc, char **argv)
{
	/* Unbuffered lines: a child's _exit must not flush (or lose) the parent's output. */
	return EL_RUN_GROUPS("forkcheck", groups, _IONBF, argc, argv);
}
