/*
 * kmain: the boot sequence, from boot.S to the boot report and the exit.
 */
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/percpu.h"
#include "boot/bootinfo.h"
#include "config.h"
#include "cpu_setup.h"
#include "crash.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "mm/paging.h"
#include "report.h"
#include "selfcheck.h"

void kmain(uint32_t start_info_phys);

void kmain(uint32_t start_info_phys)
{
	struct selfcheck_result sc;

	kprintf("entrylab guest kernel (ABI %u)\n", EL_ABI_VERSION);
	/* Descriptor tables first: from here on every exception is reported. */
	gdt_init();
	idt_init();
	percpu_init();

	bootinfo_capture(start_info_phys);
	kprintf("command line: \"%s\"\n", boot_info.cmdline);
	bootinfo_print();
	config_parse_cmdline(boot_info.cmdline);

	cpu_identify();
	cpu_setup(&kernel_cmdline);
	paging_init();
	config_resolve();

	sc = selfcheck_run_all();
	report_build_boot(&sc);
	report_print_boot();
	report_send();

	crash_run(kernel_cmdline.test_crash);
	kprintf("boot complete, exiting with status 0\n");
	machine_exit(0);
}
