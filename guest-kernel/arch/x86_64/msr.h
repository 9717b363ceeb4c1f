/*
 * Model-specific register numbers the kernel uses (C and asm).
 * The accessors (rdmsr, wrmsr and their _safe twins) are in cpu.h.
 */
#ifndef EL_MSR_H
#define EL_MSR_H

#define MSR_EFER 0xc0000080
#define MSR_STAR 0xc0000081           /* SYSCALL/SYSRET selectors */
#define MSR_LSTAR 0xc0000082          /* 64-bit SYSCALL entry */
#define MSR_SFMASK 0xc0000084         /* RFLAGS bits SYSCALL clears */
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102 /* what SWAPGS exchanges with GS base */
#define MSR_TSC_AUX 0xc0000103

#endif
