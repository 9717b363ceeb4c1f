/*
 * sigreturn_check: what rt_sigreturn may and may not restore, as Linux
 * x86-64 does it, and how the state it restores leaves the kernel (the
 * SYSRET-or-IRET decision): RIP, TF/RF and the other RFLAGS bits, CS/SS, and
 * every general register.  One run = a SIGUSR1 from sr_trigger's SYSCALL whose
 * handler edits the frame; whatever fault follows (SIGSEGV, SIGBUS, SIGTRAP)
 * is recorded and the unedited context put back.
 */
#ifndef EL_SIGRETURN_CHECK_H
#define EL_SIGRETURN_CHECK_H

#include <signal.h>
#include <stdint.h>

#include "check.h"

#define SR_SI_KERNEL 0x80
#define X86_TF 0x100ull
#define X86_RF 0x10000ull

/* sr_out[] indices (sigreturn_check_asm.S). */
enum { SR_RAX, SR_RBX, SR_RCX, SR_RDX, SR_RSI, SR_RDI, SR_RBP, SR_R8, SR_R9, SR_R10, SR_R11,
       SR_R12, SR_R13, SR_R14, SR_R15, SR_FLAGS, SR_RSP, SR_NOUT };

extern uint64_t sr_out[SR_NOUT];
extern int sr_tid;
void sr_trigger(void);
extern const char sr_after_syscall[], sr_second[];

/* The fault after the edited sigreturn. */
struct sr_fault {
	int count, signo;
	siginfo_t si;
	gregset_t gregs;
};
extern struct sr_fault sr_fault;
/* The frame the SIGUSR1 handler saw, before its edit. */
extern gregset_t sr_before;
extern unsigned long sr_uc_flags_before;

typedef void sr_edit_fn(ucontext_t *uc);

/* One run: sr_trigger with `edit` applied in the SIGUSR1 handler.  Returns sr_fault.count. */
int sr_run(sr_edit_fn *edit);

/* REG_CSGSFS fields. */
static inline uint16_t sr_cs(const greg_t *g)
{
	return (uint16_t)g[REG_CSGSFS];
}
static inline uint16_t sr_ss(const greg_t *g)
{
	return (uint16_t)((uint64_t)g[REG_CSGSFS] >> 48);
}
void sr_set_cs(greg_t *g, uint16_t cs);
void sr_set_ss(greg_t *g, uint16_t ss);

/* The groups. */
void sr_regs(void);
void sr_rip(void);
void sr_tf(void);
void sr_flags(void);
void sr_seg(void);

#endif
