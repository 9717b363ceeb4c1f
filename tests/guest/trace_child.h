/*
 * A forked child under ptrace from its start (trace_child.c), shared by the
 * check programs that trace: ptracecheck and hwbpcheck.
 */
#ifndef EL_TRACE_CHILD_H
#define EL_TRACE_CHILD_H

#include <sys/types.h>

/* Forks a child that does PTRACE_TRACEME, kill(self, SIGSTOP), then _exit(fn()).
 * Waits for the SIGSTOP stop; returns the pid, or -1 after a FAIL line. */
pid_t pt_child(const char *name, int (*fn)(void));
/* waitpid for a stop or end, across EINTR; returns the status (-1: waitpid failed). */
int pt_wait(pid_t pid);
/* Resume with `req` (PTRACE_CONT, PTRACE_SINGLESTEP, PTRACE_SYSCALL) and wait. */
int pt_resume(pid_t pid, int req, int sig);
/* Kill and reap a child we give up on. */
void pt_abandon(pid_t pid);

#endif
