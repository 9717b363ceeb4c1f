/*
 * Per-process local descriptor tables (ldt.c): modify_ldt(2) as Linux
 * x86-64 has it, one LDT per address space (struct mm.ldt), loaded with
 * LLDT whenever the running address space or its LDT changes.
 *
 * Where the descriptors live: a fixed arena in the entry data
 * (.bss..entry), page-granular, so that page-table isolation maps every
 * LDT into the user page tables with the GDT and the TSS.  The CPU reads
 * the LDT in user mode (a selector load, a far transfer) and on the IRET
 * to user mode, both with the user CR3.  Linux instead maps each mm's LDT
 * at a per-mm slot of the user PGD; the arena needs no page-table work of
 * its own and bounds the memory (LDT_ARENA_PAGES: at most 4 LDTs of the
 * full 8192 entries, or 64 of up to 512).  A write that finds no room is
 * -ENOMEM, as Linux's failed allocation is.
 */
#ifndef EL_ARCH_LDT_H
#define EL_ARCH_LDT_H

#include "kernel.h"

#define LDT_ENTRIES 8192
#define LDT_ENTRY_SIZE 8
#define LDT_ARENA_PAGES 64

struct mm;
struct ldt;

/*
 * fork: dst (a new mm whose ldt field is not yet set) gets a copy of
 * src's LDT (none if src has none).  0 or -ENOMEM.
 */
int ldt_dup(struct mm *dst, const struct mm *src);
/* The mm goes away: its LDT is freed (and unloaded if it was loaded). */
void ldt_free(struct mm *mm);

/* LLDT for the address space about to run (NULL or none: the null LDT). */
void ldt_load(const struct mm *mm);

/*
 * The base of the code or data segment a user selector names: 0 for the
 * GDT's (all flat), the descriptor's for an LDT entry of the current
 * process; false when the selector names no descriptor.  For code that
 * interprets user state, e.g. the linear RIP of 32-bit code.
 */
bool ldt_segment_base(uint16_t sel, uint32_t *base);

#endif
