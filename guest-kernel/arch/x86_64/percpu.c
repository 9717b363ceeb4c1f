/*
 * The boot CPU's per-CPU area, its entry stack and its GS base.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/percpu.h"
#include "mm/pti.h"

extern char boot_stack_top[];

struct percpu cpu0 __entry_bss __aligned(64);

/*
 * The entry (trampoline) stack: the IRET trampoline's stack
 * (entry.irq_return=trampoline).  A page of its own in the entry data,
 * mapped in the user page tables.
 */
static uint8_t entry_stack[ENTRY_STACK_SIZE] __entry_bss __aligned(4096);

void percpu_init(void)
{
	cpu0.self = &cpu0;
	cpu0.top_of_stack = (uint64_t)boot_stack_top;
	cpu0.entry_stack_top = (uint64_t)entry_stack + sizeof(entry_stack);
	wrmsr(MSR_GS_BASE, (uint64_t)&cpu0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void percpu_set_kernel_stack(uint64_t top)
{
	cpu0.top_of_stack = top;
	tss_set_rsp0(top);
	pti_map_frame_page(top);
}
