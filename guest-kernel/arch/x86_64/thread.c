/*
 * Per-thread user CPU state (thread.h): FS/GS bases and the FPU image,
 * switched eagerly.  fpu.c owns the image format (FXSAVE or XSAVE).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/thread.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "sys/errno.h"

int arch_task_init(struct task *child, const struct task *parent)
{
	child->arch = parent->arch;
	child->arch.io_bitmap = 0;
	child->arch.fpu = fpu_state_alloc();
	if (!child->arch.fpu)
		return -ENOMEM;
	/* The parent runs: its live state is in the CPU, not yet in its image. */
	if (parent == current) {
		child->arch.fsbase = rdmsr(MSR_FS_BASE);
		child->arch.gsbase = rdmsr(MSR_KERNEL_GS_BASE);
		fpu_save(child->arch.fpu);
	} else {
		memcpy(child->arch.fpu, parent->arch.fpu, fpu_state_size());
	}
	return 0;
}

void arch_task_release(struct task *t)
{
	fpu_state_free(t->arch.fpu);
	t->arch.fpu = 0;
}

void arch_exec_reset(struct task *t)
{
	t->arch.fsbase = t->arch.gsbase = 0;
	t->arch.fsindex = t->arch.gsindex = t->arch.ds = t->arch.es = 0;
	t->arch.iopl = 0;
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	fpu_init_state();
}

void arch_save_user_state(struct task *t)
{
	t->arch.fsbase = rdmsr(MSR_FS_BASE);
	t->arch.gsbase = rdmsr(MSR_KERNEL_GS_BASE);
	fpu_save(t->arch.fpu);
}

void arch_load_user_state(struct task *t)
{
	wrmsr(MSR_FS_BASE, t->arch.fsbase);
	wrmsr(MSR_KERNEL_GS_BASE, t->arch.gsbase);
	fpu_restore(t->arch.fpu);
}

void arch_task_switch(struct task *prev, struct task *next)
{
	if (prev == next)
		return;
	if (prev->arch.fpu)
		arch_save_user_state(prev);
	arch_load_user_state(next);
}
