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

static const struct group {
	const char *name, *what;
	void (*run)(void);
	int by_default;
} groups[] = {
	{"fork", "fork: exit statuses, what the child inherits and what it does not", fc_fork, 1},
	{"wait", "wait4, waitid, WNOHANG, WNOWAIT, ECHILD, many children, SIGCHLD", fc_wait_group,
	 1},
	{"vfork", "vfork shares memory and suspends the parent until _exit", fc_vfork, 1},
	{"orphan", "an orphan is reparented to init (or our subreaper) (extra)", fc_orphan, 0},
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NGROUPS; i++)
			printf("%-7s %s%s\n", groups[i].name, groups[i].what,
			       groups[i].by_default ? "" : " [not run by default]");
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0;

		while (i < NGROUPS && strcmp(argv[a], groups[i].name))
			i++;
		if (i == NGROUPS) {
			fprintf(stderr, "forkcheck: no group '%s' (forkcheck --list)\n", argv[a]);
			return 2;
		}
	}
	/* Unbuffered lines: a child's _exit must not flush (or lose) the parent's output. */
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < NGROUPS; i++) {
		int run = argc == 1 ? groups[i].by_default : 0;

		for (int a = 1; a < argc; a++)
			run |= !strcmp(argv[a], groups[i].name);
		if (!run)
			continue;
		printf("forkcheck: %s: %s\n", groups[i].name, groups[i].what);
		groups[i].run();
	}
	return el_summary("forkcheck");
}
