/*
 * Per-thread user CPU state (thread.h): selectors, FS/GS bases, the FPU
 * image, the LDT and the I/O bitmap, switched eagerly.  fpu.c owns the
 * image format (FXSAVE or XSAVE), ldt.c the LDT, ioport.c the bitmap.
 *
 * The bases are read with RDMSR, which sees what WRFSBASE/WRGSBASE wrote
 * as well as what a selector load set, so the saved base is always the
 * base user mode had.  In the kernel the user's GS base is the one SWAPGS
 * put aside: MSR_KERNEL_GS_BASE.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/hw_breakpoint.h"
#include "arch/x86_64/ioport.h"
#include "arch/x86_64/ldt.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/segregs.h"
#include "arch/x86_64/thread.h"
#include "arch/x86_64/x86.h"
#include "cpu_setup.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"

/* Selectors 0-3 are null: they name no descriptor, so no base comes with them. */
#define SEL_NULL_MAX 3

static bool fsgsbase_on(void)
{
	return (cpu_state.cr4_allowed & ~cpu_state.cr4_refused & CR4_FSGSBASE) != 0;
}

int arch_task_init(struct task *child, const struct task *parent)
{
	/* The parent runs: its live state is in the CPU, not yet in its fields. */
	if (parent == current)
		arch_save_user_state(current);
	child->arch = parent->arch;
	child->arch.iopl_warned = false;
	hwbp_fork(child);
	child->arch.fpu = fpu_state_alloc();
	if (!child->arch.fpu) {
		child->arch.io_bitmap = 0;
		return -ENOMEM;
	}
	memcpy(child->arch.fpu, parent->arch.fpu, fpu_state_size());
	if (child->arch.io_bitmap)
		io_bitmap_get(child->arch.io_bitmap);
	return 0;
}

void arch_task_release(struct task *t)
{
	if (t->arch.fpu)
		fpu_state_free(t->arch.fpu);
	t->arch.fpu = 0;
	io_bitmap_put(t->arch.io_bitmap);
	t->arch.io_bitmap = 0;
}

void arch_save_user_state(struct task *t)
{
	t->arch.ds = seg_read_ds();
	t->arch.es = seg_read_es();
	t->arch.fsindex = seg_read_fs();
	t->arch.gsindex = seg_read_gs();
	t->arch.fsbase = rdmsr(MSR_FS_BASE);
	t->arch.gsbase = rdmsr(MSR_KERNEL_GS_BASE);
	fpu_save(t->arch.fpu);
}

void arch_load_user_state(struct task *t)
{
	bool fsgsbase = fsgsbase_on();

	/* First the tables the selectors below may name. */
	ldt_load(t->mm);
	espfix_track(t);
	gdt_set_tls(t->arch.tls);
	tss_io_load(t);
	t->arch.ds = seg_load_ds(t->arch.ds);
	t->arch.es = seg_load_es(t->arch.es);
	t->arch.fsindex = seg_load_fs(t->arch.fsindex);
	if (fsgsbase || t->arch.fsindex <= SEL_NULL_MAX)
		wrmsr(MSR_FS_BASE, t->arch.fsbase);
	t->arch.gsindex = seg_load_user_gs(t->arch.gsindex);
	if (fsgsbase || t->arch.gsindex <= SEL_NULL_MAX)
		wrmsr(MSR_KERNEL_GS_BASE, t->arch.gsbase);
	fpu_restore(t->arch.fpu);
}

void arch_exec_reset(struct task *t)
{
	t->arch.fsbase = t->arch.gsbase = 0;
	memset(t->arch.tls, 0, sizeof(t->arch.tls));
	gdt_set_tls(t->arch.tls);
	t->arch.fsindex = t->arch.gsindex = t->arch.ds = t->arch.es = 0;
	ldt_load(t->mm);
	espfix_track(t);
	seg_load_ds(0);
	seg_load_es(0);
	/* Compatibility mode addresses through DS and ES: an i386 program gets USER_DS in both. */
	if (t->mm->ia32)
		t->arch.ds = t->arch.es = seg_load_es(seg_load_ds(USER_DS));
	seg_load_fs(0);
	seg_load_user_gs(0);
	/* A null selector load keeps the old base on some CPUs (AMD): write them. */
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	tss_io_load(t);
	fpu_init_state();
	hwbp_exec(t);
	/* The new address space's vDSO for the SYSRET exit. */
	exit_sysret_set_mm(t->mm);
}

void arch_task_switch(struct task *prev, struct task *next)
{
	if (prev == next)
		return;
	/* A task that died running still has its image until it is reaped. */
	if (prev->arch.fpu)
		arch_save_user_state(prev);
	arch_load_user_state(next);
	hwbp_switch(next);
	exit_sysret_set_mm(next->mm);
}
