/*
 * ptracecheck seize: PTRACE_SEIZE and what comes with it (ptrace(2)).
 *   - SEIZE with an unknown option or a non-zero addr: EIO; SETOPTIONS
 *     with an unknown option: EINVAL;
 *   - PTRACE_INTERRUPT: a PTRACE_EVENT_STOP with SIGTRAP, its siginfo;
 *   - a stop signal let through: a group stop reported as
 *     PTRACE_EVENT_STOP with SIGSTOP; PTRACE_LISTEN leaves it stopped
 *     (nothing to wait for), SIGCONT makes it trap (EVENT_STOP, SIGTRAP),
 *     then the SIGCONT's own delivery stop;
 *   - PTRACE_SETSIGINFO changes what the handler receives;
 *   - TRACEFORK from a SEIZEd tracee: the child starts with
 *     PTRACE_EVENT_STOP, not SIGSTOP.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptracecheck.h"

#define STOP_STATUS(code)    ((code) << 8 | 0x7f)
#define EVENT_STOP_CODE(sig) ((sig) | (PTRACE_EVENT_STOP << 8))

static volatile sig_atomic_t go, got_code, got_pid;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	got_code = si->si_code;
	got_pid = si->si_pid;
	go = 1;
}

static int wait_all(pid_t pid, int options)
{
	int st = -1;
	pid_t r;

	do
		r = waitpid(pid, &st, __WALL | options);
	while (r < 0 && errno == EINTR);
	return r == pid ? st : r == 0 ? 0 : -1;
}

/* A child that waits for SIGUSR1, then forks (want_fork) or checks the siginfo it got. */
static pid_t waiting_child(int want_fork)
{
	const struct timespec ms = {.tv_nsec = 1000000};
	struct sigaction sa = {.sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO};
	pid_t pid;

	sigaction(SIGUSR1, &sa, NULL);
	pid = fork();
	if (pid)
		return pid;
	for (int i = 0; i < 20000 && !go; i++)
		nanosleep(&ms, NULL);
	if (!go)
		_exit(4);
	if (want_fork) {
		pid_t g = fork();
		int st;

		if (g == 0)
			_exit(5);
		_exit(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st) && WEXITSTATUS(st) == 5 ? 0
												: 3);
	}
	_exit(got_code == SI_QUEUE && got_pid == 4242 ? 0 : 6);
}

static void seize_errors(void)
{
	pid_t pid = waiting_child(0);
	long r1, r2, r3;
	int e1, e2, e3, st;

	r1 = ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)0x40000000);
	e1 = errno;
	r2 = ptrace(PTRACE_SEIZE, pid, (void *)8, NULL);
	e2 = errno;
	el_expect("seize.bad_option_eio", r1 == -1 && e1 == EIO && r2 == -1 && e2 == EIO,
		  "SEIZE with option 0x40000000: %ld (%s), with addr 8: %ld (%s)", r1, strerror(e1),
		  r2, strerror(e2));
	ptrace(PTRACE_SEIZE, pid, NULL, NULL);
	ptrace(PTRACE_INTERRUPT, pid, NULL, NULL);
	st = wait_all(pid, 0);
	r3 = ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)0x40000000);
	e3 = errno;
	el_expect("seize.setoptions_bad_einval", r3 == -1 && e3 == EINVAL,
		  "status %#x, SETOPTIONS 0x40000000: %ld (%s)", st, r3, strerror(e3));
	pt_abandon(pid);
}

