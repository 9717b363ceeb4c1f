/*
 * The boot CPU's per-CPU area and its GS base.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/percpu.h"

extern char boot_stack_top[];

struct percpu cpu0 __entry_bss __aligned(64);

void percpu_init(void)
{
	cpu0.self = &cpu0;
	cpu0.top_of_stack = (uint64_t)boot_stack_top;
	wrmsr(MSR_GS_BASE, (uint64_t)&cpu0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void percpu_set_kernel_stack(uint64_t top)
{
	cpu0.top_of_stack = top;
	tss_set_rsp0(top);
}
