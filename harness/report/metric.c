/*
 * Metric names and their evaluation on records (metric.h).  Built-in
 * quantities come from a table; everything else names a counter.
 */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "metric.h"

static const struct {
	const char *name;
	const char *label; /* in column titles */
} bases[] = {
	[MB_ITERATIONS] = {"iterations", "iter"},
	[MB_TICKS] = {"ticks", "ticks"},
	[MB_NS] = {"ns", "ns"},
	[MB_S] = {"s", "s"},
	[MB_SYSCALLS] = {"syscalls", "syscalls"},
	[MB_PAGE_FAULTS] = {"page_faults", "page_faults"},
	[MB_INTERRUPTS] = {"interrupts", "interrupts"},
	[MB_EXITS] = {"exits", "exits"},
	[MB_TRACE_USER] = {"trace_user", "insns:u"},
	[MB_TRACE_KERNEL] = {"trace_kernel", "insns:k"},
	[MB_RUN] = {"run", "run"},
};

#define NBASES EL_ARRAY_SIZE(bases)

static int term_parse(const char *s, size_t len, const char *const *events, size_t n,
		      struct metric_term *t, char *err, size_t errlen)
{
	for (size_t b = 0; b < NBASES; b++)
		if (strlen(bases[b].name) == len && !memcmp(bases[b].name, s, len)) {
			t->base = (enum metric_base)b;
			return 0;
		}
	if (len == 0 || len >= METRIC_NAME_MAX) {
		snprintf(err, errlen,
			 "metric '%.*s' is empty or too long; give one of iterations "
			 "ticks ns s syscalls page_faults interrupts exits run or an event",
			 (int)len, s);
		return -1;
	}
	if (events) {
		size_t i;

		for (i = 0; i < n && (strlen(events[i]) != len || memcmp(events[i], s, len)); i++)
			;
		if (i == n) {
			snprintf(err, errlen, "'%.*s' is neither a built-in quantity (iterations "
				 "ticks ns s syscalls page_faults interrupts exits run) nor one of "
				 "the events; fix the name or add it to events", (int)len, s);
			return -1;
		}
	}
	t->base = MB_COUNTER;
	memcpy(t->counter, s, len);
	t->counter[len] = '\0';
	return 0;
}

static const char *term_label(const struct metric_term *t)
{
	return t->base == MB_COUNTER ? t->counter : bases[t->base].label;
}

int metric_parse(const char *text, const char *const *events, size_t n, struct metric *m,
		 char *err, size_t errlen)
{
	const char *slash = strrchr(text, '/');
	bool whole = false;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; events && i < n; i++)
		whole = whole || !strcmp(events[i], text);
	if (!whole && slash && (slash == text || !slash[1])) {
		snprintf(err, errlen, "metric '%s': a ratio needs a quantity on both sides of '/', "
			 "e.g. ns/page_faults", text);
		return -1;
	}
	if (whole || !slash) {
		if (term_parse(text, strlen(text), events, n, &m->num, err, errlen))
			return -1;
		m->den.base = MB_ITERATIONS;
	} else if (term_parse(text, (size_t)(slash - text), events, n, &m->num, err, errlen) ||
		   term_parse(slash + 1, strlen(slash + 1), events, n, &m->den, err, errlen)) {
		return -1;
	}
	if (m->num.base == MB_RUN) {
		snprintf(err, errlen, "metric '%s': 'run' is only a denominator (X/run: X over the "
			 "whole run); put a quantity before the '/'", text);
		return -1;
	}
	snprintf(m->label, sizeof(m->label), "%s/%s", term_label(&m->num), term_label(&m->den));
	snprintf(m->text, sizeof(m->text), "%s", text);
	return 0;
}

size_t metric_defaults(struct metric *out, size_t max, bool traces)
{
	static const char *const run_names[] = {"ticks", "ns", "syscalls", "page_faults",
						"interrupts"};
	/* entrylab trace records: exact instruction counts instead of a timed region. */
	static const char *const trace_names[] = {"trace_kernel", "trace_user"};
	const char *const *names = traces ? trace_names : run_names;
	size_t n = traces ? 2 : EL_ARRAY_SIZE(run_names);
	char err[8];
	size_t i;

	for (i = 0; i < max && i < n; i++)
		metric_parse(names[i], NULL, 0, &out[i], err, sizeof(err));
	return i;
}

