/*
 * COM1 as a transmit-only 16550: bytes written to THR are the guest
 * console, kept for the record (the newest EL_CONSOLE_CAP bytes) and, with
 * -v, copied to stderr a line at a time.  The other registers read back
 * what a drained, idle UART with no input would show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit.h"
#include "hostout.h"

enum { UART_THR, UART_IER, UART_IIR, UART_LCR, UART_MCR, UART_LSR, UART_MSR, UART_SCR };

#define UART_LCR_DLAB 0x80

/* Registers whose reads are fixed: no interrupt pending; THR and TSR empty; CTS/DSR/DCD. */
static const struct {
	bool fixed;
	uint8_t value;
} uart_reads[8] = {
	[UART_THR] = {true, 0x00}, /* RBR: never any input */
	[UART_IIR] = {true, 0x01},
	[UART_LSR] = {true, 0x60},
	[UART_MSR] = {true, 0xb0},
};

static void console_stderr_flush(struct el_console *c)
{
	hostout_write(STDERR_FILENO, c->line, c->line_len); /* the record has it anyway */
	c->line_len = 0;
}

static void console_keep(struct el_console *c, char ch)
{
	if (c->len + 1 >= c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64u << 10;
		char *p;

		if (cap > EL_CONSOLE_CAP)
			cap = EL_CONSOLE_CAP;
		if (c->len + 1 >= cap) { /* full: keep the newer half */
			size_t half = c->len / 2;

			memmove(c->buf, c->buf + half, c->len - half);
			c->len -= half;
			c->dropped += half;
		} else {
			p = realloc(c->buf, cap);
			if (!p) {
				c->dropped++;
				return;
			}
			c->buf = p;
			c->cap = cap;
		}
	}
	c->buf[c->len++] = ch;
}

void console_put(struct el_loop *l, char ch)
{
	struct el_console *c = &l->con;

	console_keep(c, ch);
	if (!l->spec->verbose)
		return;
	c->line[c->line_len++] = ch;
	if (ch == '\n' || c->line_len == sizeof(c->line))
		console_stderr_flush(c);
}

static void uart_out(struct el_loop *l, unsigned reg, uint8_t v)
{
	struct el_console *c = &l->con;
	bool dlab = c->uart[UART_LCR] & UART_LCR_DLAB;

	if (reg <= UART_IER && dlab)
		c->divisor[reg] = v;
	else if (reg == UART_THR)
		console_put(l, (char)v);
	else
		c->uart[reg] = v;
}

static uint8_t uart_in(struct el_loop *l, unsigned reg)
{
	struct el_console *c = &l->con;

	if (reg <= UART_IER && (c->uart[UART_LCR] & UART_LCR_DLAB))
		return c->divisor[reg];
	return uart_reads[reg].fixed ? uart_reads[reg].value : c->uart[reg];
}

void dev_console_io(struct el_loop *l, const struct el_io *io)
{
	unsigned reg = io->port - EL_PORT_COM1;

	if (io->size != 1) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: %u-byte %s at COM1 port 0x%x; the UART takes byte accesses",
			  io->size, io->out ? "OUT" : "IN", io->port);
		return;
	}
	for (uint32_t i = 0; i < io->count; i++) {
		if (io->out)
			uart_out(l, reg, io->data[i]);
		else
			io->data[i] = uart_in(l, reg);
	}
}

void console_finish(struct el_loop *l)
{
	struct el_console *c = &l->con;
	char note[96];
	int n = 0;
	char *out;

	console_stderr_flush(c);
	if (!c->dropped && c->buf) { /* console_keep() leaves room for the NUL */
		c->buf[c->len] = '\0';
		l->res->console = c->buf;
		l->res->console_len = c->len;
		c->buf = NULL;
		console_free(c);
		return;
	}
	if (c->dropped)
		n = snprintf(note, sizeof(note),
			     "[entrylab: the first %llu bytes of console output were dropped]\n",
			     (unsigned long long)c->dropped);
	out = malloc((size_t)n + c->len + 1);
	if (out) {
		memcpy(out, note, (size_t)n);
		if (c->len)
			memcpy(out + n, c->buf, c->len);
		out[(size_t)n + c->len] = '\0';
		l->res->console = out;
		l->res->console_len = (size_t)n + c->len;
	}
	console_free(c);
}

void console_free(struct el_console *c)
{
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
}
