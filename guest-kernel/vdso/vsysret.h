/*
 * The SYSRET return from exceptions and interrupts (entry.ret=sysret) and
 * its trampoline in the vDSO: the layout both sides agree on.
 *
 * SYSRET can only restore RIP from RCX and RFLAGS from R11, so before it
 * the kernel saves the interrupted RCX, R11 and RIP on the user stack just
 * below the 128-byte red zone, at RSP - VSYSRET_REDZONE - VSYSRET_FRAME:
 *
 *   [new RSP +  0]  RCX     popped by the trampoline
 *   [new RSP +  8]  R11     popped by the trampoline
 *   [new RSP + 16]  RIP     the trampoline's RET $VSYSRET_REDZONE goes there
 *
 * and SYSRETs to __vdso_sysret_trampoline with RSP = new RSP, R11 = the
 * interrupted RFLAGS.  POP, POP and RET change no flag, and RET's immediate
 * skips the red zone, so the interrupted RSP comes back too.
 */
#ifndef EL_VDSO_VSYSRET_H
#define EL_VDSO_VSYSRET_H

#define VSYSRET_REDZONE 128 /* the x86-64 ABI's red zone, left untouched */
#define VSYSRET_FRAME 24    /* RCX, R11, RIP */
#define VSYSRET_SYMBOL "__vdso_sysret_trampoline"

#endif
