/*
 * The #PF error code as Linux names its bits (arch/x86/include/asm/trap_pf.h;
 * Intel SDM vol. 3, "Interrupt 14"): what the CPU pushes with a page fault
 * and what a SIGSEGV's sigcontext.err reports to user mode.
 */
#ifndef EL_ARCH_TRAP_PF_H
#define EL_ARCH_TRAP_PF_H

#define X86_PF_PROT 0x1u  /* 0: the page was not present; 1: a protection violation */
#define X86_PF_WRITE 0x2u /* the access was a write */
#define X86_PF_USER 0x4u  /* from user mode (CPL 3) */
#define X86_PF_RSVD 0x8u  /* a reserved bit was set in a paging entry */
#define X86_PF_INSTR 0x10u /* an instruction fetch */

#endif
