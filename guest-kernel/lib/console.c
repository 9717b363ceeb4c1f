/*
 * COM1 output.  Only the transmit register and the line status register
 * are touched: the entrylab VMM emulates exactly these two (LSR reads 0x60),
 * QEMU's 16550 needs nothing else to transmit.
 */
#include "arch/x86_64/cpu_nofault.h"
#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "lib/console.h"
#include "lib/hostio.h"

#define LSR_THR_EMPTY 0x20
/* A UART that never reports ready must not hang the kernel: give up waiting. */
#define TX_SPIN_LIMIT 100000

void console_putc(char c)
{
	console_write(&c, 1);
}

/*
 * A whole buffer with `rep outsb` after one readiness check: one VM exit per
 * call (KVM hands string I/O to the VMM in one piece) rather than two per
 * byte.  The 16550s we run on (entrylab's, QEMU's) transmit at once.
 */
void com1_write(const char *s, size_t len)
{
	unsigned spins = 0;

	if (!len)
		return;
	while (!(inb(EL_PORT_COM1_LSR) & LSR_THR_EMPTY) && spins++ < TX_SPIN_LIMIT)
		cpu_relax();
	__asm__ __volatile__("rep outsb"
			     : "+S"(s), "+c"(len)
			     : "d"((uint16_t)EL_PORT_COM1)
			     : "memory");
}

void console_write(const char *s, size_t len)
{
	if (hostio_present)
		hostio_write(EL_WRITE_CONSOLE, s, len);
	else
		com1_write(s, len);
}
