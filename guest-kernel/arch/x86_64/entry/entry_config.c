/*
 * Entry and exit variants (entry_config.h).
 *   pti=on                    EF_PTI; LSTAR was chosen by syscall_init(), the
 *                             interrupt gates by irq_init(), the #PF gate here;
 *   entry.irq_return=         trampoline: EF_IRET_TRAMPOLINE (the IRET copies
 *                             the frame to the entry stack, with or without
 *                             PTI); direct: none (IRET from the task stack's
 *                             frame page, under PTI too);
 *   entry.ret=sysret          EF_SYSRET when the vDSO is mapped and has the
 *                             trampoline, else `unavailable` and IRET.
 */
#include "arch/x86_64/desc.h"
#include "arch/x86_64/entry/entry_config.h"
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/percpu.h"
#include "lib/kprintf.h"
#include "mm/pti.h"

static uint8_t effective[EL_CFG_COUNT];
static bool ready;

void entry_init(const struct el_cmdline *cl)
{
	uint64_t flags = pti.on ? EF_PTI : 0;

	effective[EL_CFG_IRQ_RETURN] = cl->requested[EL_CFG_IRQ_RETURN];
	if (effective[EL_CFG_IRQ_RETURN] == EL_IRQRET_TRAMPOLINE)
		flags |= EF_IRET_TRAMPOLINE;
	effective[EL_CFG_RET] = EL_RET_IRET;
	if (cl->requested[EL_CFG_RET] == EL_RET_SYSRET) {
		if (exit_sysret_init()) {
			flags |= EF_SYSRET;
			effective[EL_CFG_RET] = EL_RET_SYSRET;
		} else {
			effective[EL_CFG_RET] = EL_CONFIG_UNAVAILABLE;
			kprintf("entry: entry.ret=sysret needs the vDSO's trampoline (vdso=on): "
				"returns use IRET\n");
		}
	}
	cpu0.entry_flags = flags;
	exit_sysret_set_mm(0);
	/* The interrupt gates chose by pti.on themselves (irq_init()). */
	idt_set_pti(pti.on);
	ready = true;
}

uint8_t entry_config(unsigned item)
{
	if (!ready || (item != EL_CFG_RET && item != EL_CFG_IRQ_RETURN))
		return EL_CONFIG_UNSET;
	return effective[item];
}

void entry_print_stats(void)
{
	if (cpu0.entry_flags & EF_SYSRET)
		exit_sysret_print_stats();
}
