/*
 * report.md around the tables: caveats (what the records say about how far
 * the numbers can be trusted), the runs of each variant with skip and
 * failure reasons, each variant's guest configuration as requested and as
 * the guest set it up, and the host.  Everything comes from the records
 * and report_meta.
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "report_md.h"

/* "key=value ..." of a record's object at path (guest.config), into buf. */
static void object_text(struct json_object *rec, const char *a, const char *b, char *buf, size_t len)
{
	struct json_object *o;
	size_t n = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(rec, a, &o) || !json_object_object_get_ex(o, b, &o) ||
	    !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v)
	{
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", k,
					      json_object_get_string(v));
	}
}

/* The knobs whose effective value differs from the requested one: "pcid on->off". */
static void config_mismatch(struct json_object *rec, char *buf, size_t len)
{
	struct json_object *g, *want, *got;
	size_t n = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(rec, "guest", &g) ||
	    !json_object_object_get_ex(g, "requested", &want) ||
	    !json_object_object_get_ex(g, "config", &got) ||
	    !json_object_is_type(want, json_type_object))
		return;
	json_object_object_foreach(want, k, v)
	{
		struct json_object *e;
		const char *a = json_object_get_string(v), *b;

		if (!json_object_object_get_ex(got, k, &e))
			continue;
		b = json_object_get_string(e);
		if (a && b && strcmp(a, b) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s->%s", n ? ", " : "", k, a,
					      b);
	}
}

/* "getpid 2000 (2000 iterations)", and "; the whole program" for a whole-program region. */
static void bench_text(struct json_object *rec, char *buf, size_t len)
{
	const char *scope = report_str_at(rec, "region.scope");
	bool whole = scope && !strcmp(scope, "whole-program");
	struct json_object *b = NULL, *args, *it = NULL;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", report_str_at(rec, "bench.name") ?: "?");
	if (json_object_object_get_ex(rec, "bench", &b) &&
	    json_object_object_get_ex(b, "args", &args) &&
	    json_object_is_type(args, json_type_array))
		for (size_t i = 0; i < json_object_array_length(args) && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, " %s",
					      json_object_get_string(
						      json_object_array_get_idx(args, i)));
	if (b)
		json_object_object_get_ex(b, "iterations", &it);
	if (it && !json_object_is_type(it, json_type_null) && n < len)
		snprintf(buf + n, len - n, " (%s iterations%s)", json_object_get_string(it),
			 whole ? "; the whole program" : "");
	else if (whole && n < len)
		snprintf(buf + n, len - n, " (the whole program)");
}

/* "entrylab", or "linux RELEASE" (records before guest.kind: ours). */
static void kernel_text(struct json_object *rec, char *buf, size_t len)
{
	const char *kind = report_str_at(rec, "guest.kind") ?: "entrylab";
	const char *rel = report_str_at(rec, "guest.linux.release");

	snprintf(buf, len, "%s%s%s", kind, rel ? " " : "", rel ? rel : "");
}

void report_md_runs(
FILE *f, const struct report *r, const struct report_meta *meta)
{
	fprintf(f, "\n## Runs\n\n");
	if (meta && meta->planned)
		fprintf(f, "%u of %u planned runs kept%s.\n\n", meta->kept, meta->planned,
			meta->interrupted ? " (interrupted)" : "");
	fprintf(f,
		"| variant | row | ok | failed | skipped | reason |\n|---|---|---:|---:|---:|---|\n");
	for (unsigned g = 0; g < r->n; g++)
		fprintf(f, "| %s | %s | %u | %u | %u | %s |\n", r->g[g].name,
			report_label_of(r, meta, g), r->g[g].ok, r->g[g].failed, r->g[g].skipped,
			r->g[g].reason[0] ? r->g[g].reason : "");
}

void report_md_config(FILE *f, const struct report *r, const struct report_meta *meta)
{
	(void)meta;
	fprintf(f, "\n## Configuration\n\nAs requested (cpu, append) and as the guest kernel set "
		   "it up (first run of each variant; `guest.config` of the record); kernel: ours, or "
		   "Linux and its release as it reported it (`guest.kind`, `guest.linux.release`).\n\n"
		   "| variant | kernel | bench | cpu | append | effective | requested but not in effect |\n"
		   "|---|---|---|---|---|---|---|\n");
	for (unsigned g = 0; g < r->n; g++) {
		struct json_object *rec = report_first_run(r, (int)g);
		char bench[256], eff[512], miss[256];
		char kernel[160];
		const char *cr4;

		if (!rec) {
			fprintf(f, "| %s | ? | %s | `%s` | %s%s%s | (no run) | |\n", r->g[g].name,
				r->g[g].bench, r->g[g].cpu, r->g[g].append[0] ? "`" : "",
				r->g[g].append[0] ? r->g[g].append : "(none)",
				r->g[g].append[0] ? "`" : "");
			continue;
		}
		bench_text(rec, bench, sizeof(bench));
		cr4 = report_str_at(rec, "guest.cr4"); /* ours only: Linux does not show it */
		object_text(rec, "guest", "config", eff, sizeof(eff));
		config_mismatch(rec, miss, sizeof(miss));
		kernel_text(rec, kernel, sizeof(kernel));
		fprintf(f, "| %s | %s | %s | `%s` | %s%s%s | %s%s%s | %s |\n", r->g[g].name, kernel,
			bench, r->g[g].cpu, r->g[g].append[0] ? "`" : "",
			r->g[g].append[0] ? r->g[g].append : "(none)", r->g[g].append[0] ? "`" : "",
			eff, cr4 ? " cr4=" : "", cr4 ? cr4 : "", miss[0] ? miss : "-");
	}
}

