/*
 * The console.  Under entrylab's VMM it gathers in hostio's buffer and
 * leaves in one EL_HC_WRITE (one VM exit) per buffer: when it is full, and
 * at console_flush(), which the kernel calls before anything the host orders
 * with the console (a report, the program's output, the exit), on panic and
 * before it halts to wait.  Without the VMM it is COM1: only the transmit
 * register and the line status register are touched (the entrylab VMM
 * emulates exactly these two, LSR reads 0x60; QEMU's 16550 needs nothing
 * else to transmit), each write at once.
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
		hostio_console(s, len);
	else
		com1_write(s, len);
}

void console_flush(void)
{
	if (hostio_present)
		hostio_flush();
}
