/*
 * What went wrong with a run, on stderr (report.h): the detail, the register
 * dump and the console tail of a run that did not end well, or the guest
 * kernel's words about a program it killed.  `run`, `trace` and every matrix
 * boot with -v print it the same way.
 */
#include <stdio.h>

#include "record.h"
#include "report.h"

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
	fprintf(f, "%.*s", (int)(res->console_len - off), res->console + off);
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
	fprintf(f, "entrylab: %s: %s\n", record_status(res), res->detail);
	if (res->regs[0])
		fprintf(f, "%s\n", res->regs);
	if (res->console_len) {
		off = res->console_len > tail ? res->console_len - tail : 0;
		fprintf(f, "--- guest console (last %zu bytes) ---\n%.*s%s---\n",
			res->console_len - off, (int)(res->console_len - off),
			res->console + off,
			res->console[res->console_len - 1] == '\n' ? "" : "\n");
	}
}

