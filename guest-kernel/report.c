/*
 * The boot report.  The struct lives in the kernel image, which is loaded
 * below 4 GiB, so its physical address fits the 32-bit hypercall OUT.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/hw_breakpoint.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/msr.h"
#include "config.h"
#include "cpu_setup.h"
#include "entrylab/serial_frame.h"
#include "lib/console.h"
#include "lib/hostio.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/tlb.h"
#include "pmu/pmu.h"
#include "proc/timer.h"
#include "report.h"
#include "time/time.h"

static struct el_report boot_report __aligned(64);

void report_build_boot(const struct selfcheck_result *sc)
{
	struct el_report *r = &boot_report;
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->magic = EL_REPORT_MAGIC;
	r->abi_version = EL_ABI_VERSION;
	r->size = sizeof(*r);
	r->kind = EL_REPORT_BOOT;
	r->cr0 = read_cr0();
	r->cr4 = read_cr4();
	r->efer = rdmsr(MSR_EFER);
	r->cpuid = boot_cpu.features;
	for (i = 0; i < EL_CONFIG_MAX; i++) {
		r->config[i] = i < EL_CFG_COUNT ? config_effective[i] : EL_CONFIG_UNSET;
		r->requested[i] = i < EL_CFG_COUNT ? kernel_cmdline.requested[i] : EL_CONFIG_UNSET;
	}
	r->selfcheck_run = sc->run;
	r->selfcheck_failed = sc->failed;
	pmu_report(r);
}

static void print_features(void)
{
	unsigned i;

	kprintf("  cpuid      ");
	for (i = 0; i < EL_FEAT_COUNT; i++) {
		kprintf("%c%s%s", cpu_has(i) ? '+' : '-', el_features[i].name,
			(i % 10 == 9 && i + 1 < EL_FEAT_COUNT) ? "\n             " : " ");
	}
	kprintf("\n");
}

static void print_config(void)
{
	unsigned i;

	kprintf("  config     %-12s %-12s %s\n", "item", "requested", "effective");
	for (i = 0; i < EL_CFG_COUNT; i++) {
		uint8_t req = kernel_cmdline.requested[i], eff = config_effective[i];

		kprintf("             %-12s %-12s %s%s\n", el_config[i].key,
			config_value_name(i, req), config_value_name(i, eff),
			req == eff ? "" : "   (differs)");
	}
}

void report_print_boot(void)
{
	const struct el_report *r = &boot_report;

	kprintf("boot report:\n");
	kprintf("  cpu        %s family %u model %u stepping %u\n", boot_cpu.vendor,
		boot_cpu.family, boot_cpu.model, boot_cpu.stepping);
	if (boot_cpu.brand[0])
		kprintf("             %s\n", boot_cpu.brand);
	if (boot_cpu.hv_vendor[0])
		kprintf("  hypervisor %s (leaves up to 0x%x)\n", boot_cpu.hv_vendor,
			boot_cpu.max_hv_leaf);
	print_features();
	kprintf("  CR0        ");
	cpu_print_cr0(r->cr0);
	kprintf("\n  CR4        ");
	cpu_print_cr4(r->cr4);
	kprintf("\n  EFER       ");
	cpu_print_efer(r->efer);
	kprintf("\n");
	print_config();
	kprintf("  paging     direct map: RAM below 0x%lx%s; %u table pages; NX %s "
		"(global mappings: guest.config.global)\n",
		kpaging.direct_map_end, kpaging.direct_map_cut ? " (cut)" : "",
		kpaging.table_pages, kpaging.nx ? "on" : "off");
	kprintf("  tsc        %lu kHz (the clock in use)\n", time_tsc_khz());
	kprintf("  selfcheck  run 0x%x failed 0x%x\n", r->selfcheck_run, r->selfcheck_failed);
}

/* The frame kind of each report kind, for hosts without the hypercall. */
static const char *const frame_kinds[] = {
	[EL_REPORT_BOOT] = EL_FRAME_KIND_BOOT,
	[EL_REPORT_RUN] = EL_FRAME_KIND_RUN,
};

/*
 * Under the entrylab VMM: EL_HC_REPORT.  Without it (Bochs, qemu -kernel):
 * the same bytes as a framed line on COM1, which the host decodes and
 * validates as it validates a report that came by hypercall.
 */
static void send(const struct el_report *r)
{
	uint64_t pa = virt_to_phys(r);

	if (!hostio_present) {
		if (r->kind < ARRAY_SIZE(frame_kinds) && frame_kinds[r->kind])
			console_frame(frame_kinds[r->kind], r, sizeof(*r));
		return;
	}
	if (pa + sizeof(*r) > 0x100000000ull)
		panic("report at physical 0x%lx is above 4 GiB", pa);
	console_flush(); /* a report the VMM refuses stops the run: the console is out by then */
	outl(EL_PORT_HCALL + EL_HC_REPORT, (uint32_t)pa);
}

void report_send(void)
{
	send(&boot_report);
}

/*
 * The region's counts on the console as well: under QEMU (`entrylab trace`)
 * no hypercall is answered, and harness/trace/trace_console.c reads this line.
 */
static void print_region(const struct el_region *r, enum el_region_scope scope)
{
	if (!r->valid)
		return;
	kprintf("region: iterations %lu tsc_ticks %lu tsc_khz %lu syscalls %lu page_faults %lu "
		"interrupts %lu scope %s\n", r->iterations, r->tsc_end - r->tsc_begin, r->tsc_khz,
		r->syscalls, r->page_faults, r->interrupts,
		scope < EL_REGION_SCOPE_COUNT ? el_region_scope_names[scope] : "?");
}

/* The boot report's CPU and configuration fields, then what the run produced. */
void report_send_run(const struct el_region *region, enum el_region_scope scope,
		     uint64_t unknown_syscalls, int32_t status)
{
	static struct el_report run_report __aligned(64);

	print_region(region, scope);
	tlb_print_stats();
	hwbp_print_stats();

	run_report = boot_report;
	run_report.kind = EL_REPORT_RUN;
	run_report.unknown_syscalls = unknown_syscalls;
	run_report.exit_status = status;
	run_report.flags |= EL_REPORT_EXITED;
	run_report.region = *region;
	run_report.region_scope = region->valid ? scope : EL_REGION_SCOPE_NONE;
	pmu_report(&run_report);
	timer_stats(&run_report.timer);
	if (run_report.timer.interrupts || run_report.timer.polls)
		kprintf("timer: %lu interrupts, latest %lu ns late, worst %lu ns late, %u fallbacks, "
			"%u polled waits, %u halts skipped\n", run_report.timer.interrupts,
			run_report.timer.late_last_ns, run_report.timer.late_max_ns,
			run_report.timer.fallbacks, run_report.timer.polls, run_report.timer.halt_skips);
	send(&run_report);
}
