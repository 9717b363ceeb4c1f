/*
 * A trace's results for people and machines: the record's "trace" object,
 * the table on stdout (user/kernel split and top symbols, per iteration),
 * and perf-stat-like CSV for -x.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "record.h"
#include "trace.h"

#define EL_TRACE_TOP 15

static const char *space_name(enum el_trace_space s)
{
	return s == EL_TRACE_USER ? "user" : "kernel";
}

static struct json_object *per_iter(uint64_t v, uint64_t iterations)
{
	return json_object_new_double((double)v / (double)iterations);
}

/* The figures nobody measured: null, with the reason beside them. */
static void unmeasured_json(struct json_object *o, const char *why)
{
	static const char *const keys[] = {"user", "kernel", "total", "per_iter", "symbols"};

	for (size_t i = 0; i < EL_ARRAY_SIZE(keys); i++)
		json_object_object_add(o, keys[i], NULL);
	json_object_object_add(o, "not_measured", json_object_new_string(why));
}

struct json_object *trace_json(const struct el_trace_data *d, const struct el_trace_totals *t,
			       uint64_t iterations)
{
	struct json_object *o = json_object_new_object(), *syms;
	struct json_object *markers = json_object_new_object();
	const char *why = trace_not_measured(d);
	char hex[24];

	json_object_object_add(o, "method", json_object_new_string("qemu-tcg-plugin"));
	json_object_object_add(o, "window",
			       json_object_new_string(el_trace_window_names[d->window]));
	json_object_object_add(o, "iterations",
			       iterations ? json_object_new_int64((int64_t)iterations) : NULL);
	json_object_object_add(o, "windows", json_object_new_int64((int64_t)d->windows));
	json_object_object_add(o, "executed", json_object_new_int64((int64_t)d->executed));
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)d->begin);
	json_object_object_add(markers, "begin", json_object_new_string(hex));
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)d->end);
	json_object_object_add(markers, "end", json_object_new_string(hex));
	json_object_object_add(o, "markers", markers);
	if (why) {
		unmeasured_json(o, why);
		return o;
	}
	json_object_object_add(o, "user", json_object_new_int64((int64_t)t->user));
	json_object_object_add(o, "kernel", json_object_new_int64((int64_t)t->kernel));
	json_object_object_add(o, "total", json_object_new_int64((int64_t)(t->user + t->kernel)));
	if (iterations) {
		struct json_object *pi = json_object_new_object();

		json_object_object_add(pi, "user", per_iter(t->user, iterations));
		json_object_object_add(pi, "kernel", per_iter(t->kernel, iterations));
		json_object_object_add(pi, "total", per_iter(t->user + t->kernel, iterations));
		json_object_object_add(o, "per_iter", pi);
	} else {
		json_object_object_add(o, "per_iter", NULL);
	}
	json_object_object_add(o, "not_measured", NULL);
	syms = json_object_new_array();
	for (size_t i = 0; i < t->nsyms; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "name", json_object_new_string(t->syms[i].name));
		json_object_object_add(s, "count",
				       json_object_new_int64((int64_t)t->syms[i].count));
		json_object_object_add(s, "image", json_object_new_string(t->syms[i].image));
		json_object_object_add(s, "space",
				       json_object_new_string(space_name(t->syms[i].space)));
		json_object_array_add(syms, s);
	}
	json_object_object_add(o, "symbols", syms);
	return o;
}

struct json_object *trace_region_json(const char *console, enum el_region_scope scope,
				      const char *why)
{
	static const char *const keys[] = {"tsc_ticks", "tsc_khz", "exits", "syscalls",
					   "page_faults", "interrupts"};
	struct el_region r;
	struct json_object *o;

	if (scope == EL_REGION_SCOPE_NONE)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "scope", json_object_new_string(el_region_scope_record[scope]));
	if (!console || !trace_console_region(console, &r)) {
		for (size_t i = 0; i < EL_ARRAY_SIZE(keys); i++)
			json_object_object_add(o, keys[i], NULL);
		json_object_object_add(o, "not_measured", json_object_new_string(
			why ? why : "the guest kernel printed no region line: it measured none"));
		return o;
	}
	json_object_object_add(o, "tsc_ticks", json_object_new_int64((int64_t)r.tsc_end));
	json_object_object_add(o, "tsc_khz", json_object_new_int64((int64_t)r.tsc_khz));
	json_object_object_add(o, "exits", NULL);
	json_object_object_add(o, "syscalls", json_object_new_int64((int64_t)r.syscalls));
	json_object_object_add(o, "page_faults", json_object_new_int64((int64_t)r.page_faults));
	json_object_object_add(o, "interrupts", json_object_new_int64((int64_t)r.interrupts));
	return o;
}

/* The guest's own region counters, as `run` shows them. */
static void region_line(FILE *f, const char *console)
{
	struct el_region r;

	if (!console || !trace_console_region(console, &r))
		return;
	fprintf(f, "region: %llu syscalls, %llu page faults, %llu interrupts (the guest kernel's "
		   "counters)\n", (unsigned long long)r.syscalls,
		(unsigned long long)r.page_faults, (unsigned long long)r.interrupts);
}

/* What a Linux guest's window is, what Linux said of PTI, where its symbols came from. */
static void linux_line(FILE *f, const struct el_trace_job *job, const struct el_run_result *res)
{
	const struct el_trace_linux *lx = job->lx;

	if (job->scope == EL_REGION_SCOPE_WHOLE)
		fprintf(f, "linux: the window is the whole program (from its entry point to "
			   "/init's return from waiting for it)\n");
	else
		fprintf(f, "linux: the window is the loop alone (from the BEGIN marker's return to "
			   "the END marker's SYSCALL)\n");
	if (res->have_linux)
		fprintf(f, "linux: meltdown \"%s\", clocksource %s, vsyscall %s\n",
			res->linux_info.meltdown, res->linux_info.clocksource,
			res->linux_info.vsyscall);
	fprintf(f, "linux: kernel symbols from %s\n",
		lx->kernel_symtab ? "the vmlinux symbol table"
		: lx->ksyms     ? "/proc/kallsyms (KSYMS frames; cached for the next trace)"
				: "the kernel symbol cache (kallsyms of an earlier trace)");
}

