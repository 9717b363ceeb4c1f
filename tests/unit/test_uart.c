/*
 * COM1's 16550A model (vmm/uart.c), register by register as Linux's 8250
 * driver probes and drives it: the scratch and IER tests, the FIFO bits of
 * IIR (autoconfig says 16550A), loopback, the divisor latch, and the
 * THR-empty interrupt's rise and fall.
 */
#include <criterion/criterion.h>

#include "uart.h"

static struct uart16550 u;

static void fresh(void)
{
	u = (struct uart16550){0};
}

TestSuite(uart, .init = fresh);

Test(uart, idle_and_empty)
{
	cr_expect_eq(uart_read(&u, UART_LSR), 0x60, "THRE and TEMT: always empty");
	cr_expect_eq(uart_read(&u, UART_RBR_THR), 0, "nothing received");
	cr_expect_eq(uart_read(&u, UART_MSR), 0xb0, "DCD, DSR, CTS");
	cr_expect_eq(uart_read(&u, UART_IIR_FCR), 0x01, "no interrupt, no FIFO");
	cr_expect_not(uart_irq(&u));
}

Test(uart, scratch_and_ier_tests_of_the_probe)
{
	uart_write(&u, UART_SCR, 0xa5);
	cr_expect_eq(uart_read(&u, UART_SCR), 0xa5);
	uart_write(&u, UART_IER, 0);
	cr_expect_eq(uart_read(&u, UART_IER) & 0x0f, 0);
	uart_write(&u, UART_IER, 0x0f);
	cr_expect_eq(uart_read(&u, UART_IER) & 0x0f, 0x0f);
	uart_write(&u, UART_IER, 0xff);
	cr_expect_eq(uart_read(&u, UART_IER), 0x0f, "bits 4-7 read 0 (no XScale UUE)");
}

Test(uart, fifo_makes_a_16550a)
{
	uart_write(&u, UART_IIR_FCR, 0x07);
	cr_expect_eq(uart_read(&u, UART_IIR_FCR) >> 6, 3, "16550A: both FIFO bits");
	cr_expect_eq(uart_read(&u, UART_IIR_FCR) & 0x20, 0, "not a 16750");
	uart_write(&u, UART_IIR_FCR, 0);
	cr_expect_eq(uart_read(&u, UART_IIR_FCR), 0x01);
}

Test(uart, efr_probe_reads_iir_not_zero)
{
	uart_write(&u, UART_IIR_FCR, 1);
	uart_write(&u, UART_LCR, 0xbf);
	cr_expect_neq(uart_read(&u, UART_IIR_FCR), 0, "no EFR: not an ST16C650");
}

Test(uart, loopback_mirrors_mcr_and_sends_nothing)
{
	uart_write(&u, UART_MCR, 0x10 | 0x0a);
	cr_expect_eq(uart_read(&u, UART_MSR) & 0xf0, 0x90, "CTS = RTS, DCD = OUT2");
	uart_write(&u, UART_MCR, 0x10 | 0x05);
	cr_expect_eq(uart_read(&u, UART_MSR) & 0xf0, 0x60, "DSR = DTR, RI = OUT1");
	cr_expect_not(uart_write(&u, UART_RBR_THR, 'x'), "loopback: not on the line");
	uart_write(&u, UART_MCR, 0x0b);
	cr_expect(uart_write(&u, UART_RBR_THR, 'x'));
	cr_expect_eq(uart_read(&u, UART_MSR), 0xb0);
	cr_expect_eq(uart_read(&u, UART_MCR), 0x0b);
}

Test(uart, divisor_latch)
{
	uart_write(&u, UART_LCR, 0x80);
	cr_expect_not(uart_write(&u, UART_RBR_THR, 0x01), "DLL, not a byte sent");
	uart_write(&u, UART_IER, 0x00);
	cr_expect_eq(uart_read(&u, UART_RBR_THR), 0x01);
	cr_expect_eq(uart_read(&u, UART_IER), 0x00);
	uart_write(&u, UART_LCR, 0x03);
	cr_expect_eq(uart_read(&u, UART_LCR), 0x03);
	cr_expect(uart_write(&u, UART_RBR_THR, 'a'));
	cr_expect_eq(uart_read(&u, UART_IER), 0, "IER untouched by the DLM write");
}

Test(uart, thre_interrupt_as_the_8250_driver_tests_it)
{
	uint8_t iir1, iir2;

	uart_write(&u, UART_IIR_FCR, 1);
	/* serial8250_do_startup's UART_BUG_THRE test: it must be reasserted */
	uart_write(&u, UART_IER, UART_IER_THRI);
	cr_expect(uart_irq(&u), "enabling THRI with THR empty raises it");
	iir1 = uart_read(&u, UART_IIR_FCR);
	cr_expect_eq(iir1, 0xc2);
	cr_expect_not(uart_irq(&u), "reading IIR cleared it");
	cr_expect_eq(uart_read(&u, UART_IIR_FCR), 0xc1);
	uart_write(&u, UART_IER, 0);
	uart_write(&u, UART_IER, UART_IER_THRI);
	iir2 = uart_read(&u, UART_IIR_FCR);
	cr_expect_eq(iir2, 0xc2, "reasserted: no UART_BUG_THRE");
	/* transmitting: each byte sent leaves THR empty, the interrupt comes back */
	cr_expect(uart_write(&u, UART_RBR_THR, 'z'));
	cr_expect(uart_irq(&u));
	uart_write(&u, UART_IER, 0);
	cr_expect_not(uart_irq(&u), "masked");
	cr_expect_eq(uart_read(&u, UART_IIR_FCR), 0xc1);
}
