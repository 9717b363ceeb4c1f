/*
 * ptracecheck signals: a tracee and its signals.
 *   - PTRACE_CONT with SIGUSR1 at the SIGSTOP stop runs the child's handler;
 *   - every signal sent to a running tracee stops it first (WSTOPSIG = that
 *     signal): CONT with 0 suppresses it (the handler never runs), CONT with
 *     the signal delivers it;
 *   - a running tracee is not stopped: GETREGS is ESRCH; so is CONT on a
 *     child nobody traces; a second PTRACE_TRACEME is EPERM;
 *   - PTRACE_KILL and SIGKILL end a stopped tracee with SIGKILL;
 *   - a child attached to its own parent waits for it like a child.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptracecheck.h"

static volatile int got1, got2;

static void on_usr1(int sig)
{
	(void)sig;
	got1 = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	got2 = 1;
}

static int handler_ran_child(void)
{
	return got1 ? 0 : 1;
}

static int waiting_child(void)
{
	const struct timespec ms = {.tv_nsec = 1000000};

	for (int i = 0; i < 5000 && !got1; i++)
		nanosleep(&ms, NULL);
	return !got1 ? 4 : got2 ? 1 : 0;
}

static int traceme_twice_child(void)
{
	return ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1 && errno == EPERM ? 0 : 1;
}

static void cont_with_signal(void)
{
	pid_t pid = pt_child("signals.cont_with_signal", handler_ran_child);
	int st;

	if (pid < 0)
		return;
	st = pt_resume(pid, PTRACE_CONT, SIGUSR1);
	el_expect("signals.cont_with_signal_runs_handler", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (exit 1: the handler did not run)", st);
}

static void delivery_stops(void)
{
	struct user_regs_struct r;
	pid_t pid = pt_child("signals.delivery_stop", waiting_child);
	long gr;
	int st, e;

	if (pid < 0)
		return;
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	gr = ptrace(PTRACE_GETREGS, pid, NULL, &r);
	e = errno;
	el_expect("signals.running_tracee_esrch", gr == -1 && e == ESRCH, "GETREGS %ld (%s)", gr,
		  strerror(e));
	kill(pid, SIGUSR2);
	st = pt_wait(pid);
	el_expect("signals.signal_stops_tracee", WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR2,
		  "status %#x, want a SIGUSR2 stop", st);
	ptrace(PTRACE_CONT, pid, NULL, NULL); /* suppressed */
	kill(pid, SIGUSR1);
	st = pt_wait(pid);
	el_expect("signals.second_signal_stops_too", WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR1,
		  "status %#x, want a SIGUSR1 stop", st);
	st = pt_resume(pid, PTRACE_CONT, SIGUSR1);
	el_expect("signals.suppressed_and_delivered", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (1: the suppressed SIGUSR2 ran its handler, 4: SIGUSR1 never came)",
		  st);
	if (!WIFEXITED(st) && !WIFSIGNALED(st))
		pt_abandon(pid);
}

static void errors(void)
{
	pid_t pid = fork();
	int st;
	long r;

	if (pid == 0) {
		const struct timespec s = {.tv_sec = 10};

		nanosleep(&s, NULL);
		_exit(0);
	}
	r = ptrace(PTRACE_CONT, pid, NULL, NULL);
	el_expect("signals.untraced_child_esrch", r == -1 && errno == ESRCH, "CONT %ld (%s)", r,
		  strerror(errno));
	pt_abandon(pid);

	pid = pt_child("signals.traceme_twice", traceme_twice_child);
	if (pid < 0)
		return;
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("signals.traceme_twice_eperm", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (1: the second TRACEME was not EPERM)", st);
}

static void killing(void)
{
	pid_t pid = pt_child("signals.ptrace_kill", handler_ran_child);
	int st;

	if (pid < 0)
		return;
	ptrace(PTRACE_KILL, pid, NULL, NULL);
	st = pt_wait(pid);
	el_expect("signals.ptrace_kill", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x",
		  st);
	pid = pt_child("signals.sigkill_stopped", handler_ran_child);
	if (pid < 0)
		return;
	kill(pid, SIGKILL);
	st = pt_wait(pid);
	el_expect("signals.sigkill_stopped_tracee", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		  "status %#x", st);
}


/*
 * A child attaches to its own parent, which waits for it (Linux's
 * mov_ss_trap selftest sets its watchpoints so): the child's waitpid sees
 * the parent's SIGSTOP stop, although the parent is no child of its and
 * would never signal it on exit; DETACH lets the parent reap the child.
 */
static void attach_parent(void)
{
	pid_t parent = getpid(), child = fork();
	int st = 0;

	if (child == 0) {
		if (ptrace(PTRACE_ATTACH, parent, NULL, NULL))
			_exit(2);
		if (waitpid(parent, &st, 0) != parent || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP)
			_exit(3);
		_exit(ptrace(PTRACE_DETACH, parent, NULL, NULL) ? 4 : 0);
	}
	el_expect("signals.attach_own_parent",
		  waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "child status %#x (2: ATTACH failed, 3: its waitpid for the parent, 4: DETACH)",
		  st);
}
void pt_signals(void)
{
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	cont_with_signal();
	delivery_stops();
	errors();
	killing();
	attach_parent();
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}
