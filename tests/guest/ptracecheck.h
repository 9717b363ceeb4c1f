/*
 * ptracecheck: ptrace of a forked child as Linux x86-64 does it: TRACEME,
 * stops reported by waitpid, SINGLESTEP (through a SYSCALL),
 * SYSCALL stops with orig_rax and a changed number or result,
 * PEEKUSER/POKEUSER, GETREGS/SETREGS, GETFPREGS, CONT with a signal,
 * signal-delivery stops, KILL.  The child reports through registers the
 * tracer reads and through its exit status: no pipes, no PEEKDATA.
 */
#ifndef EL_PTRACECHECK_H
#define EL_PTRACECHECK_H

#include <stdint.h>
#include <sys/types.h>

#include "check.h"

#include "trace_child.h"

/* ptracecheck_asm.S */
void pt_step_seq(void);
void pt_sys_seq(void);
void pt_regs_seq(void);
extern const char pt_step_0[], pt_step_1[], pt_step_2[], pt_step_3[], pt_step_4[];
extern const char pt_regs_stop1[], pt_regs_stop2[], pt_regs_skip_to[];
extern uint64_t pt_sys_out[3], pt_regs_in[6], pt_regs_out[6];
extern uint8_t pt_xmm_in[16];
extern uint32_t pt_mxcsr_in;
extern int pt_regs_skipped;

void pt_step(void);
void pt_syscall(void);
void pt_regs(void);
void pt_signals(void);
void pt_events(void);
void pt_seize(void);

#endif
