/*
 * The console.  Under entrylab's VMM it gathers in hostio's buffer and
 * leaves in one EL_HC_WRITE (one VM exit) per buffer: when it is full, and
 * at console_flush(), which the kernel calls before anything the host orders
 * with the console (a report, the program's output, the exit), on panic and
 * before it halts to wait.
 *
 * Without the VMM (Bochs, `qemu -kernel`) it is COM1, programmed once by
 * console_init() (8N1, no interrupts, FIFO on: Bochs starts in 5-bit mode)
 * and written a byte at a time, each after LSR says the holding register is
 * empty (Bochs drops bytes written while the transmitter is busy).  The
 * waits are bounded: a UART that never reports ready must not hang the
 * kernel.  The entrylab VMM emulates every UART register harmlessly
 * (vmm/dev/console.c: LSR reads 0x60, the others keep what is written).
 */
#include "arch/x86_64/cpu_nofault.h"
#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "entrylab/serial_frame.h"
#include "lib/console.h"
#include "lib/hostio.h"
#include "lib/serial_frame.h"

enum { UART_THR, UART_IER, UART_FCR, UART_LCR, UART_MCR, UART_LSR };
#define UART_DLL UART_THR /* with LCR.DLAB */
#define UART_DLM UART_IER

#define LSR_THR_EMPTY 0x20
#define LSR_TX_IDLE 0x40 /* TEMT: holding and shift registers both empty */
#define TX_SPIN_LIMIT 100000

/* In order: interrupts off, divisor 1 (115200 baud), 8N1, FIFOs on and cleared, DTR RTS. */
static const struct {
	uint8_t reg, value;
} uart_setup[] = {
	{UART_IER, 0x00}, {UART_LCR, 0x80}, {UART_DLL, 0x01}, {UART_DLM, 0x00},
	{UART_LCR, 0x03}, {UART_FCR, 0xc7}, {UART_MCR, 0x03},
};

void console_init(void)
{
	unsigned i;

	if (hostio_present)
		return;
	for (i = 0; i < ARRAY_SIZE(uart_setup); i++)
		outb(EL_PORT_COM1 + uart_setup[i].reg, uart_setup[i].value);
}

/* Waits (bounded) until LSR shows all of mask; false if it never did. */
static bool com1_wait(uint8_t mask)
{
	unsigned spins = 0;

	while ((inb(EL_PORT_COM1_LSR) & mask) != mask) {
		if (spins++ == TX_SPIN_LIMIT)
			return false;
		cpu_relax();
	}
	return true;
}

void console_putc(char c)
{
	console_write(&c, 1);
}

void com1_write(const char *s, size_t len)
{
	for (; len; s++, len--) {
		com1_wait(LSR_THR_EMPTY);
		outb(EL_PORT_COM1, (uint8_t)*s);
	}
}

void com1_drain(void)
{
	com1_wait(LSR_THR_EMPTY | LSR_TX_IDLE);
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

void console_frame(const char *kind, const void *payload, size_t len)
{
	static char line[EL_FRAME_LINE_MAX];
	size_t n = serial_frame_format(line, sizeof(line), kind, payload, len);

	if (n)
		com1_write(line, n);
}