void report_md_host(FILE *f, const struct report *r)
{
	struct json_object *rec = report_first_run(r, -1);

	fprintf(f, "\n## Host\n\n");
	if (!rec) {
		fprintf(f, "No run completed: nothing is known about the host.\n");
		return;
	}
	fprintf(f, "- CPU: %s (%s)\n- kernel: %s\n- KVM: %s\n- PMU: %s\n- entrylab: %s\n",
		report_str_at(rec, "host.cpu_model") ?: "?",
		report_str_at(rec, "host.vendor") ?: "?", report_str_at(rec, "host.kernel") ?: "?",
		report_str_at(rec, "host.kvm") ?: "?", report_str_at(rec, "host.pmu") ?: "?",
		report_str_at(rec, "version") ?: "?");
}

/* Runs whose record has a boolean at path equal to want, or a number at path above 0. */
static unsigned runs_with(const struct report *r, const char *a, const char *b, const char *c,
			  int want)
{
	unsigned n = 0;

	for (unsigned g = 0; g < r->n; g++)
		for (size_t k = 0; k < json_object_array_length(r->g[g].runs); k++) {
			struct json_object *o = json_object_array_get_idx(r->g[g].runs, k);

			if (!json_object_object_get_ex(o, a, &o) ||
			    !json_object_object_get_ex(o, b, &o) ||
			    (c && !json_object_object_get_ex(o, c, &o)))
				continue;
			if (json_object_is_type(o, json_type_boolean))
				n += json_object_get_boolean(o) == want;
			else if (json_object_is_type(o, json_type_int))
				n += json_object_get_int64(o) > 0;
			else if (json_object_is_type(o, json_type_string))
				n += (strcmp(json_object_get_string(o), "on") == 0) == want;
		}
	return n;
}

static bool any_status(const struct report *r, const struct report_headline *h, unsigned nh,
		       enum metric_status st)
{
	for (unsigned g = 0; g < r->n; g++)
		for (unsigned i = 0; i < nh; i++) {
			struct report_cell c;

			report_cell_of(r, g, &h[i].m, &c);
			if (!c.runs)
				continue;
			if (st == MS_OK ? c.status == MS_OK && c.n < c.runs : c.status == st)
				return true;
		}
	return false;
}

void report_md_caveats(FILE *f, const struct report *r, const struct report_meta *meta,
		       const struct report_headline *h, unsigned nh)
{
	struct json_object *rec = report_first_run(r, -1);
	const char *pmu = rec ? report_str_at(rec, "host.pmu") : NULL;
	unsigned few = 0, failed = 0, skipped = 0, n;
	bool traces = report_all_traces(r);

	for (unsigned g = 0; g < r->n; g++) {
		few += r->g[g].ok == 1;
		failed += r->g[g].failed;
		skipped += r->g[g].skipped ? 1 : 0;
	}
	fprintf(f, "\n## Caveats\n\n");
	if (r->nested)
		fprintf(f, "- The runs went through the nested runner (KVM inside QEMU TCG): "
			   "timings are not meaningful there; compare path lengths with "
			   "`entrylab trace` or rerun on a host with /dev/kvm.\n");
	if (traces)
		fprintf(f, "- Exact instruction counts from `entrylab trace` (QEMU TCG, no KVM): "
			   "deterministic, one run per variant, no timings and no PMU events.\n");
	if (pmu && !strcmp(pmu, "none") && !traces)
		fprintf(f, "- No PMU was offered to the guest: every counter is `not-supported`, "
			   "never a number.\n");
	if (any_status(r, h, nh, MS_NOT_COUNTED))
		fprintf(f, "- Some counters were `not-counted` (no free counter, or they did not "
			   "advance).\n");
	if (any_status(r, h, nh, MS_OK))
		fprintf(f, "- Some values were counted in only some runs: their means are over "
			   "those runs (summary.csv's n).\n");
	if (few && !traces)
		fprintf(f,
			"- %u variant(s) have a single ok run: no uncertainty and no test for "
			"them (`-r 2` or more).\n",
			few);
	if (failed)
		fprintf(f, "- %u run(s) failed and are not in the means (reasons under Runs).\n",
			failed);
	if (skipped)
		fprintf(f,
			"- %u variant(s) skipped: the host lacks what they need (reasons under "
			"Runs).\n",
			skipped);
	if ((n = runs_with(r, "guest", "selfcheck", "passed", 0)))
		fprintf(f, "- %u run(s) failed the guest kernel's self-check (`guest.selfcheck` "
			   "of the records): the configuration may not be what it says.\n", n);
	if ((n = runs_with(r, "guest", "unknown_syscalls", NULL, 1)))
		fprintf(f, "- %u run(s) made system calls the guest kernel does not implement "
			   "(`guest.unknown_syscalls`).\n", n);
	if ((n = runs_with(r, "guest", "config", "region_tick", 1)))
		fprintf(f, "- %u run(s) let the timer tick inside the measured region "
			   "(`sched.region_tick=on`).\n", n);
	if (meta && meta->interrupted)
		fprintf(f,
			"- The matrix was interrupted: %u of %u runs kept; `entrylab matrix "
			"--resume DIR` completes it.\n",
			meta->kept, meta->planned);
	if (meta && meta->scale && strcmp(meta->scale, "seed"))
		fprintf(f,
			"- Scale `%s`: smaller than the seed's workload; `--scale seed` runs the "
			"seed's sizes.\n",
			meta->scale);
	fprintf(f, "- A %% change is left out (n/a) against a baseline that is ~0: within two "
		   "standard errors of 0, an event count under one per 100 iterations, or under "
		   "1%% of the value compared; and against another benchmark.\n");
}
