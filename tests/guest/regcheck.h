/*
 * regcheck: the state block shared by regcheck.c and regcheck_asm.S.
 * One array of 64-bit words (el_rc[]), indexed by the constants below so
 * that C and assembler agree without a structure layout to keep in sync.
 */
#ifndef EL_REGCHECK_H
#define EL_REGCHECK_H

/* General registers in this order (RSP is checked apart). */
#define RC_RAX 0
#define RC_RBX 1
#define RC_RCX 2
#define RC_RDX 3
#define RC_RSI 4
#define RC_RDI 5
#define RC_RBP 6
#define RC_R8 7
#define RC_R9 8
#define RC_R10 9
#define RC_R11 10
#define RC_R12 11
#define RC_R13 12
#define RC_R14 13
#define RC_R15 14
#define RC_NREGS 15

/* Word indices into el_rc[]. */
#define RC_IN 0                  /* RC_NREGS values loaded before the event */
#define RC_IN_FLAGS 15           /* RFLAGS loaded before the event (POPFQ) */
#define RC_OUT 16                /* RC_NREGS values stored after the event */
#define RC_OUT_FLAGS 31          /* RFLAGS after the event */
#define RC_FLAGS_AT 32           /* RFLAGS as the CPU took them (PUSHFQ before the event) */
#define RC_RSP_IN 33             /* RSP just before the event */
#define RC_RSP_OUT 34            /* RSP just after it */
#define RC_XMM0 35               /* XMM0 low quadword after the event (fault loads land here) */
#define RC_RET 36                /* RAX right after the SYSCALL of the IPI event */
#define RC_SPIN 37               /* spin count of the IPI event's window */
#define RC_SAVED_RSP 38          /* the caller's RSP while the registers are ours */
#define RC_REDZONE_IN 40         /* 16 words written to the red zone, -128(%rsp) up */
#define RC_REDZONE_OUT 56        /* the red zone as found after the event */
#define RC_WORDS 72

#define RC_REDZONE_WORDS 16

/* Events: what happens between loading the registers and storing them. */
#define RC_EV_SYSCALL 0    /* SYSCALL with RAX = getpid */
#define RC_EV_READ_FAULT 1 /* movq (%r15), %xmm0 on a fresh anonymous page */
#define RC_EV_WRITE_FAULT 2 /* movq %r14, (%r15) on a fresh anonymous page */
#define RC_EV_SPIN_LOOP 3  /* LOOP on RCX (no flag changes): interrupts may arrive */
#define RC_EV_SPIN_DEC 4   /* DEC/JNZ on RAX (RCX untouched): interrupts may arrive */
#define RC_EV_SELF_IPI 5   /* SYSCALL EL_SYS_SELF_IPI, then the DEC window */
#define RC_EV_CALL 6       /* CALL *%rax (a vsyscall entry point), C ABI */
#define RC_EV_COUNT 7

#ifndef __ASSEMBLER__
#include <stdint.h>

extern uint64_t el_rc[RC_WORDS];
extern char el_rc_after_syscall[]; /* RIP after the SYSCALL events: the expected RCX */
extern char el_rc_after_ipi[];
void el_rc_run(long event);

struct rc_opts {
	unsigned long rounds; /* rounds of every event */
	unsigned long spin;   /* iterations of an interrupt window */
	unsigned long ipis;   /* self-IPIs per round, 0: no self-IPI event */
	int vsyscall;         /* call the vsyscall page */
};

/* Every event, opts->rounds times; one PASS/FAIL/SKIP line per event. */
void rc_run_all(const struct rc_opts *opts);

/* RFLAGS bits the rounds load (random) or reason about. */
#define F_CF 0x1ul
#define F_PF 0x4ul
#define F_AF 0x10ul
#define F_ZF 0x40ul
#define F_SF 0x80ul
#define F_DF 0x400ul
#define F_OF 0x800ul
#define F_NT 0x4000ul
#define F_AC 0x40000ul
#define F_STATUS (F_CF | F_PF | F_AF | F_ZF | F_SF | F_OF)
#define F_LOADED (F_STATUS | F_DF | F_NT | F_AC)

#define ALL_REGS ((1u << RC_NREGS) - 1)

/* What must come out: registers in `mask` equal exp[], RFLAGS equal flags in flags_mask. */
struct rc_expect {
	uint64_t exp[RC_NREGS];
	uint64_t flags;
	unsigned mask;
	uint64_t flags_mask;
	int redzone; /* the red zone must be intact */
	int failed;  /* the event's own result was wrong (reported already) */
};

/*
 * One event: setup() adjusts the random inputs in el_rc[] (addresses, counts,
 * syscall numbers); expect() turns the inputs into what must come out.
 */
struct rc_event {
	const char *name;
	void (*setup)(const struct rc_opts *o, unsigned long round);
	void (*expect)(struct rc_expect *e, unsigned long round);
	unsigned long mismatched_rounds;
	unsigned what; /* bit i: register i (or a WHAT_* of regcheck_run.c) differed */
};

extern struct rc_event rc_events[RC_EV_COUNT]; /* indexed by RC_EV_* */

/* One line of detail, at most a few in all, so a broken kernel cannot flood the console. */
void rc_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif

#endif