static void interrupt_listen(void)
{
	pid_t pid = waiting_child(0);
	siginfo_t si = {0};
	int st;

	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_TRACESYSGOOD)) {
		el_fail("seize.seize", "PTRACE_SEIZE: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	el_expect("seize.running", wait_all(pid, WNOHANG) == 0,
		  "a SEIZEd tracee does not stop by itself");
	ptrace(PTRACE_INTERRUPT, pid, NULL, NULL);
	st = wait_all(pid, 0);
	ptrace(PTRACE_GETSIGINFO, pid, NULL, &si);
	el_expect("seize.interrupt_event_stop",
		  st == STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)) && si.si_signo == SIGTRAP &&
			  si.si_code == EVENT_STOP_CODE(SIGTRAP),
		  "status %#x (want %#x), siginfo signo %d code %#x", st,
		  STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)), si.si_signo, si.si_code);
	kill(pid, SIGSTOP);
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("seize.sigstop_delivery_stop", st == STOP_STATUS(SIGSTOP), "status %#x", st);
	st = pt_resume(pid, PTRACE_CONT, SIGSTOP);
	el_expect("seize.group_stop_event", st == STOP_STATUS(EVENT_STOP_CODE(SIGSTOP)),
		  "status %#x (want %#x)", st, STOP_STATUS(EVENT_STOP_CODE(SIGSTOP)));
	if (ptrace(PTRACE_LISTEN, pid, NULL, NULL))
		el_fail("seize.listen", "PTRACE_LISTEN: %s", strerror(errno));
	usleep(20000);
	st = wait_all(pid, WNOHANG);
	el_expect("seize.listen_stays_stopped", st == 0, "after LISTEN, wait gave %#x", st);
	kill(pid, SIGCONT);
	st = wait_all(pid, 0);
	el_expect("seize.sigcont_traps", st == STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)),
		  "after SIGCONT: status %#x (want %#x)", st, STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)));
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("seize.sigcont_delivery_stop", st == STOP_STATUS(SIGCONT), "status %#x", st);
	/* The handler, with a siginfo the tracer wrote. */
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	kill(pid, SIGUSR1);
	st = wait_all(pid, 0);
	memset(&si, 0, sizeof(si));
	ptrace(PTRACE_GETSIGINFO, pid, NULL, &si);
	el_expect("seize.getsiginfo_kill",
		  st == STOP_STATUS(SIGUSR1) && si.si_signo == SIGUSR1 && si.si_code == SI_USER &&
			  si.si_pid == getpid(),
		  "status %#x, signo %d code %d pid %d", st, si.si_signo, si.si_code, si.si_pid);
	si.si_code = SI_QUEUE;
	si.si_pid = 4242;
	ptrace(PTRACE_SETSIGINFO, pid, NULL, &si);
	st = pt_resume(pid, PTRACE_CONT, SIGUSR1);
	el_expect("seize.setsiginfo_delivered", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (exit 6: the handler saw another si_code/si_pid)", st);
}

static void seize_fork(void)
{
	pid_t pid = waiting_child(1), g;
	unsigned long msg = 0;
	int st;

	ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_TRACEFORK);
	kill(pid, SIGUSR1);
	st = wait_all(pid, 0);
	st = pt_resume(pid, PTRACE_CONT, SIGUSR1);
	ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
	g = (pid_t)msg;
	if (!el_expect("seize.fork_event",
		       st == STOP_STATUS(SIGTRAP | PTRACE_EVENT_FORK << 8) && g > 0,
		       "status %#x, GETEVENTMSG %lu", st, msg)) {
		pt_abandon(pid);
		return;
	}
	st = wait_all(g, 0);
	el_expect("seize.fork_child_event_stop", st == STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)),
		  "the auto-attached child's first stop: %#x (want %#x)", st,
		  STOP_STATUS(EVENT_STOP_CODE(SIGTRAP)));
	ptrace(PTRACE_CONT, g, NULL, NULL);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	st = wait_all(g, 0);
	el_expect("seize.fork_child_exit", WIFEXITED(st) && WEXITSTATUS(st) == 5, "status %#x", st);
	while ((st = wait_all(pid, 0)) != -1 && WIFSTOPPED(st) && st >> 8 == SIGCHLD)
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)SIGCHLD);
	el_expect("seize.fork_parent_exit", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

void pt_seize(void)
{
	seize_errors();
	interrupt_listen();
	seize_fork();
}
