/*
 * The IDT: one interrupt gate per exception vector, pointing at the stubs of
 * entry.S (#PF at its own entry, without or with PTI: idt_set_pti()), plus
 * the interrupt vectors irq.c installs (entry_irq.S) and the int $0x80 gate
 * (entry_compat.S: DPL 3, the i386 syscall ABI).  Other vectors from 32 up
 * stay not-present: using one raises #NP, which is reported like any other
 * exception.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/segment.h"
#include "entrylab/exceptions.h"
#include "lib/panic.h"

/* The stubs (entry.S) push an error code where the CPU does not, as the shared table says. */
_Static_assert(NR_EXCEPTIONS == EL_NR_EXCEPTIONS, "NR_EXCEPTIONS");
_Static_assert(X86_ERROR_CODE_VECTORS == EL_EXCEPTION_ERROR_CODES,
	       "X86_ERROR_CODE_VECTORS (trapframe.h) disagrees with entrylab/exceptions.def");

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr; /* P, DPL, type */
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __packed;
_Static_assert(sizeof(struct idt_gate) == 16, "idt_gate layout");

#define GATE_INTERRUPT 0x8e /* present, DPL 0, 64-bit interrupt gate (IF cleared) */
#define GATE_DPL3 0x60
#define X86_TRAP_PF 14 /* #PF, as Linux names the vector */
#define IA32_SYSCALL_VECTOR 0x80 /* int $0x80: the i386 syscall gate (entry_compat.S) */

/* Page-aligned so that page-table isolation can map it (read-only) alone. */
static struct idt_gate idt[256] __entry_bss __aligned(4096);

/* Gates that differ from "DPL 0, no IST". */
static const struct {
	unsigned vector;
	uint8_t ist;
	uint8_t dpl3;
} gate_special[] = {
	{1, IST_DB, 0},  /* #DB */
	{2, IST_NMI, 0}, /* NMI */
	{3, 0, 1},       /* #BP: INT3 from user mode */
	{4, 0, 1},       /* #OF: INT $4 from user mode traps (SIGSEGV after it), as Linux */
	{8, IST_DF, 0},  /* #DF */
	{18, IST_MC, 0}, /* #MC */
};

static void idt_set_gate(unsigned vec, uint64_t handler, uint8_t ist, uint8_t attr)
{
	idt[vec] = (struct idt_gate){
		.offset_low = handler & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = attr,
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_high = handler >> 32,
	};
}

void idt_init(void)
{
	struct desc_ptr p = {sizeof(idt) - 1, (uint64_t)idt};
	uint32_t ist_vectors = 0;
	unsigned i;

	for (i = 0; i < NR_EXCEPTIONS; i++)
		idt_set_gate(i, trap_stubs[i], 0, GATE_INTERRUPT);
	for (i = 0; i < ARRAY_SIZE(gate_special); i++) {
		idt_set_gate(gate_special[i].vector, trap_stubs[gate_special[i].vector],
			     gate_special[i].ist,
			     GATE_INTERRUPT | (gate_special[i].dpl3 ? GATE_DPL3 : 0));
		if (gate_special[i].ist)
			ist_vectors |= 1u << gate_special[i].vector;
	}
	idt_set_gate(X86_TRAP_PF, (uint64_t)page_fault_entry, 0, GATE_INTERRUPT);
	/* DPL 3, an interrupt gate (IF = 0 on entry) as Linux's: any user CS may use it. */
	idt_set_gate(IA32_SYSCALL_VECTOR, (uint64_t)entry_INT80_compat, 0,
		     GATE_INTERRUPT | GATE_DPL3);
	/* entry.S chose its paranoid entry by IST_VECTORS: the gates must agree. */
	if (ist_vectors != IST_VECTORS)
		panic("idt: IST gates 0x%x, but IST_VECTORS (segment.h) 0x%x", ist_vectors,
		      IST_VECTORS);
	load_idt(&p);
}

void idt_set_pti(bool pti)
{
	idt_set_gate(X86_TRAP_PF, (uint64_t)(pti ? page_fault_entry_pti : page_fault_entry), 0,
		     GATE_INTERRUPT);
}

bool idt_gate_target(uint64_t rip)
{
	for (unsigned v = 0; v < ARRAY_SIZE(idt); v++)
		if ((idt[v].type_attr & 0x80) &&
		    (idt[v].offset_low | (uint64_t)idt[v].offset_mid << 16 |
		     (uint64_t)idt[v].offset_high << 32) == rip)
			return true;
	return false;
}

/* Interrupt gates are DPL 0: user code cannot fake an interrupt with INT n (#GP). */
void idt_set_interrupt_gate(unsigned vector, uint64_t stub)
{
	if (vector >= NR_EXCEPTIONS && vector < ARRAY_SIZE(idt))
		idt_set_gate(vector, stub, 0, GATE_INTERRUPT);
}

void idt_load_empty(void)
{
	struct desc_ptr p = {0, 0};

	load_idt(&p);
}
