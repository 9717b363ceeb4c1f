/*
 * The test.crash= hooks.  Each produces exactly the failure its name says so
 * that the VMM's reporting of that failure can be tested:
 *   triple   an IDT with limit 0, then an exception: #UD -> #GP -> #DF -> shutdown
 *   hang     interrupts off, spinning forever (the VMM's --timeout)
 *   ud       UD2 in the kernel: the exception report and the panic exit
 *   badport  OUT to a port no device claims
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/io.h"
#include "crash.h"
#include "lib/kprintf.h"
#include "lib/panic.h"

#define CRASH_BAD_PORT 0x1234

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

static const struct {
	const char *name;
	crash_fn *fn;
} crashes[] = {
	[EL_CRASH_TRIPLE] = {"triple fault", crash_triple},
	[EL_CRASH_HANG] = {"hang", crash_hang},
	[EL_CRASH_UD] = {"#UD in the kernel", crash_ud},
	[EL_CRASH_BADPORT] = {"OUT to port 0x1234", crash_badport},
};

void crash_run(enum el_test_crash how)
{
	if (how == EL_CRASH_NONE || how >= ARRAY_SIZE(crashes) || !crashes[how].fn)
		return;
	kprintf("test.crash: %s\n", crashes[how].name);
	crashes[how].fn();
	/* The VMM should have stopped the guest (QEMU ignores unknown ports). */
	panic("test.crash: %s returned", crashes[how].name);
}
