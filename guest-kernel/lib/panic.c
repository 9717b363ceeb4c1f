/*
 * machine_exit() and panic().
 */
#include "arch/x86_64/cpu_nofault.h"
#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "lib/console.h"
#include "lib/kprintf.h"
#include "lib/panic.h"

void machine_exit(uint32_t value)
{
	console_flush(); /* the VMM stops at the exit: what the console holds goes first */
	outl(EL_PORT_EXIT, value);
	/* Only reached without an exit device (e.g. QEMU without isa-debug-exit). */
	for (;;) {
		cli();
		hlt();
	}
}

void panic(const char *fmt, ...)
{
	va_list ap;

	kprintf("\nkernel panic: ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	machine_exit(EL_EXIT_PANIC + EL_PANIC_SOFTWARE);
}
