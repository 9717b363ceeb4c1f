/*
 * The signal frame's rules, as pure functions (sigframe.c) that the host
 * unit tests run: where a frame goes (stack, alternate stack), what the
 * sigcontext holds, the registers a handler starts with, what rt_sigreturn
 * takes back from a sigcontext the user may have edited, the FXSAVE/XSAVE
 * image's software bytes and its checks, and sigaltstack(2)'s rules.
 * Linux's arch/x86/kernel/signal{,_64}.c, fpu/signal.c and kernel/signal.c
 * are the reference for every rule here.
 *
 * Nothing here touches user memory or the CPU: signal.c copies, the CPU
 * specific answers (is this SS selector usable?) come in as callbacks.
 */
#ifndef EL_PROC_SIGFRAME_H
#define EL_PROC_SIGFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "signal_frame.h"

/* The flat selectors (Linux's __USER_CS / __USER_DS; signal.c checks them against segment.h). */
#define SIGFRAME_USER_CS 0x33u
#define SIGFRAME_USER_DS 0x2bu

#define SF_RFLAGS_CF 0x1ull
#define SF_RFLAGS_PF 0x4ull
#define SF_RFLAGS_AF 0x10ull
#define SF_RFLAGS_ZF 0x40ull
#define SF_RFLAGS_SF 0x80ull
#define SF_RFLAGS_TF 0x100ull
#define SF_RFLAGS_DF 0x400ull
#define SF_RFLAGS_OF 0x800ull
#define SF_RFLAGS_RF 0x10000ull
#define SF_RFLAGS_AC 0x40000ull
/* The RFLAGS bits rt_sigreturn takes from the user (Linux FIX_EFLAGS); IF, IOPL, NT, VM, ID ... stay. */
#define SIGFRAME_FIX_EFLAGS (SF_RFLAGS_AC | SF_RFLAGS_OF | SF_RFLAGS_DF | SF_RFLAGS_TF | \
			     SF_RFLAGS_SF | SF_RFLAGS_ZF | SF_RFLAGS_AF | SF_RFLAGS_PF | \
			     SF_RFLAGS_CF | SF_RFLAGS_RF)
/* Cleared for a handler: DF (the ABI's function entry), RF, and TF (no trap in the handler). */
#define SIGFRAME_HANDLER_CLEAR (SF_RFLAGS_DF | SF_RFLAGS_RF | SF_RFLAGS_TF)
/* Stack the handler's frame leaves alone below the interrupted RSP (the ABI's red zone). */
#define SIGFRAME_REDZONE 128u

/* A trap frame as signal code sees it: struct trap_frame's fields in its order (signal.c checks). */
struct sigframe_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi;
	uint64_t vector;
	uint64_t error; /* syscalls: the number as called (orig_ax); -1: no syscall to restart */
	uint64_t rip, cs, rflags, rsp, ss;
};

/* The thread's last trap (Linux's thread.trap_nr, error_code, cr2): what sigcontext reports. */
struct sigframe_trap {
	uint64_t trapno, err, cr2;
};

/* Is sel a usable stack segment for 64-bit code (present, DPL 3, writable data)? The CPU knows (LAR). */
typedef bool sigframe_ss_usable_fn(uint16_t sel);

/* uc_flags of a frame for a signal that interrupted r. */
uint64_t sigframe_uc_flags(const struct sigframe_regs *r, bool xsave);
/* The sigcontext of the interrupted state (fs and gs read as 0, as on Linux). */
void sigframe_save(struct el_sigcontext *sc, const struct sigframe_regs *r,
		   const struct sigframe_trap *trap, uint64_t oldmask, uint64_t fpstate);
/*
 * The handler's entry: RDI = sig, RSI = &info, RDX = &uc, RAX = 0, RSP =
 * frame, RIP = handler, CS = USER_CS, SS kept if usable else USER_DS,
 * DF/RF/TF cleared.
 */
void sigframe_enter_handler(struct sigframe_regs *r, int sig, uint64_t frame, uint64_t handler,
			    sigframe_ss_usable_fn *ss_usable);
/*
 * rt_sigreturn: every register from sc; CS and SS with RPL 3 forced (an
 * unusable selector makes the IRET fault, as on Linux); only the
 * FIX_EFLAGS bits of RFLAGS; no syscall restart (error = -1).  Without
 * UC_STRICT_RESTORE_SS, a 64-bit CS gets a usable SS (DOSEMU, CRIU).
 */
void sigframe_restore(struct sigframe_regs *r, const struct el_sigcontext *sc,
		      uint64_t uc_flags, sigframe_ss_usable_fn *ss_usable);

/* --- the alternate stack (sigaltstack) --- */
struct sigframe_altstack {
	uint64_t sp, size;
	uint32_t flags; /* as the user set them: 0, SS_ONSTACK, SS_DISABLE, | SS_AUTODISARM */
};

