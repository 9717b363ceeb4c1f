/*
 * The eltrace plugin's output file (format in harness/trace/eltrace.c),
 * read back and checked line by line: a truncated or garbled file is
 * reported with its line number, never half-trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

const char *const el_trace_window_names[EL_TRACE_WINDOWS] = {"out", "user", "sites", "entry"};

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* Next tab-separated field of *p (advanced past it); NULL if none. */
static char *field(char **p)
{
	char *f = *p, *t;

	if (!f)
		return NULL;
	t = strchr(f, '\t');
	if (t) {
		*t = '\0';
		*p = t + 1;
	} else {
		*p = NULL;
	}
	return f;
}

static int num(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}

static int hexbytes(const char *s, uint8_t *out, unsigned n)
{
	if (strlen(s) != 2 * (size_t)n)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		char h[3] = {s[2 * i], s[2 * i + 1], 0};
		uint64_t v;

		if (num(h, 16, &v))
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

static int insn_line(char *line, struct el_trace_insn *in)
{
	char *p = line;
	char *f[6];
	uint64_t size;

	for (unsigned i = 0; i < 6; i++)
		if (!(f[i] = field(&p)))
			return -1;
	if (p || num(f[0], 16, &in->vaddr) || num(f[1], 10, &in->count) ||
	    num(f[2], 10, &in->first) || num(f[3], 10, &size) || size < 1 || size > 16 ||
	    hexbytes(f[4], in->bytes, (unsigned)size) || !*f[5])
		return -1;
	in->size = (uint8_t)size;
	in->disas = strcmp(f[5], "-") ? strdup(f[5]) : NULL;
	return 0;
}

/* "window KIND": one of el_trace_window_names. */
static int window_line(const char *kind, struct el_trace_data *d)
{
	for (unsigned i = 0; i < EL_TRACE_WINDOWS; i++)
		if (!strcmp(kind, el_trace_window_names[i])) {
			d->window = (enum el_trace_window)i;
			return 0;
		}
	return -1;
}

static int header_line(const char *line, struct el_trace_data *d, unsigned *seen)
{
	unsigned long long a, b;
	unsigned o;
	char extra;

	if (!strncmp(line, "window ", 7)) {
		if (window_line(line + 7, d))
			return -1;
		*seen |= 8;
	} else if (sscanf(line, "begun %llu %llu%c", &a, &b, &extra) == 2 && b <= a) {
		d->begun = a;
		d->opened = b;
		*seen |= 16;
	} else if (sscanf(line, "markers %llx %llx%c", &a, &b, &extra) == 2) {
		d->begin = a;
		d->end = b;
		*seen |= 1;
	} else if (sscanf(line, "windows %llu %u%c", &a, &o, &extra) == 2 && o <= 1) {
		d->windows = a;
		d->open = o;
		*seen |= 2;
	} else if (sscanf(line, "executed %llu%c", &a, &extra) == 1) {
		d->executed = a;
		*seen |= 4;
	} else if (!strncmp(line, "error ", 6)) {
		d->plugin_error = true;
	} else {
		return -1;
	}
	return 0;
}

int trace_parse(const char *text, size_t len, struct el_trace_data *d, char *err, size_t errlen)
{
	char *copy, *line, *next;
	unsigned lineno = 0, seen = 0;
	bool partial = false;
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	if (!text || len < 10 || memcmp(text, "eltrace 2\n", 10))
		return ERR("the plugin wrote no counts (or not eltrace format 2): QEMU did not "
			   "run the guest to its end");
	copy = strndup(text, len);
	if (!copy)
		return ERR("out of memory");
	for (line = copy; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else {
			partial = true; /* the last line must be complete */
			break;
		}
		if (++lineno == 1)
			continue;
		if (line[0] != 'I' || line[1] != '\t') {
			if (header_line(line, d, &seen))
				goto bad;
			continue;
		}
		if (d->n == cap) {
			struct el_trace_insn *p;

			cap = cap ? cap * 2 : 256;
			p = realloc(d->insns, cap * sizeof(*p));
			if (!p)
				goto oom;
			d->insns = p;
		}
		memset(&d->insns[d->n], 0, sizeof(d->insns[0]));
		if (insn_line(line + 2, &d->insns[d->n]))
			goto bad;
		d->n++;
	}
	free(copy);
	if (partial)
		return trace_data_free(d), ERR("the plugin's output ends in a partial line %u: "
					       "QEMU stopped while writing it", lineno + 1);
	if (seen != 31)
		return trace_data_free(d), ERR("the plugin's output lacks its header lines");
	/* Every window that opened is closed or still open: else the counts are garbled. */
	if (d->windows + d->open != d->opened)
		return trace_data_free(d), ERR("the plugin's output is inconsistent: %llu windows "
					       "opened, %llu closed, %u open",
					       (unsigned long long)d->opened,
					       (unsigned long long)d->windows, (unsigned)d->open);
	return 0;
bad:
	free(copy);
	trace_data_free(d);
	return ERR("the plugin's output line %u is malformed", lineno);
oom:
	free(copy);
	trace_data_free(d);
	return ERR("out of memory");
}

void trace_data_free(struct el_trace_data *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->insns[i].disas);
	free(d->insns);
	d->insns = NULL;
	d->n = 0;
}
