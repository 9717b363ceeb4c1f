/*
 * The inner entrylab's side of the nested runner (nested.h): telling the
 * VM's init that it exited (so a death by a signal can be told from an exit
 * status such as 139 that a guest program chose), and the test hook that
 * kills it on purpose.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nested.h"
#include "nested_priv.h"

static pid_t inner_pid;

/* on_exit(3) handler: the exit status into the file init named (not from forked children). */
static void inner_exited(int status, void *path)
{
	FILE *f = getpid() == inner_pid ? fopen(path, "w") : NULL;

	if (!f)
		return; /* init then reports the command as died without a status */
	fprintf(f, "%d\n", status & 0xff);
	fclose(f);
}

void nested_inner_arm(void)
{
	const char *path = nested_is_inner() ? getenv(NESTED_ENV_STATUS) : NULL;

	inner_pid = getpid();
	if (path && *path)
		on_exit(inner_exited, (void *)path);
}

/* Signals the test hook may raise, by the name it is given. */
static const struct {
	const char *name;
	int sig;
} crash_signals[] = {
	{"SEGV", SIGSEGV},
	{"ABRT", SIGABRT},
	{"KILL", SIGKILL},
	{"BUS", SIGBUS},
};

void nested_inner_test_crash(void)
{
	const char *v = nested_is_inner() ? getenv(NESTED_ENV_TEST_CRASH) : NULL;

	for (size_t i = 0; v && i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++) {
		if (strcmp(v, crash_signals[i].name))
			continue;
		fprintf(stderr, "entrylab: %s=%s: dying of SIG%s on purpose (a test)\n",
			NESTED_ENV_TEST_CRASH, v, v);
		fflush(stderr);
		signal(crash_signals[i].sig, SIG_DFL);
		raise(crash_signals[i].sig);
	}
}
