/*
 * DR6 as Linux names its bits (arch/x86/include/uapi/asm/debugreg.h): the
 * four breakpoint conditions, the single step, and the bits that read as 1
 * when no condition is set (the "negative polarity" Linux flips against).
 */
#ifndef EL_ARCH_DEBUGREG_H
#define EL_ARCH_DEBUGREG_H

#define DR_TRAP_BITS 0xfull        /* B0-B3: breakpoint 0-3 hit */
#define DR_STEP 0x4000ull          /* BS: single step (TF) */
#define DR6_RESERVED 0xffff0ff0ull /* DR6 with no condition bit set */

#endif
