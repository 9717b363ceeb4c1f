/*
 * Report data (report.h): groups of records, how each run is counted
 * (ok, failed, skipped) and the statistics of each group x metric.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void report_free(struct report *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct report_group *g = &r->g[i];

		free(g->name);
		free(g->bench);
		free(g->cpu);
		free(g->append);
		json_object_put(g->runs);
	}
	free(r->g);
	memset(r, 0, sizeof(*r));
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

int report_group(struct report *r, const char *name, const char *bench, const char *cpu,
		 const char *append)
{
	struct report_group *g;

	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		struct report_group *ng = realloc(r->g, cap * sizeof(*ng));

		if (!ng)
			return -1;
		r->g = ng;
		r->cap = cap;
	}
	g = &r->g[r->n];
	memset(g, 0, sizeof(*g));
	g->name = dup_or_empty(name);
	g->bench = dup_or_empty(bench);
	g->cpu = dup_or_empty(cpu);
	g->append = dup_or_empty(append);
	g->runs = json_object_new_array();
	g->baseline = -1;
	if (!g->name || !g->bench || !g->cpu || !g->append || !g->runs)
		return -1;
	return (int)r->n++;
}

int report_find(const struct report *r, const char *name)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->g[i].name, name))
			return (int)i;
	return -1;
}

const char *report_str_at(struct json_object *o, const char *path)
{
	char buf[64], *save, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, tok, &o))
			return NULL;
	return o && json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

static void note_host(struct report *r, struct json_object *rec)
{
	const char *kvm = report_str_at(rec, "host.kvm");

	if (kvm && !strcmp(kvm, "nested"))
		r->nested = true;
	if (!r->host[0] && report_str_at(rec, "host.cpu_model"))
		snprintf(r->host, sizeof(r->host), "%s (kvm %s, pmu %s)",
			 report_str_at(rec, "host.cpu_model"), kvm ? kvm : "?",
			 report_str_at(rec, "host.pmu") ? report_str_at(rec, "host.pmu") : "?");
}

void report_add(struct report *r, int gi, struct json_object *rec)
{
	struct report_group *g = &r->g[gi];
	const char *status = report_str_at(rec, "status"), *detail = report_str_at(rec, "detail");
	struct json_object *guest, *exit_st, *region, *exp, *skipped;
	char why[160] = "";

	note_host(r, rec);
	if (json_object_object_get_ex(rec, "experiment", &exp) &&
	    json_object_object_get_ex(exp, "skipped", &skipped) && json_object_get_boolean(skipped))
		status = "unsupported";
	if (status && !strcmp(status, "unsupported")) {
		if (detail && !strncmp(detail, "skipped: ", 9))
			detail += 9;
		if (!g->skipped++ && !g->reason[0])
			snprintf(g->reason, sizeof(g->reason), "%s",
				 detail ? detail : "unsupported");
		return;
	}
	if (!status || strcmp(status, "ok")) {
		snprintf(why, sizeof(why), "%s", detail ? detail : status ? status : "no status");
	} else if (json_object_object_get_ex(rec, "guest", &guest) &&
		   json_object_object_get_ex(guest, "exit_status", &exit_st) &&
		   json_object_get_int(exit_st) != 0) {
		snprintf(why, sizeof(why), "the benchmark exited with status %d",
			 json_object_get_int(exit_st));
	} else if ((!json_object_object_get_ex(rec, "region", &region) || !region) &&
		   !json_object_object_get_ex(rec, "trace", &region)) {
		snprintf(why, sizeof(why), "no measured region in the record");
	}
	if (why[0]) {
		if (!g->failed++ && !g->reason[0])
			snprintf(g->reason, sizeof(g->reason), "%s", why);
		return;
	}
	g->ok++;
	json_object_array_add(g->runs, json_object_get(rec));
}

int report_metric(struct report *r, const char *text, const char *const *events, size_t n,
		  char *err, size_t errlen)
{
	if (r->nm == REPORT_MAX_METRICS) {
		snprintf(err, errlen, "more than %d metrics; name fewer", REPORT_MAX_METRICS);
		return -1;
	}
	if (metric_parse(text, events, n, &r->m[r->nm], err, errlen))
		return -1;
	r->nm++;
	return 0;
}

bool report_all_traces(const struct report *r)
{
	bool traces = false;

	for (unsigned i = 0; i < r->n; i++)
		for (size_t k = 0; k < json_object_array_length(r->g[i].runs); k++) {
			if (!json_object_object_get_ex(json_object_array_get_idx(r->g[i].runs, k),
						       "trace", NULL))
				return false;
			traces = true;
		}
	return traces;
}

void report_default_metrics(struct report *r)
{
	/* All traces (entrylab trace records): compare instruction counts. */
	bool traces = report_all_traces(r);

	r->nm = (unsigned)metric_defaults(r->m, REPORT_MAX_METRICS, traces);
	for (unsigned i = 0; i < r->n; i++) {
		size_t runs = json_object_array_length(r->g[i].runs);

		for (size_t k = 0; k < runs; k++) {
			struct json_object *counters;
			char err[160];

			if (!json_object_object_get_ex(json_object_array_get_idx(r->g[i].runs, k),
						       "counters", &counters) ||
			    !json_object_is_type(counters, json_type_object))
				continue;
			json_object_object_foreach(counters, name, val) {
				bool seen = false;

				(void)val;
				for (unsigned m = 0; m < r->nm; m++)
					seen = seen || (r->m[m].num.base == MB_COUNTER &&
							!strcmp(r->m[m].num.counter, name));
				if (!seen)
					report_metric(r, name, (const char *const[]){name}, 1, err,
						      sizeof(err));
			}
		}
	}
}

void report_resolve_baselines(struct report *r)
{
	if (r->base < 0 || (unsigned)r->base >= r->n)
		r->base = 0;
	for (unsigned i = 0; i < r->n; i++) {
		struct report_group *g = &r->g[i];

		if (g->baseline >= 0)
			continue;
		g->baseline = r->base;
		if (strcmp(g->bench, r->g[r->base].bench))
			for (unsigned k = 0; k < r->n; k++)
				if (!strcmp(r->g[k].bench, g->bench)) {
					g->baseline = (int)k;
					break;
				}
	}
}

struct json_object *report_first_run(const struct report *r, int g)
{
	for (unsigned i = g < 0 ? 0 : (unsigned)g; i < r->n; i++) {
		if (json_object_array_length(r->g[i].runs))
			return json_object_array_get_idx(r->g[i].runs, 0);
		if (g >= 0)
			break;
	}
	return NULL;
}
