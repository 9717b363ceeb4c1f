/*
 * Descriptor tables: GDT with the TSS (gdt.c) and IDT (idt.c).
 */
#ifndef EL_DESC_H
#define EL_DESC_H

#include "kernel.h"

/* 64-bit TSS.  Offsets are fixed by the architecture; asm may use TSS_*. */
struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3]; /* stack for entries from CPL 3 (rsp[0]); 1 and 2 unused */
	uint64_t reserved1;
	uint64_t ist[7]; /* IST1..IST7 */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

#define TSS_RSP0 4
#define TSS_RSP2 20
#define TSS_IST1 36
_Static_assert(offsetof(struct tss64, rsp[0]) == TSS_RSP0, "tss64.rsp0");
_Static_assert(offsetof(struct tss64, rsp[2]) == TSS_RSP2, "tss64.rsp2");
_Static_assert(offsetof(struct tss64, ist[0]) == TSS_IST1, "tss64.ist1");
_Static_assert(sizeof(struct tss64) == 104, "tss64 size");

/*
 * The I/O permission bitmap (ioport.c): one bit per port, 0 = allowed, and
 * the CPU reads two bytes at iomap_base + port / 8, so a byte of all ones
 * must follow the last port's byte inside the TSS limit.
 */
#define IO_BITMAP_BITS 65536
#define IO_BITMAP_BYTES (IO_BITMAP_BITS / 8)

/*
 * The TSS as the GDT descriptor spans it (limit = sizeof - 1): the hardware
 * part, then two bitmaps that iomap_base selects between, as Linux does:
 *   map  a copy of the running task's ioperm(2) bitmap;
 *   all  every port allowed (iopl(3), emulated as Linux 5.5+ does);
 *   IO_BITMAP_OFFSET_INVALID (past the limit): no bitmap, port I/O at
 *        CPL 3 raises #GP (RFLAGS.IOPL is always 0).
 */
struct tss_area {
	struct tss64 hw;
	uint8_t io_map[IO_BITMAP_BYTES + 1];
	uint8_t io_all[IO_BITMAP_BYTES + 1];
} __packed;

#define IO_BITMAP_OFFSET_MAP offsetof(struct tss_area, io_map)
#define IO_BITMAP_OFFSET_ALL offsetof(struct tss_area, io_all)
#define IO_BITMAP_OFFSET_INVALID sizeof(struct tss_area)
_Static_assert(offsetof(struct tss_area, hw) == 0, "the hardware TSS starts the area");
_Static_assert(IO_BITMAP_OFFSET_INVALID <= 0xffff, "iomap_base is 16 bits");

extern struct tss_area cpu_tss;

/* Loads the GDT, reloads every segment register, loads TR. */
void gdt_init(void);
/* The stack the CPU switches to on entries from user mode. */
void tss_set_rsp0(uint64_t rsp0);
/* Selects the I/O bitmap in effect at CPL 3 (IO_BITMAP_OFFSET_*). */
void tss_set_iomap_base(uint16_t offset);
/*
 * The TLS entries (GDT_ENTRY_TLS_MIN..MAX) become the running thread's
 * (thread.c, tls.c); a selector already loaded keeps its cached descriptor
 * until reloaded.
 */
void gdt_set_tls(const uint64_t *tls);
/*
 * Points the GDT's LDT descriptor at entries (n descriptors) and loads LDTR;
 * n = 0 loads the null selector (no LDT).
 */
void gdt_load_ldt(const uint64_t *entries, unsigned n);

/* Builds the IDT (all exception vectors) and loads it. */
void idt_init(void);
/* The #PF gate: the entry without (idt_init()'s) or with PTI (entry_init()). */
void idt_set_pti(bool pti);
/* Installs the gate of an interrupt vector (>= 32) after idt_init() (arch/x86_64/irq.c). */
void idt_set_interrupt_gate(unsigned vector, uint64_t stub);
/* Whether rip is where a present gate of the IDT enters (hw_breakpoint.c's statistics). */
bool idt_gate_target(uint64_t rip);
/* Loads an IDT with limit 0: any exception then escalates to a triple fault. */
void idt_load_empty(void);

#endif
