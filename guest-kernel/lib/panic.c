/*
 * machine_exit() and panic().
 */
#include "arch/x86_64/cpu_nofault.h"
#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "entrylab/serial_frame.h"
#include "lib/console.h"
#include "lib/hostio.h"
#include "lib/kprintf.h"
#include "lib/panic.h"

/*
 * Without the VMM: the EXIT frame, then, once COM1 has sent it, the exit
 * port (QEMU's isa-debug-exit ends there) and Bochs's shutdown string.
 */
static void exit_without_vmm(uint32_t value)
{
	static const char shutdown[] = EL_BOCHS_SHUTDOWN_STR;
	uint8_t le[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
			 (uint8_t)(value >> 24)};
	unsigned i;

	console_frame(EL_FRAME_KIND_EXIT, le, sizeof(le));
	com1_drain();
	outl(EL_PORT_EXIT, value);
	for (i = 0; i < sizeof(shutdown) - 1; i++)
		outb(EL_PORT_BOCHS_SHUTDOWN, (uint8_t)shutdown[i]);
}

void machine_exit(uint32_t value)
{
	if (hostio_present) {
		console_flush(); /* the VMM stops at the exit: what the console holds goes first */
		outl(EL_PORT_EXIT, value);
	} else {
		exit_without_vmm(value);
	}
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
	machine_exit(EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE);
}
