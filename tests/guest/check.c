/* Verdict lines and the tally behind the summary. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

static const struct el_group *group_named(const struct el_group *groups, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(groups[i].name, name))
			return &groups[i];
	return NULL;
}

static bool extra(const struct el_group *g)
{
	size_t len = strlen(g->what), tag = sizeof("(extra)") - 1;

	return len >= tag && !strcmp(g->what + len - tag, "(extra)");
}

static void list_groups(const struct el_group *groups, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(groups[i].name) > width)
			width = (int)strlen(groups[i].name);
	for (size_t i = 0; i < n; i++)
		printf("%-*s %s%s\n", width + 1, groups[i].name, groups[i].what,
		       extra(&groups[i]) ? " [not run by default]" : "");
}

static bool named(const char *name, int argc, char **argv)
{
	for (int a = 1; a < argc; a++)
		if (!strcmp(argv[a], name))
			return true;
	return false;
}

int el_run_groups(const char *prog, const struct el_group *groups, size_t n, int buf_mode, int argc,
		  char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		list_groups(groups, n);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		if (!group_named(groups, n, argv[a])) {
			fprintf(stderr, "%s: no group '%s' (%s --list)\n", prog, argv[a], prog);
			return 2;
		}
	}
	setvbuf(stdout, NULL, buf_mode, 0);
	for (size_t i = 0; i < n; i++) {
		if (argc == 1 ? extra(&groups[i]) : !named(groups[i].name, argc, argv))
			continue;
		printf("%s: %s: %s\n", prog, groups[i].name, groups[i].what);
		groups[i].run();
	}
	return el_summary(prog);
}
