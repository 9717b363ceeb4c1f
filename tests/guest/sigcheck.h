/*
 * sigcheck: signals as Linux x86-64 delivers them, checked from inside a
 * static musl program.  Groups of checks, one file each; sigcheck_main.c runs
 * them.  Everything must pass on a Linux host first: the host is the
 * reference, the entrylab guest kernel must answer the same.
 */
#ifndef EL_SIGCHECK_H
#define EL_SIGCHECK_H

#include <signal.h>
#include <stdint.h>

#include "check.h"

/* si_code values the checks compare against (Linux uapi/asm-generic/siginfo.h). */
#define SC_SI_KERNEL 0x80

/* What the last recording handler saw, copied out of its frame. */
struct sc_seen {
	int count;
	int signo;             /* first argument of the handler */
	siginfo_t si;
	gregset_t gregs;
	unsigned long uc_flags;
	uint64_t uc_mask;      /* uc_sigmask as the kernel wrote it (64 signals) */
	uint64_t mask_inside;  /* the thread's blocked mask while the handler ran */
	uintptr_t local;       /* address of a local of the handler: which stack it ran on */
	stack_t uc_stack;
};
extern struct sc_seen sc_seen;

/*
 * A one-instruction fault site: the faulting instruction's address and where
 * to resume after it, stored by the SC_SITE asm fragment just before it runs.
 */
extern volatile uintptr_t sc_site_at, sc_site_resume;

/* Asm: record the site in sc_site_at/sc_site_resume (through R11), then run
 * `insn` at local label 1; label 2 follows it.  Needs SC_SITE_OPS among the
 * outputs and "r11" among the clobbers. */
#define SC_SITE(insn)                                                                        \
	"leaq	1f(%%rip), %%r11\n\t"                                                        \
	"movq	%%r11, %[site_at]\n\t"                                                       \
	"leaq	2f(%%rip), %%r11\n\t"                                                        \
	"movq	%%r11, %[site_resume]\n"                                                     \
	"1:\t" insn "\n"                                                                     \
	"2:\n\t"
#define SC_SITE_OPS [site_at] "=m"(sc_site_at), [site_resume] "=m"(sc_site_resume)

#define SC_BIT(sig) (1ull << ((sig) - 1))

typedef void sc_handler_fn(int, siginfo_t *, void *);

/* sigaction with SA_SIGINFO | flags and an empty sa_mask; exits on failure. */
void sc_install(int sig, sc_handler_fn *fn, int flags);
/* Back to SIG_DFL. */
void sc_default(int sig);
/* Zero sc_seen. */
void sc_reset(void);
/* Copy a handler's view into sc_seen (count++). */
void sc_record(int sig, const siginfo_t *si, const ucontext_t *uc);

/* Records; nothing else. */
sc_handler_fn sc_record_handler;
/* Records, then moves RIP from sc_site_at to sc_site_resume (anything else:
 * resumes there anyway so the program survives, and the check sees the RIP). */
sc_handler_fn sc_skip_handler;

/* The thread's blocked mask, first 64 signals. */
uint64_t sc_mask_now(void);
/* Block or unblock exactly `bits` (SC_BIT values). */
void sc_block(uint64_t bits);
void sc_unblock(uint64_t bits);
/* The pending set (sigpending), first 64 signals. */
uint64_t sc_pending_now(void);

/* The check groups. */
void sc_segv(void);
void sc_sync(void);
void sc_fpe(void);
void sc_actions(void);
void sc_mask(void);
void sc_altstack(void);
void sc_restart(void);
void sc_frame(void);
void sc_fpu(void);
void sc_queue(void);

#endif
