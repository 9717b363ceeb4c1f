/*
 * The report of a fatal exception: vector and name, error code (decoded
 * where the architecture gives it structure), the hardware frame, control
 * registers, all general registers and a frame-pointer call trace, then the
 * panic exit EL_PORT_EXIT_PANIC + vector.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_fault.h"
#include "arch/x86_64/traps.h"
#include "entrylab/abi.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "mm/layout.h"

#define TRACE_DEPTH 16

typedef void error_decoder(uint64_t error);

struct bit_name {
	uint64_t bit;
	const char *set, *clear;
};

static const struct bit_name pf_bits[] = {
	{BIT(0), "protection", "not-present"},
	{BIT(1), "write", "read"},
	{BIT(2), "user", "supervisor"},
	{BIT(3), "reserved-bit", 0},
	{BIT(4), "instruction-fetch", 0},
	{BIT(5), "protection-key", 0},
	{BIT(6), "shadow-stack", 0},
	{BIT(15), "sgx", 0},
};

static void decode_page_fault(uint64_t error)
{
	unsigned i;

	kprintf(" (");
	for (i = 0; i < ARRAY_SIZE(pf_bits); i++) {
		const char *s = (error & pf_bits[i].bit) ? pf_bits[i].set : pf_bits[i].clear;

		if (s)
			kprintf("%s%s", i ? " " : "", s);
	}
	kprintf(")");
}

/* #TS, #NP, #SS, #GP: the error code names a selector or an IDT vector. */
static void decode_selector(uint64_t error)
{
	static const char *const tables[4] = {"GDT", "IDT", "LDT", "IDT"};

	if (!error)
		return;
	kprintf(" (%s %s 0x%lx%s)", tables[(error >> 1) & 3], (error & 2) ? "vector" : "selector",
		(error & 2) ? (error >> 3) & 0x1fff : error & 0xfff8,
		(error & 1) ? ", external event" : "");
}

static error_decoder *const decoders[NR_EXCEPTIONS] = {
	[10] = decode_selector,
	[11] = decode_selector,
	[12] = decode_selector,
	[13] = decode_selector,
	[14] = decode_page_fault,
};

static const struct {
	const char *name;
	size_t off;
} gprs[] = {
	{"RAX", offsetof(struct trap_frame, rax)}, {"RBX", offsetof(struct trap_frame, rbx)},
	{"RCX", offsetof(struct trap_frame, rcx)}, {"RDX", offsetof(struct trap_frame, rdx)},
	{"RSI", offsetof(struct trap_frame, rsi)}, {"RDI", offsetof(struct trap_frame, rdi)},
	{"RBP", offsetof(struct trap_frame, rbp)}, {"R8 ", offsetof(struct trap_frame, r8)},
	{"R9 ", offsetof(struct trap_frame, r9)},  {"R10", offsetof(struct trap_frame, r10)},
	{"R11", offsetof(struct trap_frame, r11)}, {"R12", offsetof(struct trap_frame, r12)},
	{"R13", offsetof(struct trap_frame, r13)}, {"R14", offsetof(struct trap_frame, r14)},
	{"R15", offsetof(struct trap_frame, r15)},
};

static uint64_t cr_or_zero(int (*read)(uint64_t *))
{
	uint64_t v = 0;

	read(&v);
	return v;
}

/* Follows saved RBPs only while they stay inside .bss, where all kernel stacks are. */
static void print_call_trace(uint64_t rbp)
{
	unsigned depth;

	kprintf("call trace:");
	for (depth = 0; depth < TRACE_DEPTH; depth++) {
		const uint64_t *frame = (const uint64_t *)rbp;

		if (rbp & 7 || rbp < (uint64_t)__bss_start || rbp + 16 > (uint64_t)__bss_end)
			break;
		kprintf(" %016lx", frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
	kprintf("\n");
}

void trap_report_fatal(const struct trap_frame *tf)
{
	static volatile int in_fatal;
	unsigned v = tf->vector;
	unsigned i;

	if (in_fatal++) {
		kprintf("\nnested exception %u (%s) while reporting one\n", v, trap_mnemonic(v));
		machine_exit(EL_PORT_EXIT_PANIC + (v & 0xff));
	}
	kprintf("\n=== EXCEPTION %u %s (%s) in %s mode ===\n", v, trap_mnemonic(v), trap_name(v),
		trap_from_user(tf) ? "user" : "kernel");
	kprintf("error code 0x%lx", tf->error);
	if (v < NR_EXCEPTIONS && decoders[v])
		decoders[v](tf->error);
	kprintf("\nRIP %04lx:%016lx  RFLAGS %016lx\n", tf->cs, tf->rip, tf->rflags);
	kprintf("RSP %04lx:%016lx\n", tf->ss, tf->rsp);
	kprintf("CR0 %016lx  CR2 %016lx\nCR3 %016lx  CR4 %016lx\n", cr_or_zero(read_cr0_safe),
		cr_or_zero(read_cr2_safe), cr_or_zero(read_cr3_safe), cr_or_zero(read_cr4_safe));
	for (i = 0; i < ARRAY_SIZE(gprs); i++) {
		uint64_t val = *(const uint64_t *)((const char *)tf + gprs[i].off);

		kprintf("%s %016lx%s", gprs[i].name, val, (i % 3 == 2) ? "\n" : "  ");
	}
	if (!trap_from_user(tf))
		print_call_trace(tf->rbp);
	kprintf("kernel panic: exception %u %s, exit value 0x%x\n", v, trap_mnemonic(v),
		EL_PORT_EXIT_PANIC + v);
	machine_exit(EL_PORT_EXIT_PANIC + v);
}
