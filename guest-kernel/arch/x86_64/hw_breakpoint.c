/*
 * Hardware breakpoints of user tasks (hw_breakpoint.h), as Linux 6.1 gives
 * them through ptrace (arch/x86/kernel/ptrace.c, hw_breakpoint.c) without
 * the perf layer behind them:
 *   DR0-DR3   an address below TASK_SIZE_MAX (with the length it must not
 *             reach it), aligned to the slot's length; the first write
 *             creates the slot as a disabled 1-byte write watchpoint;
 *   DR7       each slot's L or G bit enables it, its RW/LEN field sets the
 *             kind: RW=10 (I/O) and an execute breakpoint with a length are
 *             EINVAL, as is a length the address is not aligned to (checked
 *             for disabled slots that exist too); the reserved bits (10-15,
 *             32-63) are ignored but read back, as is the rest;
 *   DR6       virtual: what the last user #DB found (BS, then the Bn of the
 *             slots it hit); any value written reads back;
 *   DR4, DR5  read 0, writes EIO.
 * The CPU gets G bits and GE (Linux's encode_dr7) for the enabled slots of
 * the running task only: hwbp_switch() at every task switch writes DR7 (and
 * DR0-DR3) only when the incoming or the outgoing task has some armed.
 * A fork's child has none (Linux clears ptrace_bps in copy_thread; the DR6
 * and DR7 words are copied with the rest); exec drops them all
 * (flush_ptrace_hw_breakpoint).
 * #DB (Linux's hw_breakpoint_handler() and ptrace_triggered()): a ptrace
 * breakpoint counts only user-mode hits (its event excludes the kernel), so
 * a kernel copy to or from a watched word consumes the #DB without a signal
 * and leaves DR6 alone; from user mode the hit sets its Bn in virtual_dr6
 * and the SIGTRAP (TRAP_HWBKPT, si_addr = RIP) follows.  An execute
 * breakpoint is a fault: RF is set in the frame so the instruction runs on
 * return; SYSRET cannot restore RF, so while a task with an execute
 * breakpoint runs, exit_sysret.S refuses frames with RF
 * (exit_sysret_flags_mask) and IRETs.
 */
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/debugreg.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/hw_breakpoint.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess_range.h"

#define DR7_GE 0x200ull
#define DR7_RESERVED 0xffffffff0000fc00ull
#define RW_EXEC 0
#define RW_IO 2

static uint64_t cpu_dr7; /* what DR7 holds now (one CPU) */
/* Kernel-mode hits of user breakpoints, and those on an entry's first instruction (MOV SS). */
static uint64_t kernel_hits, entry_hits;

#define DR_WRITE(n, v) __asm__ __volatile__("mov %0, %%db" #n : : "r"((uint64_t)(v)))

/* Linux's arch_build_bp_info + hw_breakpoint_arch_parse + the kernel-space check. */
static int slot_check(uint64_t addr, unsigned ctl)
{
	static const uint8_t lens[4] = {1, 2, 8, 4};
	unsigned rw = ctl & 3, lenbits = (ctl >> 2) & 3;
	uint64_t len = lens[lenbits];

	if (rw == RW_IO || (rw == RW_EXEC && lenbits))
		return -EINVAL;
	if (addr & (len - 1))
		return -EINVAL;
	return addr >= TASK_SIZE_MAX || addr + len - 1 >= TASK_SIZE_MAX ? -EINVAL : 0;
}

/* The DR7 the CPU gets for s (0: nothing armed). */
static uint64_t hw_dr7(const struct hwbp_state *s)
{
	uint64_t dr7 = 0;

	for (unsigned i = 0; i < 4; i++)
		if (s->enabled & (1u << i))
			dr7 |= (2ull << (2 * i)) | ((uint64_t)s->ctl[i] << (16 + 4 * i));
	return dr7 ? dr7 | DR7_GE : 0;
}

static bool exec_armed(const struct hwbp_state *s)
{
	for (unsigned i = 0; i < 4; i++)
		if ((s->enabled & (1u << i)) && (s->ctl[i] & 3) == RW_EXEC)
			return true;
	return false;
}

uint64_t hwbp_get(const struct task *t, unsigned n)
{
	const struct hwbp_state *s = &t->arch.hwbp;

	if (n < 4)
		return s->present & (1u << n) ? s->addr[n] : 0;
	if (n == 6)
		return s->virtual_dr6 ^ DR6_RESERVED;
	return n == 7 ? s->ptrace_dr7 : 0;
}

