/*
 * trace_child.h: a child traced from its first instruction, for every
 * check program that ptraces (ptracecheck, hwbpcheck).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "lib/sys.h"
#include "trace_child.h"

int pt_wait(pid_t pid)
{
	int st;
	pid_t r;

	do
		r = waitpid(pid, &st, 0);
	while (r < 0 && errno == EINTR);
	return r == pid ? st : -1;
}

pid_t pt_child(const char *name, int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(100);
		/* kill, not raise: raise blocks every signal around it, so a signal the
		 * tracer injects at this stop would wait (and stop the child again). */
		el_syscall2(SYS_kill, el_syscall1(SYS_getpid, 0), SIGSTOP);
		_exit(fn());
	}
	if (pid < 0) {
		el_fail(name, "fork: %s", strerror(errno));
		return -1;
	}
	st = pt_wait(pid);
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
		el_fail(name, "the child's kill(self, SIGSTOP) gave wait status %#x, not a SIGSTOP stop",
			st);
		if (!WIFEXITED(st) && !WIFSIGNALED(st))
			pt_abandon(pid);
		return -1;
	}
	return pid;
}

int pt_resume(pid_t pid, int req, int sig)
{
	if (ptrace(req, pid, NULL, (void *)(long)sig))
		return -1;
	return pt_wait(pid);
}

void pt_abandon(pid_t pid)
{
	kill(pid, SIGKILL);
	pt_wait(pid);
}
