/*
 * COM1 output.  Only the transmit register and the line status register
 * are touched: the entrylab VMM emulates exactly these two (LSR reads 0x60),
 * QEMU's 16550 needs nothing else to transmit.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "lib/console.h"

#define LSR_THR_EMPTY 0x20
/* A UART that never reports ready must not hang the kernel: give up waiting. */
#define TX_SPIN_LIMIT 100000

void console_putc(char c)
{
	unsigned spins = 0;

	while (!(inb(EL_PORT_COM1_LSR) & LSR_THR_EMPTY) && spins++ < TX_SPIN_LIMIT)
		cpu_relax();
	outb(EL_PORT_COM1, (uint8_t)c);
}

void console_write(const char *s, size_t len)
{
	while (len--)
		console_putc(*s++);
}
