/*
 * threadcheck exit: how a multi-threaded process ends (each in a forked
 * child, judged by its wait status).
 *   - a thread calls exit(5) (exit_group) while the main thread waits in
 *     pthread_join: the whole process ends with status 5;
 *   - the main thread calls pthread_exit() while another thread runs on;
 *     that one calls exit(6) 100 ms later: the process lives until then and
 *     ends with 6.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "threadcheck.h"

static void *exit_5(void *arg)
{
	(void)arg;
	tc_nap_ms(20);
	exit(5);
}

static void *exit_6_later(void *arg)
{
	(void)arg;
	tc_nap_ms(100);
	exit(6);
}

static int child_status(void *(*fn)(void *), int main_exits)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, fn, NULL))
			_exit(90);
		if (main_exits)
			pthread_exit(NULL);
		pthread_join(t, NULL);
		_exit(91);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

void tc_exit(void)
{
	int st = child_status(exit_5, 0);

	el_expect("exit.exit_group_from_thread", WIFEXITED(st) && WEXITSTATUS(st) == 5,
		  "status %#x (90: no thread, 91: join returned)", st);
	st = child_status(exit_6_later, 1);
	el_expect("exit.main_pthread_exit_process_lives_on", WIFEXITED(st) && WEXITSTATUS(st) == 6,
		  "status %#x", st);
}
