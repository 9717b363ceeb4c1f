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

extern struct tss64 cpu_tss;

/* Loads the GDT, reloads every segment register, loads TR. */
void gdt_init(void);
/* The stack the CPU switches to on entries from user mode. */
void tss_set_rsp0(uint64_t rsp0);

/* Builds the IDT (all exception vectors) and loads it. */
void idt_init(void);
/* Installs the gate of an interrupt vector (>= 32) after idt_init() (arch/x86_64/irq.c). */
void idt_set_interrupt_gate(unsigned vector, uint64_t stub);
/* Loads an IDT with limit 0: any exception then escalates to a triple fault. */
void idt_load_empty(void);

#endif