/* No alternate stack (a new program's state). */
void sigframe_altstack_reset(struct sigframe_altstack *a);
/* sp is inside it (Linux __on_sig_stack). */
bool sigframe_altstack_contains(const struct sigframe_altstack *a, uint64_t sp);
/* sp counts as on it (on_sig_stack: never with SS_AUTODISARM). */
bool sigframe_altstack_on(const struct sigframe_altstack *a, uint64_t sp);
/* SS_DISABLE, SS_ONSTACK or 0 (sas_ss_flags). */
int sigframe_altstack_mode(const struct sigframe_altstack *a, uint64_t sp);
/* What sigaltstack's old-stack argument and uc_stack report. */
void sigframe_altstack_get(const struct sigframe_altstack *a, uint64_t sp, struct el_stack *out);
/* sigaltstack(2)'s new-stack argument (do_sigaltstack): 0, -EPERM (on it), -EINVAL, -ENOMEM. */
int sigframe_altstack_set(struct sigframe_altstack *a, uint64_t sp, const struct el_stack *ss,
			  uint64_t min_size);

/* --- placing the frame --- */
struct sigframe_layout {
	uint64_t frame;   /* the rt_sigframe: RSP of the handler (16n + 8, as after a CALL) */
	uint64_t fpstate; /* the FPU image, 64-byte aligned, above the frame */
};

/*
 * Where the frame for a signal interrupting user_sp goes: below the red
 * zone, or at the top of the alternate stack (onstack: SA_ONSTACK and not
 * on it yet); the image (fp_bytes) first.  false: it would overflow the
 * alternate stack (the signal becomes SIGSEGV).
 */
bool sigframe_place(const struct sigframe_altstack *a, uint64_t user_sp, bool onstack,
		    uint32_t fp_bytes, struct sigframe_layout *out);

/* --- the FPU image in the frame --- */
#define SIGFRAME_XFEATURES_MAX 32

struct sigframe_fpu_cfg {
	bool xsave;          /* XSAVE image (standard format) with header at 512, else FXSAVE */
	uint32_t size;       /* bytes of the image (512 for FXSAVE) */
	uint64_t xfeatures;  /* XCR0's user features (FP|SSE without XSAVE) */
	uint32_t mxcsr_mask; /* MXCSR bits FXRSTOR/XRSTOR accept */
	/* end (offset + size) of each XSAVE component in the standard format, 0: absent */
	uint32_t comp_end[SIGFRAME_XFEATURES_MAX];
};

/* Bytes the image takes in a frame (with the magic2 after an XSAVE image). */
uint32_t sigframe_fpu_frame_bytes(const struct sigframe_fpu_cfg *c);
/*
 * AT_MINSIGSTKSZ (Linux 6.1 init_sigframe_size, CONFIG_IA32_EMULATION=y):
 * round_up(sizeof(struct sigframe_ia32) 736 + 15 frame alignment + the
 * image (c->size, + 4 for magic2 with XSAVE) + 112 for an ia32 frame's
 * fsave header + 63 image alignment, 16).  The ia32 terms count for 64-bit
 * programs too: Linux takes the worst case of every frame kind.
 * Measured: Linux 6.18, XCR0 0xe7 (2432-byte image): 3376; Linux 6.1
 * ("signal: max sigframe size"), 0x207 (2696): 3632; FXSAVE: 1440.
 */
uint64_t sigframe_min_stack_size(const struct sigframe_fpu_cfg *c);
/* Standard-format size of an XSAVE image holding features (xstate_calculate_size). */
uint32_t sigframe_fpu_xsave_size(const struct sigframe_fpu_cfg *c, uint64_t features);
/*
 * A saved image made a frame's: the software bytes (magic1, sizes,
 * features) and, for XSAVE, FP|SSE set in XSTATE_BV and the rest of the
 * header zeroed.  The caller writes FP_XSTATE_MAGIC2 after c->size bytes.
 */
void sigframe_fpu_export(const struct sigframe_fpu_cfg *c, uint8_t *img);

/* What rt_sigreturn reads of the user's image and restores. */
struct sigframe_fpu_plan {
	bool fx_only;      /* only the FXSAVE area counts, the rest is init state */
	uint32_t copy;     /* bytes of the user image to read */
	uint64_t mask;     /* XSAVE features taken from the image; the others: init state */
};

/* Where the magic2 of the user's image must be, 0: nothing to read (from its first 512 bytes). */
uint32_t sigframe_fpu_magic2_offset(const struct sigframe_fpu_cfg *c, const uint8_t *legacy);
/*
 * The plan, from the first 512 bytes and the word at the magic2 offset
 * (check_xstate_in_sigframe): a bad or missing magic falls back to FX
 * only; false (SIGSEGV): the image claims features it is too small for.
 */
bool sigframe_fpu_plan(const struct sigframe_fpu_cfg *c, const uint8_t *legacy, uint32_t magic2,
		       struct sigframe_fpu_plan *p);
/*
 * img holds plan->copy bytes of the user's image and zeros up to c->size:
 * made what the CPU restores (FX-only header, features outside the mask
 * in init state) and checked as FXRSTOR/XRSTOR check it.  false: it would
 * fault (reserved MXCSR bits, unknown XSTATE_BV bits, a compacted or
 * non-zero header): SIGSEGV, as on Linux.
 */
bool sigframe_fpu_import(const struct sigframe_fpu_cfg *c, const struct sigframe_fpu_plan *p,
			 uint8_t *img);

#endif
