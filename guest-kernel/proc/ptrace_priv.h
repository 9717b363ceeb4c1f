/*
 * ptrace's own constants and the stop itself, shared by ptrace.c (the
 * requests, signal and syscall stops) and ptrace_event.c (event stops,
 * PTRACE_EVENT_STOP traps, group stop under ptrace).  Nothing outside
 * proc/ptrace*.c includes it.
 */
#ifndef EL_PROC_PTRACE_PRIV_H
#define EL_PROC_PTRACE_PRIV_H

#include "proc/signal_frame.h"
#include "proc/signal_types.h"

#define PTRACE_O_TRACESYSGOOD 0x1
#define PTRACE_O_TRACEFORK 0x2
#define PTRACE_O_TRACEVFORK 0x4
#define PTRACE_O_TRACECLONE 0x8
#define PTRACE_O_TRACEEXEC 0x10
#define PTRACE_O_TRACEVFORKDONE 0x20
#define PTRACE_O_TRACEEXIT 0x40
#define PTRACE_O_TRACESECCOMP 0x80 /* accepted: there is no seccomp, so no such stop */
#define PTRACE_O_EXITKILL 0x100000
#define PTRACE_O_MASK (0xff | PTRACE_O_EXITKILL)
/* Not an option: task.ptrace_opts' mark of a PTRACE_SEIZE (Linux PT_SEIZED). */
#define PTRACE_SEIZED 0x80000000u

#define PTRACE_EVENT_FORK 1
#define PTRACE_EVENT_VFORK 2
#define PTRACE_EVENT_CLONE 3
#define PTRACE_EVENT_EXEC 4
#define PTRACE_EVENT_VFORK_DONE 5
#define PTRACE_EVENT_EXIT 6
#define PTRACE_EVENT_STOP 128

#define PTRACE_SYSCALL_INFO_NONE 0
#define PTRACE_SYSCALL_INFO_ENTRY 1
#define PTRACE_SYSCALL_INFO_EXIT 2

/* The stop code (wait status bits 8-23) of an event stop. */
#define PTRACE_EVENT_CODE(sig, ev) ((sig) | ((ev) << 8))

/*
 * Stops current for its tracer with `code` (what wait reports above 0x7f),
 * and `info` for GETSIGINFO (NULL: a SIGTRAP-style siginfo with si_code =
 * code; NULL with no_siginfo: none, GETSIGINFO fails with EINVAL, as for
 * an ATTACHed tracee's group stop).  Returns the signal the tracer resumed
 * it with (0 when detached).  A PTRACE_LISTEN leaves it stopped.
 */
int ptrace_stop(int code, const struct ksiginfo *info, bool no_siginfo);

/* PTRACE_INTERRUPT and PTRACE_LISTEN (ptrace_event.c): 0 or -errno. */
long ptrace_interrupt(struct task *t);
long ptrace_listen(struct task *t);

#endif
