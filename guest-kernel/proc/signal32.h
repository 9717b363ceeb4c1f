/*
 * Signals of i386 processes (signal32.c): the 32-bit frames, their
 * sigreturns, and the compat rt_sigaction that marks an action SA_IA32_ABI
 * (signal_frame32.h).  What signal.c and signal32.c share.
 */
#ifndef EL_PROC_SIGNAL32_H
#define EL_PROC_SIGNAL32_H

#include "arch/x86_64/entry/trapframe.h"
#include "proc/signal_types.h"

struct task;

/*
 * The frame for a handler set through the i386 ABI (ka->flags has
 * SA_IA32_ABI): sigframe_ia32, or rt_sigframe_ia32 with SA_SIGINFO, as
 * Linux's ia32_setup_frame / ia32_setup_rt_frame.  0, or -EFAULT (the
 * signal becomes SIGSEGV).
 */
int signal32_setup_frame(struct task *t, struct trap_frame *tf, int sig,
			 const struct ksiginfo *info, const struct k_sigaction *ka);

/* signal.c's FPU image in a frame, for signal32.c: 0 or -EFAULT (fpu_to_user, fpu_from_user). */
int signal_fpu_to_user(struct task *t, uint64_t uaddr);
int signal_fpu_from_user(struct task *t, uint64_t buf);
/* Bytes the image takes in a frame (with XSAVE's magic2). */
uint32_t signal_fpu_frame_bytes(void);

#endif
