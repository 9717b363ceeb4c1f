/*
 * EL_SYS_SELF_IPI (abi.h): a chain of `count` self-IPIs taken back to back
 * in user mode.  The syscall sends the first one; it stays pending while
 * the kernel runs with IF=0 and is taken at the first user instruction
 * after the return.  Each handler that interrupted user mode counts it
 * (el_region.interrupts), EOIs and sends the next one while any remain,
 * which again waits for the return to user mode.  So the chain is count
 * user-mode interrupt entries and returns, with nothing else in between.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/percpu.h"
#include "entrylab/abi.h"
#include "lib/kprintf.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

/* Interrupts of the current chain still to be sent after the pending one. */
static uint64_t chain_left;
static bool warned_kernel_hit;

SYSCALL_DEFINE2(el_self_ipi, uint64_t, count, uint64_t, flags)
{
	if (count < 1 || count > EL_SELF_IPI_MAX || flags != 0)
		return -EINVAL;
	if (apic_mode() == APIC_NONE)
		return -ENODEV;
	chain_left = count - 1;
	apic_self_ipi(IRQ_VECTOR_SELF_IPI);
	return 0;
}

/*
 * Only kernel code that set IF itself can get here (the kernel runs with
 * IF=0).  Resending now would interrupt it again at once, so the chain ends
 * here: the region's interrupt count shows the shortfall.
 */
static __attribute__((noinline, cold)) void self_ipi_in_kernel(const struct trap_frame *tf)
{
	if (!warned_kernel_hit)
		kprintf("self-IPI: taken in kernel mode at rip %lx (kernel code ran with "
			"IF=1); %lu interrupts of the chain dropped\n",
			tf->rip, chain_left + 1);
	warned_kernel_hit = true;
	chain_left = 0;
}

void self_ipi_interrupt(struct trap_frame *tf)
{
	if (__builtin_expect(!trap_from_user(tf), 0)) {
		apic_eoi();
		self_ipi_in_kernel(tf);
		return;
	}
	apic_eoi();
	cpu0.nr_interrupts++;
	if (chain_left) {
		chain_left--;
		apic_self_ipi(IRQ_VECTOR_SELF_IPI);
	}
}
