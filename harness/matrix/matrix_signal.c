/*
 * SIGINT and SIGTERM during a matrix (matrix_run.h): the handler only
 * notes the signal and kills the boot in flight (its child process, whose
 * VM or QEMU goes with it), so the matrix loop stops at the next step with
 * every record already on disk, and the caller writes the report and says
 * how to resume.  A second signal while stopping ends the process at once.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "matrix_run.h"

static volatile sig_atomic_t stop_signal;
static volatile pid_t child;
static struct sigaction old_int, old_term;
static bool installed;

static void on_signal(int sig)
{
	pid_t pid = child;

	if (stop_signal) {
		/* Asked twice: the user does not want to wait for the report. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_signal = sig;
	if (pid > 0)
		kill(pid, SIGKILL);
}

void matrix_signal_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking read or poll returns EINTR and the loop looks at the flag. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	installed = true;
}

void matrix_signal_restore(void)
{
	if (!installed)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	installed = false;
}

int matrix_signal_stopped(void)
{
	return stop_signal;
}

const volatile sig_atomic_t *matrix_signal_flag(void)
{
	return &stop_signal;
}

void matrix_signal_child(pid_t pid)
{
	child = pid;
	/* A signal that came between fork() and here still ends the boot. */
	if (pid > 0 && stop_signal)
		kill(pid, SIGKILL);
}

void matrix_signal_child_default(void)
{
	/* In the forked boot: the parent's handler (and its child pid) is not for it. */
	child = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}
