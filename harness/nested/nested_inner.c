/*
 * The inner entrylab's side of the nested runner (nested.h): the test hook
 * that kills it on purpose, so the host's handling of a VMM that died
 * inside the VM can be tested (the agent sees the signal through waitpid).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "nested.h"
#include "nested_priv.h"

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

	for (size_t i = 0; v && i < EL_ARRAY_SIZE(crash_signals); i++) {
		if (strcmp(v, crash_signals[i].name))
			continue;
		fprintf(stderr, "entrylab: %s=%s: dying of SIG%s on purpose (a test)\n",
			NESTED_ENV_TEST_CRASH, v, v);
		fflush(stderr);
		signal(crash_signals[i].sig, SIG_DFL);
		raise(crash_signals[i].sig);
	}
}
