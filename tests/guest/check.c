/* Verdict lines and the tally behind the summary. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>

static unsigned passed, failed, skipped;

static void verdict(const char *tag, const char *name, const char *fmt, va_list *ap)
{
	printf("%s: %s", tag, name);
	if (fmt) {
		fputs(": ", stdout);
		vprintf(fmt, *ap);
	}
	putchar('\n');
	fflush(stdout);
}

void el_pass(const char *name)
{
	passed++;
	verdict("PASS", name, NULL, NULL);
}

void el_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	failed++;
	va_start(ap, fmt);
	verdict("FAIL", name, fmt, &ap);
	va_end(ap);
}

void el_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	skipped++;
	va_start(ap, fmt);
	verdict("SKIP", name, fmt, &ap);
	va_end(ap);
}

bool el_expect(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		el_pass(name);
		return true;
	}
	failed++;
	va_start(ap, fmt);
	verdict("FAIL", name, fmt, &ap);
	va_end(ap);
	return false;
}

int el_summary(const char *prog)
{
	printf("%s: %u passed, %u failed, %u skipped\n", prog, passed, failed, skipped);
	fflush(stdout);
	return failed ? 1 : 0;
}