static void row(FILE *f, const char *what, uint64_t v, uint64_t iterations)
{
	fprintf(f, "  %-10s %14llu", what, (unsigned long long)v);
	if (iterations)
		fprintf(f, " %14.2f", (double)v / (double)iterations);
	fprintf(f, "\n");
}

void trace_summary(FILE *f, const struct el_trace_job *job, const struct el_run_result *res,
		   const struct el_trace_data *d, const struct el_trace_totals *t,
		   const char *output)
{
	const struct el_run_request *r = job->req;
	uint64_t it = r->iterations, total = t->user + t->kernel;
	unsigned top = job->opts.top ? job->opts.top : EL_TRACE_TOP;
	const char *why = trace_not_measured(d);
	int w = 36;

	fprintf(f, "entrylab trace: %s", r->bench ? r->bench : r->exec);
	for (int i = 0; i < r->nargs; i++)
		fprintf(f, " %s", r->args[i]);
	fprintf(f, "  [QEMU TCG, --cpu %s%s%s%s%s]\n", r->cpu_spec, *r->append ? ", --append " : "",
		r->append, job->lx ? ", Linux " : "",
		job->lx ? (res->have_linux && res->linux_info.release[0] ? res->linux_info.release
									  : "(release unknown)")
			: "");
	fprintf(f, "status %s", record_status(res));
	if (res->status == EL_RUN_OK)
		fprintf(f, ", exit status %d", res->exit_status);
	fprintf(f, "; %llu region window%s\n", (unsigned long long)d->windows,
		d->windows == 1 ? "" : "s");
	fprintf(f, "scope: %s\n",
		job->scope == EL_REGION_SCOPE_WHOLE
			? "the whole program (from its first user instruction to its exit, "
			  "children included)"
			: "marked (what the program's markers bracket)");
	if (why)
		fprintf(f, "not measured: %s\n", why);
	else if (d->open)
		fprintf(f, "a region began again and never ended: counted up to the guest's "
			   "exit\n");
	if (job->lx)
		linux_line(f, job, res);
	else
		region_line(f, res->console);
	if (why) {
		if (output)
			fprintf(f, "\nrecord appended to %s (trace figures null)\n", output);
		return;
	}
	fprintf(f, "\n");
	fprintf(f, "  %-10s %14s %14s\n", "", "instructions", it ? "per iteration" : "");
	row(f, "user", t->user, it);
	row(f, "kernel", t->kernel, it);
	row(f, "total", total, it);
	if (!it)
		fprintf(f, "  (totals: %s)\n",
			job->scope == EL_REGION_SCOPE_WHOLE
				? "give -n N, the iterations the program runs, for "
				  "per-iteration figures"
				: "the program declared no iterations");
	/* As wide as the longest name shown (Linux has 45-byte ones), at least 36. */
	for (size_t i = 0; i < t->nsyms && i < top; i++)
		if ((int)strlen(t->syms[i].name) > w)
			w = (int)strlen(t->syms[i].name);
	fprintf(f, "\n  %-*s %12s %12s %7s  %s\n", w, "symbol", "count", it ? "per iter" : "",
		"share", "image");
	for (size_t i = 0; i < t->nsyms && i < top; i++) {
		const struct el_trace_symcount *s = &t->syms[i];
		char pi[24] = "", share[16] = "-";

		if (it)
			snprintf(pi, sizeof(pi), "%.2f", (double)s->count / (double)it);
		/* A share of nothing is no percentage. */
		if (total)
			snprintf(share, sizeof(share), "%.1f%%", 100.0 * (double)s->count /
								 (double)total);
		fprintf(f, "  %-*s %12llu %12s %7s  %s\n", w, s->name, (unsigned long long)s->count,
			pi, share, s->image);
	}
	if (t->nsyms > top)
		fprintf(f, "  ... %zu more symbols (--top N, or the record's trace.symbols)\n",
			t->nsyms - top);
	if (output)
		fprintf(f, "\nrecord appended to %s\n", output);
}

void trace_csv(FILE *f, const char *s, const struct el_trace_data *d,
	       const struct el_trace_totals *t, uint64_t iterations)
{
	static const char *const names[] = {"instructions:u", "instructions:k", "instructions"};
	uint64_t v[] = {t->user, t->kernel, t->user + t->kernel};

	/* As perf stat prints a counter that never counted: no number. */
	if (trace_not_measured(d)) {
		for (unsigned i = 0; i < 3; i++)
			fprintf(f, "<not counted>%s%s%s%s\n", s, s, names[i], s);
		return;
	}
	for (unsigned i = 0; i < 3; i++) {
		fprintf(f, "%llu%s%s%s%s", (unsigned long long)v[i], s, s, names[i], s);
		if (iterations)
			fprintf(f, "%.2f", (double)v[i] / (double)iterations);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < t->nsyms; i++) {
		fprintf(f, "%llu%s%ssymbol:%s%s", (unsigned long long)t->syms[i].count, s, s,
			t->syms[i].name, s);
		if (iterations)
			fprintf(f, "%.2f", (double)t->syms[i].count / (double)iterations);
		fprintf(f, "%s%s\n", s, t->syms[i].image);
	}
}
