/*
 * ptracecheck: ptrace as Linux x86-64 has it (see ptracecheck.h).
 *   ptracecheck              every group
 *   ptracecheck GROUP...     only these (e.g. `ptracecheck step`)
 *   ptracecheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/sys.h"
#include "ptracecheck.h"

uint64_t pt_sys_out[3], pt_regs_in[6], pt_regs_out[6];
uint8_t pt_xmm_in[16];
uint32_t pt_mxcsr_in;
int pt_regs_skipped;

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

static const struct el_group groups[] = {
	{"step", "PTRACE_SINGLESTEP through a SYSCALL, instruction by instruction", pt_step},
	{"syscall", "PTRACE_SYSCALL stops: orig_rax, -ENOSYS at entry, changed number/result",
	 pt_syscall},
	{"regs", "PEEKUSER/POKEUSER, GETREGS/SETREGS, GETFPREGS, RIP moved by the tracer",
	 pt_regs},
	{"signals", "CONT with a signal, signal-delivery stops, KILL, ESRCH/EPERM", pt_signals},
	{"events", "TRACEFORK/VFORK/EXEC/EXIT event stops, group stop, GET_SYSCALL_INFO", pt_events},
	{"seize", "SEIZE, INTERRUPT, LISTEN, EVENT_STOP traps, SETSIGINFO", pt_seize},
};

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("ptracecheck", groups, _IONBF, argc, argv);
}
