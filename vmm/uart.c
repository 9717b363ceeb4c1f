/*
 * COM1's 16550A register model (uart.h): the transmitter always empty, the
 * receiver always idle, the THR-empty interrupt as a real 16550 raises it.
 */
#include "uart.h"

static bool dlab(const struct uart16550 *u)
{
	return u->lcr & UART_LCR_DLAB;
}

static bool thre_shown(const struct uart16550 *u)
{
	return u->thre_pending && (u->ier & UART_IER_THRI);
}

bool uart_write(struct uart16550 *u, unsigned reg, uint8_t v)
{
	switch (reg) {
	case UART_RBR_THR:
		if (dlab(u)) {
			u->dll = v;
			return false;
		}
		u->thre_pending = true; /* sent at once: THR is empty again */
		return !(u->mcr & UART_MCR_LOOP);
	case UART_IER:
		if (dlab(u)) {
			u->dlm = v;
			return false;
		}
		/* Enabling the THR-empty interrupt with THR empty raises it. */
		if ((v & UART_IER_THRI) && !(u->ier & UART_IER_THRI))
			u->thre_pending = true;
		else if (!(v & UART_IER_THRI))
			u->thre_pending = false;
		u->ier = v & UART_IER_MASK;
		return false;
	case UART_IIR_FCR:
		u->fifo = v & UART_FCR_FIFO; /* the clear bits are self-clearing: nothing to keep */
		return false;
	case UART_LCR:
		u->lcr = v;
		return false;
	case UART_MCR:
		u->mcr = v & UART_MCR_MASK;
		return false;
	case UART_SCR:
		u->scr = v;
		return false;
	default: /* LSR and MSR: writes are ignored, as on the chip (factory test only) */
		return false;
	}
}

/* MSR in loopback: CTS = RTS, DSR = DTR, RI = OUT1, DCD = OUT2. */
static uint8_t msr_loop(const struct uart16550 *u)
{
	return (uint8_t)(((u->mcr & 0x02) << 3) | ((u->mcr & 0x01) << 5) | ((u->mcr & 0x04) << 4) |
			 ((u->mcr & 0x08) << 4));
}

uint8_t uart_read(struct uart16550 *u, unsigned reg)
{
	uint8_t iir;

	switch (reg) {
	case UART_RBR_THR:
		return dlab(u) ? u->dll : 0; /* no byte ever received */
	case UART_IER:
		return dlab(u) ? u->dlm : u->ier;
	case UART_IIR_FCR:
		iir = (u->fifo ? UART_IIR_FIFO : 0) | (thre_shown(u) ? UART_IIR_THRI : UART_IIR_NONE);
		if (thre_shown(u))
			u->thre_pending = false; /* reading IIR with THRE its source clears it */
		return iir;
	case UART_LCR:
		return u->lcr;
	case UART_MCR:
		return u->mcr;
	case UART_LSR:
		return UART_LSR_IDLE;
	case UART_MSR:
		return u->mcr & UART_MCR_LOOP ? msr_loop(u) : UART_MSR_IDLE;
	case UART_SCR:
		return u->scr;
	default:
		return 0xff;
	}
}

bool uart_irq(const struct uart16550 *u)
{
	return thre_shown(u);
}