/* DR7: every slot checked first, then all applied (Linux restores the old DR7 on an error). */
static int set_dr7(struct hwbp_state *s, uint64_t v)
{
	uint64_t data = v & ~DR7_RESERVED;
	uint8_t present = s->present, enabled = 0, ctl[4];

	for (unsigned i = 0; i < 4; i++) {
		bool on = (data >> (2 * i)) & 3;

		ctl[i] = (uint8_t)((data >> (16 + 4 * i)) & 0xf);
		if (!(present & (1u << i)) && !on) {
			ctl[i] = s->ctl[i];
			continue;
		}
		int err = slot_check(present & (1u << i) ? s->addr[i] : 0, ctl[i]);

		if (err)
			return err;
		if (!(present & (1u << i)))
			s->addr[i] = 0;
		present |= (uint8_t)(1u << i);
		if (on)
			enabled |= (uint8_t)(1u << i);
	}
	memcpy(s->ctl, ctl, sizeof(ctl));
	s->present = present;
	s->enabled = enabled;
	s->ptrace_dr7 = v;
	s->dr7 = hw_dr7(s);
	return 0;
}

int hwbp_set(struct task *t, unsigned n, uint64_t v)
{
	struct hwbp_state *s = &t->arch.hwbp;

	if (n < 4) {
		bool new = !(s->present & (1u << n));
		unsigned ctl = new ? 1 : s->ctl[n]; /* new: a 1-byte write watchpoint, disabled */
		int err = slot_check(v, ctl);

		if (err)
			return err;
		s->addr[n] = v;
		if (new) {
			s->ctl[n] = (uint8_t)ctl;
			s->present |= (uint8_t)(1u << n);
		}
		return 0;
	}
	if (n == 6) {
		s->virtual_dr6 = v ^ DR6_RESERVED;
		return 0;
	}
	return n == 7 ? set_dr7(s, v) : -EIO;
}

void hwbp_fork(struct task *child)
{
	struct hwbp_state *s = &child->arch.hwbp;

	memset(s->addr, 0, sizeof(s->addr));
	s->present = s->enabled = 0;
	s->dr7 = 0;
}

void hwbp_exec(struct task *t)
{
	memset(&t->arch.hwbp, 0, sizeof(t->arch.hwbp));
	hwbp_switch(t);
}

void hwbp_switch(const struct task *next)
{
	const struct hwbp_state *s = &next->arch.hwbp;

	if (s->dr7) {
		DR_WRITE(0, s->addr[0]);
		DR_WRITE(1, s->addr[1]);
		DR_WRITE(2, s->addr[2]);
		DR_WRITE(3, s->addr[3]);
		DR_WRITE(7, s->dr7);
		exit_sysret_flags_mask = (uint32_t)(RFLAGS_TF | RFLAGS_IF |
						    (exec_armed(s) ? RFLAGS_RF : 0));
	} else if (cpu_dr7) {
		DR_WRITE(7, 0);
		exit_sysret_flags_mask = (uint32_t)(RFLAGS_TF | RFLAGS_IF);
	}
	cpu_dr7 = s->dr7;
}

uint64_t hwbp_debug(struct trap_frame *tf, uint64_t dr6)
{
	struct hwbp_state *s;
	bool user = trap_from_user(tf), icebp = !dr6;

	if (!current)
		return ~0ull;
	s = &current->arch.hwbp;
	if (user)
		s->virtual_dr6 = dr6 & DR_STEP;
	if (dr6 & DR_TRAP_BITS) {
		for (unsigned i = 0; i < 4; i++) {
			uint64_t bit = 1ull << i;
			bool exec = (s->ctl[i] & 3) == RW_EXEC;

			/* Only the CPU's armed slots; an execute hit waits behind a single step. */
			if (!(dr6 & bit) || !(s->enabled & bit) || (exec && (dr6 & DR_STEP)))
				continue;
			dr6 &= ~bit;
			if (!user) {
				/* The breakpoint excludes the kernel: no signal, only statistics. */
				kernel_hits++;
				entry_hits += tf->rip == rdmsr(MSR_LSTAR) || idt_gate_target(tf->rip);
				continue;
			}
			s->virtual_dr6 |= bit;
			if (exec)
				tf->rflags |= RFLAGS_RF;
		}
		/* Nothing left to say (a kernel hit, or a stray Bn): no signal. */
		if (!(s->virtual_dr6 & DR_TRAP_BITS) && !(dr6 & ~DR_TRAP_BITS))
			return ~0ull;
	}
	if (!user)
		return ~0ull;
	dr6 |= s->virtual_dr6;
	return (dr6 & (DR_STEP | DR_TRAP_BITS)) || icebp ? dr6 : ~0ull;
}

void hwbp_print_stats(void)
{
	if (kernel_hits)
		kprintf("hwbp: %lu #DB in kernel mode from user breakpoints, %lu on an entry's first "
			"instruction\n", kernel_hits, entry_hits);
}
