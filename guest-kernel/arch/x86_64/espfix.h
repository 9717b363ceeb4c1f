/*
 * espfix64 (Linux's name): the IRET to a 16-bit stack segment (C and asm).
 *
 * An IRET to a stack segment with B = 0 loads only SP[15:0]; RSP[63:16]
 * keep what they held in ring 0, the address of the kernel stack the IRET
 * ran on.  Any user with an LDT can ask for such a segment (modify_ldt, a
 * data segment with seg_32bit = 0) and read the leak back from the next
 * signal frame.  So an IRET to an LDT SS (SS & SEL_TI_LDT: the GDT has no
 * 16-bit data segment) runs instead from the espfix stack, a 40-byte IRET
 * frame in one page that is mapped read-only at every 64 KiB of a 4 GiB
 * window (PML4 slot ESPFIX_PGD_SLOT, in the kernel and, under PTI, in the
 * user page tables): entry/espfix.S picks the alias whose bits 31:16 are
 * the user RSP's, so what leaks of the kernel's RSP is [63:32], the
 * window's fixed upper half (0xffffff00; Intel CPUs zero those bits, AMD
 * ones and QEMU keep them, as on Linux).
 *
 * Who takes it: only a task whose mm has an LDT can have an LDT SS, and
 * such a task carries TASK_WORK_ESPFIX (espfix_track()), so each of its
 * returns to user mode takes the slow exit, where entry.S tests the frame's
 * SS; the exits of every other task pay nothing.
 *
 * A refused IRET (a not-present or unusable SS or CS) faults in ring 0 on
 * the read-only stack: the CPU cannot push the fault's frame, which makes
 * it a #DF (on its IST stack).  espfix_df_fixup() (bad_iret.c) recognises
 * that IRET and restarts the fault as a user #GP(0) from the frame the
 * IRET refused, as Linux does: SIGSEGV, trapno 13, error 0, whatever the
 * original vector and error code were.
 */
#ifndef EL_ESPFIX_H
#define EL_ESPFIX_H

#include "mm/layout.h"

#define ESPFIX_PGD_SLOT     510                     /* Linux's ESPFIX_PGD_ENTRY (-2) */
#define ESPFIX_BASE         _UL(0xffffff0000000000) /* ESPFIX_PGD_SLOT << 39, sign-extended */
#define ESPFIX_WINDOW       _UL(0x100000000)        /* RSP[31:16] all map: 4 GiB */
#define ESPFIX_ALIAS_STRIDE _UL(0x10000)            /* the page again every 64 KiB */
#define ESPFIX_FRAME_OFF    0xfc0                   /* the IRET frame's offset in the page */
#define ESPFIX_FRAME_SIZE   40                      /* RIP, CS, RFLAGS, RSP, SS */

#ifndef __ASSEMBLER__
#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

struct task;

_Static_assert(ESPFIX_BASE == (0xffff000000000000ul | (uint64_t)ESPFIX_PGD_SLOT << 39),
	       "ESPFIX_BASE is the start of PML4 slot ESPFIX_PGD_SLOT");
_Static_assert(ESPFIX_FRAME_OFF + ESPFIX_FRAME_SIZE <= PAGE_SIZE && ESPFIX_FRAME_OFF % 16 == 0,
	       "the espfix frame lies in its page");

/* The page behind every alias; written (kernel CR3) only through this, its image address. */
extern uint64_t espfix_page[PAGE_SIZE / 8];

/*
 * After paging_init(), before pti_init() (which shares the slot with the
 * user page tables) and before the first process (which copies the kernel
 * PML4 entries): builds the aliases.  Panics when out of frames.
 */
void espfix_init(void);

/* The PML4 entry of the window, for pti.c's user page tables (0 before espfix_init()). */
uint64_t espfix_pgd_entry(void);

/*
 * Keeps TASK_WORK_ESPFIX equal to "t's mm has an LDT": at every switch to
 * t and exec (thread.c), and when modify_ldt gives current's mm a table.
 */
void espfix_track(struct task *t);

/*
 * bad_iret.c, from trap_dispatch() on a #DF: true when it is the espfix
 * IRET's refused frame; then tf resumes at the #GP stub with the user
 * frame (error 0) at the task stack top.  False for any other #DF.
 */
bool espfix_df_fixup(struct trap_frame *tf);
#endif

#endif
