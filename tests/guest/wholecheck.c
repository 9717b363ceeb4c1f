/*
 * wholecheck: a program with no region markers of its own (no marker
 * library, no marker sites), for whole-program regions (--region whole,
 * abi.h enum el_region_scope): everything it does, its children included,
 * is the region.  tests/kvm/test_whole_region.c runs it and checks the
 * record against what each mode did.
 *
 *   wholecheck fork PAGES     a child writes PAGES fresh pages (a fault
 *                             each) and exits; the parent waits for it,
 *                             then touches nothing more and exits 0
 *   wholecheck markers        the markers' raw syscalls (BEGIN with 7
 *                             iterations, END, QUERY) all answer 0; exit 0
 *   wholecheck signal         the program ends by SIGKILL (status 137)
 *   wholecheck thread         a second thread calls exit(3): exit_group
 *                             from a thread that is not the leader
 *
 * A failed step prints "wholecheck: FAIL ..." and exits 1.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "entrylab/abi.h"

#define PAGE 4096ul

static int fail(const char *what)
{
	printf("wholecheck: FAIL %s\n", what);
	return 1;
}

/* The child's pages fault in the child: only a region that counts children sees them. */
static int run_fork(unsigned long pages)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		volatile char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(2);
		for (unsigned long i = 0; i < pages; i++)
			p[i * PAGE] = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return fail("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fail("child status");
	printf("wholecheck: child wrote %lu pages\n", pages);
	return 0;
}

static int run_markers(void)
{
	long q = syscall(EL_SYS_REGION, EL_REGION_QUERY, 0);
	long b = syscall(EL_SYS_REGION, EL_REGION_BEGIN, 7);
	long e = syscall(EL_SYS_REGION, EL_REGION_END, 0);

	printf("wholecheck: query %ld begin %ld end %ld\n", q, b, e);
	return q || b || e ? fail("a marker did not answer 0") : 0;
}

static void *thread_exit(void *arg)
{
	(void)arg;
	fflush(stdout);
	exit(3);
}

static int run_thread(void)
{
	pthread_t t;

	printf("wholecheck: a second thread exits the process with 3\n");
	if (pthread_create(&t, NULL, thread_exit, NULL))
		return fail("pthread_create");
	pthread_join(t, NULL);
	return fail("the thread's exit did not end the process");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return run_fork(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "markers"))
		return run_markers();
	if (argc == 2 && !strcmp(argv[1], "signal")) {
		fflush(stdout);
		raise(SIGKILL);
		return fail("SIGKILL did not end the process");
	}
	if (argc == 2 && !strcmp(argv[1], "thread"))
		return run_thread();
	fprintf(stderr, "usage: wholecheck fork PAGES | markers | signal | thread\n");
	return 2;
}
