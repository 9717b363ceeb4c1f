/*
 * What went wrong with a run, on stderr (report.h): the detail, the register
 * dump and the console tail of a run that did not end well, or the guest
 * kernel's words about a program it killed.  `run`, `trace` and every matrix
 * boot with -v print it the same way.  Guest text reaches the terminal
 * escaped (text_escape_terminal): no raw ESC or control byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "report.h"
#include "text_sanitize.h"

/* len bytes of guest text on f, control bytes as \xHH. */
static void put_guest_text(FILE *f, const char *s, size_t len)
{
	char *esc = malloc(4 * len + 1);

	if (!esc)
		return;
	text_escape_terminal(s, len, esc, 4 * len + 1);
	fputs(esc, f);
	free(esc);
}

/* The last lines of the guest console: where the guest kernel says why it killed a program. */
static void console_tail_lines(FILE *f, const struct el_run_result *res, unsigned lines)
{
	size_t off = res->console_len;
	unsigned n = 0;

	while (off > 0 && n <= lines)
		if (res->console[--off] == '\n' && off + 1 < res->console_len)
			n++;
	if (n > lines)
		off++;
	put_guest_text(f, res->console + off, res->console_len - off);
}

void report_problem(FILE *f, const struct el_run_result *res)
{
	size_t tail = 4096, off;

	if (res->status == EL_RUN_OK && res->exit_status > 128 && res->console_len) {
		fprintf(f, "entrylab: the program was killed (status %d = 128 + signal %d); the "
			   "guest kernel said:\n", res->exit_status, res->exit_status - 128);
		console_tail_lines(f, res, 4);
		return;
	}
	if (res->status == EL_RUN_OK)
		return;
	fprintf(f, "entrylab: %s: ", record_status(res));
	put_guest_text(f, res->detail, strlen(res->detail));
	fputc('\n', f);
	if (res->regs[0])
		fprintf(f, "%s\n", res->regs);
	if (res->console_len) {
		off = res->console_len > tail ? res->console_len - tail : 0;
		fprintf(f, "--- guest console (last %zu bytes) ---\n", res->console_len - off);
		put_guest_text(f, res->console + off, res->console_len - off);
		fputs(res->console[res->console_len - 1] == '\n' ? "---\n" : "\n---\n", f);
	}
}

