/*
 * kmain: the boot sequence, from boot.S to the boot report, then init from
 * the initrd; its exit ends the VM (proc/process.c).
 */
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/entry/entry_config.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/legacy_pic.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/entry/syscall_init.h"
#include "boot/bootinfo.h"
#include "config.h"
#include "cpu_setup.h"
#include "arch/x86_64/fpu.h"
#include "proc/timer.h"
#include "crash.h"
#include "fs/initrd.h"
#include "fs/vfs.h"
#include "lib/console.h"
#include "lib/hostio.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "mm/frame.h"
#include "mm/paging.h"
#include "mm/pti.h"
#include "mm/tlb.h"
#include "pmu/pmu.h"
#include "proc/process.h"
#include "report.h"
#include "selfcheck.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "vdso/vdso.h"

/* The C entry: called by boot.S only, so declared here. */
void kmain(uint32_t start_info_phys);

void kmain(uint32_t start_info_phys)
{
	struct selfcheck_result sc;

	hostio_init();
	console_init();
	kprintf("entrylab guest kernel (ABI %u)\n", EL_ABI_VERSION);
	/* Descriptor tables first: from here on every exception is reported. */
	gdt_init();
	idt_init();
	percpu_init();

	bootinfo_capture(start_info_phys);
	legacy_pic_mask();
	kprintf("command line: \"%s\"\n", boot_info.cmdline);
	bootinfo_print();
	config_parse_cmdline(boot_info.cmdline);

	cpu_identify();
	cpu_setup(&kernel_cmdline);
	frame_init();
	pti_configure(&kernel_cmdline);
	paging_init();
	tlb_init(&kernel_cmdline);
	syscall_init();
	irq_init();
	uaccess_init();
	time_init();
	timer_init();
	fpu_init();
	vdso_init();
	espfix_init();
	pti_init();
	entry_init(&kernel_cmdline);
	config_resolve();
	pmu_init(&kernel_cmdline);

	sc = selfcheck_run_all();
	report_build_boot(&sc);
	report_print_boot();
	kprintf("  frames     %lu pages of 4 KiB free for use in %u ranges\n",
		frame_stats.total - frame_stats.in_use, frame_stats.nr_ranges);
	report_send();

	crash_run(kernel_cmdline.test_crash);
	vfs_init();
	if (!initrd_unpack()) {
		kprintf("no initrd: nothing to run; boot complete, exiting with status 0\n");
		machine_exit(0);
	}
	process_run_init();
}