static bool num_at(struct json_object *rec, const char *obj, const char *key, double *out)
{
	struct json_object *o, *v;

	if (!json_object_object_get_ex(rec, obj, &o) || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_double(v);
	return true;
}

static enum metric_status counter_eval(const char *name, struct json_object *rec, double *out)
{
	struct json_object *counters, *c, *st;
	const char *status;
	double markers;

	if (!json_object_object_get_ex(rec, "counters", &counters) ||
	    !json_object_object_get_ex(counters, name, &c))
		return MS_NOT_COUNTED;
	status = json_object_object_get_ex(c, "status", &st) ? json_object_get_string(st) : "";
	if (!status || strcmp(status, "counted"))
		return status && !strcmp(status, "not-supported") ? MS_NOT_SUPPORTED
								  : MS_NOT_COUNTED;
	if (!num_at(counters, name, "value", out))
		return MS_NOT_COUNTED;
	/* The region markers' own cost, as the record's per_iter leaves it out. */
	if (num_at(counters, name, "markers", &markers))
		*out -= markers;
	return MS_OK;
}

static enum metric_status term_eval(const struct metric_term *t, struct json_object *rec,
				    double *out)
{
	static const char *const region_keys[] = {
		[MB_SYSCALLS] = "syscalls", [MB_PAGE_FAULTS] = "page_faults",
		[MB_INTERRUPTS] = "interrupts", [MB_EXITS] = "exits",
	};
	double khz;

	switch (t->base) {
	case MB_COUNTER:
		return counter_eval(t->counter, rec, out);
	case MB_RUN:
		*out = 1;
		return MS_OK;
	case MB_ITERATIONS:
		return num_at(rec, "bench", "iterations", out) && *out > 0 ? MS_OK : MS_MISSING;
	case MB_TRACE_USER:
		return num_at(rec, "trace", "user", out) ? MS_OK : MS_MISSING;
	case MB_TRACE_KERNEL:
		return num_at(rec, "trace", "kernel", out) ? MS_OK : MS_MISSING;
	case MB_TICKS:
		return num_at(rec, "region", "tsc_ticks", out) ? MS_OK : MS_MISSING;
	case MB_NS:
	case MB_S:
		if (!num_at(rec, "region", "tsc_ticks", out) ||
		    !num_at(rec, "region", "tsc_khz", &khz) || khz <= 0)
			return MS_MISSING;
		*out = *out * 1e6 / khz / (t->base == MB_S ? 1e9 : 1);
		return MS_OK;
	default:
		return num_at(rec, "region", region_keys[t->base], out) ? MS_OK : MS_MISSING;
	}
}

enum metric_status metric_eval(const struct metric *m, struct json_object *rec, double *out)
{
	enum metric_status s;
	double num, den;

	if ((s = term_eval(&m->num, rec, &num)) != MS_OK)
		return s;
	if ((s = term_eval(&m->den, rec, &den)) != MS_OK)
		return s;
	if (den == 0)
		return MS_MISSING;
	*out = num / den;
	return MS_OK;
}

enum metric_kind metric_kind(const struct metric *m)
{
	if (m->den.base == MB_ITERATIONS && m->num.base != MB_ITERATIONS)
		return MK_PER_ITER;
	if (m->den.base == MB_RUN && m->num.base != MB_ITERATIONS)
		return MK_TOTAL;
	return MK_RATIO;
}

bool metric_is_event_count(const struct metric *m)
{
	enum metric_base b = m->num.base;

	return metric_kind(m) != MK_RATIO && (b == MB_SYSCALLS || b == MB_PAGE_FAULTS ||
					      b == MB_INTERRUPTS || b == MB_EXITS);
}

enum metric_status metric_eval_other(const struct metric *m, struct json_object *rec,
				     double *out)
{
	struct metric other = *m;

	switch (metric_kind(m)) {
	case MK_PER_ITER:
		other.den.base = MB_RUN;
		break;
	case MK_TOTAL:
		other.den.base = MB_ITERATIONS;
		break;
	default:
		return MS_MISSING;
	}
	return metric_eval(&other, rec, out);
}

const char *metric_status_text(enum metric_status s)
{
	static const char *const text[] = {
		[MS_OK] = NULL,
		[MS_NOT_SUPPORTED] = "<not supported>",
		[MS_NOT_COUNTED] = "<not counted>",
		[MS_MISSING] = "-",
	};

	return text[s];
}

bool metric_traced(const struct metric *m)
{
	const struct metric_term *t[2] = {&m->num, &m->den};

	for (unsigned i = 0; i < 2; i++)
		if (t[i]->base != MB_ITERATIONS && t[i]->base != MB_TRACE_USER &&
		    t[i]->base != MB_TRACE_KERNEL)
			return false;
	return true;
}
