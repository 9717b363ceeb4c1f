/*
 * SYSRET after exceptions and interrupts (entry.ret=sysret): exit_sysret.S
 * is the exit, exit_sysret.c its boot-time set-up and statistics.  Layout
 * of what goes on the user stack: vdso/vsysret.h.  For asm and C.
 */
#ifndef EL_EXIT_SYSRET_H
#define EL_EXIT_SYSRET_H

/* exit_sysret_count[] slots: the SYSRETs taken, then the IRET fallbacks by reason. */
#define XS_TAKEN 0
#define XS_NO_VDSO 1
#define XS_SEGMENTS 2
#define XS_FLAGS 3
#define XS_RIP 4
#define XS_STACK 5
#define XS_FAULT 6
#define XS_COUNT 7

/* Kinds of exit_sysret_patches entries: patched into NOPs unless the CPU needs them. */
#define XS_PATCH_SMAP 1      /* STAC, CLAC: only with CR4.SMAP */
#define XS_PATCH_RELOAD_SS 2 /* the SS reload: only on AMD and Hygon */

#ifndef __ASSEMBLER__
#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

struct mm;

/* Counters exit_sysret.S increments (XS_*). */
extern uint64_t exit_sysret_count[XS_COUNT];
/* The trampoline's offset in the vDSO image, 0: none (exit_sysret.S adds it to vdso_base). */
extern uint64_t exit_sysret_tramp_offset;
/* RFLAGS bits a SYSRET-able frame has IF alone among: TF|IF, +RF (hw_breakpoint.c). */
extern uint32_t exit_sysret_flags_mask;

/*
 * After vdso_init(), with CR4 final: finds the trampoline in the mapped vDSO
 * image and patches exit_sysret.S for this CPU; false without a trampoline.
 */
bool exit_sysret_init(void);

/*
 * The address space whose vDSO exit_sysret.S uses from now on (percpu.vdso_base
 * := &mm->vdso_base, or -> 0 for NULL or without a trampoline): at boot
 * (entry_init()), every task switch and exec (thread.c).
 */
void exit_sysret_set_mm(struct mm *mm);

/* One console line: SYSRET returns taken and the IRET fallbacks by reason. */
void exit_sysret_print_stats(void);

#endif

#endif
