/*
 * Page-table isolation: what is isolated, which kernel mappings are
 * global, and the user half of every address space's table pair.
 *
 * An address space's top level is an 8 KiB pair (mm.h): the kernel PGD at
 * +0, the user PGD at +4096.  With pti=on the user PGD holds
 *   slots 0-255    the same entries as the kernel PGD (mirrored by
 *                  pti_pgd_set(), the one writer of user top-level entries),
 *                  which in the kernel PGD carry NX: kernel code that ran on
 *                  with user memory executable would be a missed CR3 switch;
 *   slots 256-511  the entry area only, from a template built once at boot:
 *                  .entry.text (RX) and .bss..entry (RW, NX: GDT, TSS, IDT,
 *                  per-CPU data with the entry stack, IST stacks), plus the
 *                  kernel-half pages the kernel makes user-accessible itself
 *                  (the vsyscall page, in the modes that map it), and the
 *                  espfix window (slot ESPFIX_PGD_SLOT: read-only aliases of
 *                  one page, arch/x86_64/espfix.h).
 */
#ifndef EL_MM_PTI_H
#define EL_MM_PTI_H

#include "kernel.h"
#include "cmdline.h"
#include "mm/pti_walk.h"

struct pti_config {
	bool on;         /* user PGDs exist and every entry/exit switches CR3 */
	bool pge;        /* CR4.PGE: G bits mean something */
	uint8_t global;  /* EL_GLOBAL_* in effect (kernel mappings with the G bit) */
};

extern struct pti_config pti;

/* Before paging_init(), after cpu_setup(): decides isolation and the global policy. */
void pti_configure(const struct el_cmdline *cl);

/* PTE_G or 0 for the kernel-image page at va (paging.c and the self-checks). */
uint64_t pti_image_global(uint64_t va);

/* After vdso_init() (the vsyscall page): builds the kernel half of every user PGD. */
void pti_init(void);

/*
 * At every task switch (percpu_set_kernel_stack()): the user page tables
 * map the frame page of the task whose kernel stack ends at stack_top
 * instead of the previous one's (the exposure: pti.c).  Nothing without PTI.
 */
void pti_map_frame_page(uint64_t stack_top);

/* Fills the user PGD of a fresh pair (pgd = the kernel PGD, zeroed user half). */
void pti_pgd_init(uint64_t *pgd);

/* Writes user top-level entry idx (0-255) in the pair: kernel copy with NX under PTI. */
void pti_pgd_set(uint64_t *pgd, unsigned idx, uint64_t val);

/*
 * The kernel areas the user PGD may map (for the self-check); returns how
 * many.  The first two, entry text and entry data, must be mapped whole;
 * then the vsyscall page when the kernel maps it, the current task's
 * frame page once a task ran, and the espfix window (max: at least 5).
 */
unsigned pti_allowed_areas(struct pti_area *areas, unsigned max);

#endif
