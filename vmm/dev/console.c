/*
 * COM1: bytes written to THR are the guest console, kept for the record
 * (the first EL_OUTPUT_HEAD and the newest EL_OUTPUT_TAIL bytes,
 * common/output_cap.h) and, with -v, copied to stderr a line at a time
 * with every control byte but \n and \t escaped (\x1b).  The registers are
 * uart.h's 16550A, always idle.  In Linux mode the bytes go through the
 * frame split first (linux_mode.c: /init's frames are not console) and the
 * UART's interrupt is wired to IRQ 4; for our kernel there is no line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit.h"
#include "hostout.h"
#include "output_cap.h"
#include "text_sanitize.h"

/* -v: one line to stderr, escaped so no raw ESC or control reaches the terminal. */
static void console_stderr_flush(struct el_console *c)
{
	char out[sizeof(c->line) * 4 + 1];
	size_t n = text_escape_terminal(c->line, c->line_len, out, sizeof(out));

	hostout_write(STDERR_FILENO, out, n); /* the record has it anyway */
	c->line_len = 0;
}

static void console_keep(struct el_console *c, char ch)
{
	if (!c->keep_ready) {
		text_keep_init(&c->keep, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
		c->keep_ready = true;
	}
	text_keep_put(&c->keep, &ch, 1);
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

void dev_console_io(struct el_loop *l, const struct el_io *io)
{
	struct uart16550 *u = &l->con.uart;
	unsigned reg = io->port - EL_PORT_COM1;

	if (io->size != 1) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: %u-byte %s at COM1 port 0x%x; the UART takes byte accesses",
			  io->size, io->out ? "OUT" : "IN", io->port);
		return;
	}
	for (uint32_t i = 0; i < io->count; i++) {
		if (!io->out)
			io->data[i] = uart_read(u, reg);
		else if (uart_write(u, reg, io->data[i]))
			(l->lx ? linux_com1_tx : console_put)(l, (char)io->data[i]);
	}
	if (l->lx)
		linux_com1_irq(l);
}

void console_finish(struct el_loop *l)
{
	struct el_console *c = &l->con;
	size_t len = 0;

	console_stderr_flush(c);
	l->res->console_bytes = c->keep.total;
	l->res->console_dropped = text_keep_dropped(&c->keep);
	l->res->console = text_keep_finish(&c->keep, &len);
	l->res->console_len = l->res->console ? len : 0;
	c->keep_ready = false;
}

void console_free(struct el_console *c)
{
	text_keep_free(&c->keep);
	c->keep_ready = false;
}
