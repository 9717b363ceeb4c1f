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
