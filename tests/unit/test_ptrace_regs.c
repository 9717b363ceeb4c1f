/*
 * The tracer's register view (guest-kernel/proc/ptrace_regs.c): Linux's
 * user_regs_struct order over the trap frame, and putreg's rules, both the
 * writes Linux accepts and those it refuses with EIO.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>
#include <sys/user.h>

#include "guest-kernel/proc/ptrace_regs.h"

#define IDX(field) ((unsigned)(offsetof(struct user_regs_struct, field) / 8))

static struct trap_frame tf;
static struct thread_arch arch;

static void setup(void)
{
	uint64_t *w = (uint64_t *)&tf;

	for (size_t i = 0; i < sizeof(tf) / 8; i++)
		w[i] = 0x1000 + i;
	tf.vector = TF_VECTOR_SYSCALL;
	tf.cs = 0x33;
	tf.ss = 0x2b;
	tf.rflags = 0x246;
	memset(&arch, 0, sizeof(arch));
	arch.fsbase = 0x7000;
	arch.gsbase = 0x8000;
}

TestSuite(ptrace_regs, .init = setup);

Test(ptrace_regs, layout_is_linux_user_regs_struct)
{
	cr_expect_eq(sizeof(struct user_regs_struct), USER_REGS_SIZE);
	cr_expect_eq(offsetof(struct user, u_debugreg), USER_DEBUGREG_OFFSET);
	cr_expect_eq(sizeof(struct user), USER_SIZE);
	cr_expect_eq(IDX(orig_rax), UREG_ORIG_RAX);
	cr_expect_eq(IDX(rip), UREG_RIP);
	cr_expect_eq(IDX(eflags), UREG_EFLAGS);
	cr_expect_eq(IDX(fs_base), UREG_FS_BASE);
	cr_expect_eq(IDX(gs), UREG_GS);
}

Test(ptrace_regs, reads_map_onto_the_frame)
{
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(r15), false), tf.r15);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(rdi), false), tf.rdi);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(rax), false), tf.rax);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(orig_rax), false), tf.error);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(rip), false), tf.rip);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(rsp), false), tf.rsp);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(fs_base), false), 0x7000);
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(gs_base), false), 0x8000);
}

Test(ptrace_regs, orig_rax_is_minus_one_outside_syscalls)
{
	tf.vector = 14;
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(orig_rax), false), ~0ull);
}

Test(ptrace_regs, forced_tf_is_hidden_and_dropped_by_a_write)
{
	bool forced = true;

	tf.rflags |= PTRACE_RFLAGS_TF;
	cr_expect_eq(ptrace_getreg(&tf, &arch, IDX(eflags), forced) & PTRACE_RFLAGS_TF, 0);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(eflags), 0x246, &forced), 0);
	cr_expect(!forced, "a tracer writing RFLAGS without TF owns TF from then on");
	cr_expect_eq(tf.rflags & PTRACE_RFLAGS_TF, 0);
}

Test(ptrace_regs, rflags_only_user_changeable_bits)
{
	bool forced = false;

	/* IF (0x200), IOPL (0x3000), NT? no: NT (0x4000) is not in Linux's mask; VM, ID, VIF ... neither. */
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(eflags), 0xffffffffffffffffull, &forced), 0);
	cr_expect_eq(tf.rflags, 0x246 | PTRACE_FLAG_MASK);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(eflags), 0, &forced), 0);
	cr_expect_eq(tf.rflags, 0x246 & ~PTRACE_FLAG_MASK, "IF and the fixed bit stay: 0x%lx", tf.rflags);
}

Test(ptrace_regs, selectors_need_rpl3)
{
	bool forced = false;

	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(cs), 0x10, &forced), -5, "kernel CS refused");
	cr_expect_eq(tf.cs, 0x33, "refused write leaves CS");
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(ss), 0, &forced), -5, "null SS refused");
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(cs), 0x23, &forced), 0, "32-bit user CS taken");
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(ds), 0, &forced), 0, "null DS taken");
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(fs), 0x7, &forced), 0, "LDT selector with RPL 3");
	cr_expect_eq(arch.fsindex, 0x7);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(gs), 0x18, &forced), -5, "RPL 0 data selector");
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(gs), 0x10003, &forced), -5, "wider than 16 bits");
}

Test(ptrace_regs, bases_below_task_size)
{
	bool forced = false;

	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(fs_base), 0x00007ffffffff000ull, &forced), -5);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(gs_base), 0xffff800000000000ull, &forced), -5);
	cr_expect_eq(arch.gsbase, 0x8000);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(fs_base), 0x00007fffdeadb000ull, &forced), 0);
	cr_expect_eq(arch.fsbase, 0x00007fffdeadb000ull);
}

Test(ptrace_regs, gprs_and_orig_rax_written_as_given)
{
	bool forced = false;

	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(r10), 42, &forced), 0);
	cr_expect_eq(tf.r10, 42);
	cr_expect_eq(ptrace_putreg(&tf, &arch, IDX(orig_rax), ~0ull, &forced), 0);
	cr_expect_eq(tf.error, ~0ull, "orig_rax -1 skips the syscall");
	cr_expect_eq(ptrace_putreg(&tf, &arch, UREG_COUNT, 0, &forced), -5);
}
