/*
 * COM1's register model: a 16550A whose transmitter is always empty (a
 * byte written to THR is on the host at once) and whose receiver never has
 * anything.  Enough for Linux's 8250 driver: the scratch and IER tests of
 * its probe (IER keeps its four bits), the FIFO bits of IIR after FCR
 * enables them (so autoconfig says 16550A), loopback (MSR mirrors MCR; what
 * is sent in loopback never reaches the console), and the THR-empty
 * interrupt: pending when IER asks for it and THR is empty, cleared by the
 * IIR read that reports it, raised again by each THR write and by enabling
 * it.  uart_irq() is the interrupt line's level; the VMM wires it to IRQ 4
 * in Linux mode only (dev/console.c).
 *
 * Pure: no I/O, no allocation (unit-tested, fuzzed through the exit loop).
 */
#ifndef EL_UART_H
#define EL_UART_H

#include <stdbool.h>
#include <stdint.h>

enum uart_reg {
	UART_RBR_THR, /* DLL with LCR.DLAB */
	UART_IER,     /* DLM with LCR.DLAB */
	UART_IIR_FCR, /* reads IIR, writes FCR */
	UART_LCR,
	UART_MCR,
	UART_LSR,
	UART_MSR,
	UART_SCR,
	UART_REGS
};

#define UART_LCR_DLAB 0x80u
#define UART_IER_THRI 0x02u
#define UART_IER_MASK 0x0fu
#define UART_FCR_FIFO 0x01u
#define UART_MCR_LOOP 0x10u
#define UART_MCR_MASK 0x1fu
#define UART_IIR_NONE 0x01u
#define UART_IIR_THRI 0x02u
#define UART_IIR_FIFO 0xc0u
#define UART_LSR_IDLE 0x60u /* THRE | TEMT: the transmitter is always empty */
#define UART_MSR_IDLE 0xb0u /* DCD | DSR | CTS, no deltas */

struct uart16550 {
	uint8_t ier, lcr, mcr, scr, dll, dlm;
	bool fifo;          /* FCR bit 0 as last written */
	bool thre_pending;  /* the THR-empty interrupt is pending (IER decides if it shows) */
};

/*
 * A write of v to reg (0..7).  Returns true when v is a byte sent on the
 * line (THR, not in loopback), which the caller puts on the console.
 */
bool uart_write(struct uart16550 *u, unsigned reg, uint8_t v);

/* A read of reg (0..7); reading IIR clears a THR-empty interrupt it reports. */
uint8_t uart_read(struct uart16550 *u, unsigned reg);

/* The interrupt line: some interrupt IER enables is pending. */
bool uart_irq(const struct uart16550 *u);

#endif
