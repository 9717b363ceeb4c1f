/*
 * The test.crash= hooks.  Each produces exactly the failure its name says so
 * that the VMM's reporting of that failure can be tested:
 *   triple   an IDT with limit 0, then an exception: #UD -> #GP -> #DF -> shutdown
 *   hang     interrupts off, spinning forever (the VMM's --timeout)
 *   ud       UD2 in the kernel: the exception report and the panic exit
 *   badport  OUT to a port no device claims
 *   sysenter SYSENTER with IA32_SYSENTER_CS 0 (#GP, #UD or a KVM emulation failure)
 *   icebp    ICEBP (INT1): #DB in the kernel
 *   badidt   INT 0x80 through an IDT whose every byte is garbage
 *   mmio-exec  a call to code at a physical address with no RAM behind it
 *   report-backwards   both region markers, then a RUN report whose region
 *                      ends before it begins, with counts of 2^64-1
 *   report-unmarked    a RUN report with a valid region, no markers sent
 *   report-boot-twice  the BOOT report again
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/io.h"
#include "crash.h"
#include "lib/console.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "report.h"

#define CRASH_BAD_PORT 0x1234
#define CRASH_MSR_SYSENTER_CS 0x174u
#define CRASH_NO_RAM_PHYS _UL(0xd0000000) /* in the hole below 4 GiB: no RAM, no device */

typedef void crash_fn(void);

static void crash_triple(void)
{
	idt_load_empty();
	__asm__ __volatile__("ud2");
}

static void crash_hang(void)
{
	cli();
	for (;;)
		cpu_relax();
}

static void crash_ud(void)
{
	__asm__ __volatile__("ud2");
}

static void crash_badport(void)
{
	outb(CRASH_BAD_PORT, 0);
}

static void crash_sysenter(void)
{
	wrmsr_safe(CRASH_MSR_SYSENTER_CS, 0);
	__asm__ __volatile__("sysenter");
}

static void crash_icebp(void)
{
	__asm__ __volatile__(".byte 0xf1");
}

static void crash_badidt(void)
{
	static uint8_t garbage[4096] __aligned(4096);
	struct desc_ptr p = {sizeof(garbage) - 1, (uint64_t)garbage};

	for (unsigned i = 0; i < sizeof(garbage); i++)
		garbage[i] = (uint8_t)(0xa5 ^ i);
	load_idt(&p);
	__asm__ __volatile__("int $0x80");
}

static void crash_mmio_exec(void)
{
	uint64_t va = DIRECT_MAP_BASE + CRASH_NO_RAM_PHYS;

	if (!paging_map_kernel_page(va, CRASH_NO_RAM_PHYS, PTE_PCD | PTE_PWT))
		panic("test.crash: cannot map physical 0x%lx", CRASH_NO_RAM_PHYS);
	((void (*)(void))va)();
}

static void crash_report_backwards(void)
{
	static const struct el_region r = {.tsc_begin = 9, .tsc_end = 5, .syscalls = ~0ull,
					   .page_faults = ~0ull, .interrupts = ~0ull, .valid = 1};

	outl(EL_PORT_HCALL + EL_HC_REGION_BEGIN, 0);
	outl(EL_PORT_HCALL + EL_HC_REGION_END, 0);
	report_send_run(&r, EL_REGION_SCOPE_MARKED, 0, 0);
}

static void crash_report_unmarked(void)
{
	static const struct el_region r = {.tsc_begin = 9, .tsc_end = 10, .valid = 1};

	report_send_run(&r, EL_REGION_SCOPE_MARKED, 0, 0);
}

static const struct {
	const char *name;
	crash_fn *fn;
} crashes[] = {
	[EL_CRASH_TRIPLE] = {"triple fault", crash_triple},
	[EL_CRASH_HANG] = {"hang", crash_hang},
	[EL_CRASH_UD] = {"#UD in the kernel", crash_ud},
	[EL_CRASH_BADPORT] = {"OUT to port 0x1234", crash_badport},
	[EL_CRASH_SYSENTER] = {"SYSENTER with its MSR 0", crash_sysenter},
	[EL_CRASH_ICEBP] = {"ICEBP", crash_icebp},
	[EL_CRASH_BADIDT] = {"INT 0x80 through a garbage IDT", crash_badidt},
	[EL_CRASH_MMIO_EXEC] = {"a jump into MMIO", crash_mmio_exec},
	[EL_CRASH_REPORT_BACKWARDS] = {"a region running backwards", crash_report_backwards},
	[EL_CRASH_REPORT_UNMARKED] = {"a region without markers", crash_report_unmarked},
	[EL_CRASH_REPORT_BOOT_TWICE] = {"the BOOT report twice", report_send},
};

void crash_run(enum el_test_crash how)
{
	if (how == EL_CRASH_NONE || how >= ARRAY_SIZE(crashes) || !crashes[how].fn)
		return;
	kprintf("test.crash: %s\n", crashes[how].name);
	console_flush(); /* most of these end the VM without an exit */
	crashes[how].fn();
	/* The VMM should have stopped the guest (QEMU ignores unknown ports). */
	panic("test.crash: %s returned", crashes[how].name);
}
