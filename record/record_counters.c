/*
 * The counters of a run, one per requested event in request order, as the
 * record, the summary and the CSV show them.  Only what the guest kernel
 * reported as counted carries a number; a report whose counter does not
 * answer the event we asked (wrong count or config) is not believed.
 */
#include <stdio.h>
#include <string.h>

#include "record.h"

static const char *const status_names[] = {
	[EL_COUNTER_COUNTED] = "counted",
	[EL_COUNTER_NOT_SUPPORTED] = "not-supported",
	[EL_COUNTER_NOT_COUNTED] = "not-counted",
};

const char *record_counter_status_name(enum el_counter_status s)
{
	return (unsigned)s <= EL_COUNTER_NOT_COUNTED ? status_names[s] : "not-counted";
}

/* The latest validated report: RUN after the program, else BOOT. */
static const struct el_report *latest_report(const struct el_run_result *res)
{
	return res->have_run ? &res->run : res->have_boot ? &res->boot : NULL;
}

uint64_t record_iterations(const struct el_run_request *req, const struct el_run_result *res)
{
	if (res->have_run && res->run.region.valid && res->run.region.iterations)
		return res->run.region.iterations;
	return req->iterations;
}

void record_counter(const struct el_run_request *req, const struct el_run_spec *spec, const struct el_run_result *res, unsigned i,
		    struct el_counter_result *out)
{
	const struct el_report *r = latest_report(res);
	const struct el_counter *c, *m;
	uint64_t iters, base;

	memset(out, 0, sizeof(*out));
	out->name = req->ev.ev[i].name;
	out->config = spec->events[i];
	out->status = EL_COUNTER_NOT_COUNTED;
	if (spec->events[i] == EL_EVENT_NONE) {
		out->status = EL_COUNTER_NOT_SUPPORTED; /* no encoding for this CPU model */
		return;
	}
	if (!r || i >= r->nr_counters || r->nr_counters != spec->nr_events ||
	    r->counters[i].config != spec->events[i])
		return;
	c = &r->counters[i];
	m = &r->markers[i];
	out->status = (enum el_counter_status)c->status;
	/* No region, nothing counted in it, whatever the counter says. */
	if (c->status == EL_COUNTER_COUNTED && record_region_missing(spec, res))
		out->status = EL_COUNTER_NOT_COUNTED;
	if (m->status == EL_COUNTER_COUNTED) {
		out->have_markers = true;
		out->markers = m->value;
	}
	if (out->status != EL_COUNTER_COUNTED)
		return;
	out->have_value = true;
	out->value = c->value;
	iters = record_iterations(req, res);
	if (!iters)
		return;
	/* The markers' own cost is part of a marked region only. */
	base = spec->region_scope == EL_REGION_SCOPE_MARKED && out->have_markers &&
		       out->markers <= c->value
		       ? out->markers
		       : 0;
	out->have_per_iter = true;
	out->per_iter = (double)(c->value - base) / (double)iters;
}

static struct json_object *count_or_null(bool have, uint64_t v)
{
	return have ? json_object_new_int64((int64_t)v) : NULL;
}

struct json_object *record_counters_json(const struct el_run_request *req, const struct el_run_spec *spec,
					 const struct el_run_result *res)
{
	struct json_object *o = json_object_new_object();
	char hex[24];
	struct el_counter_result cr;

	for (unsigned i = 0; i < req->ev.n; i++) {
		struct json_object *e = json_object_new_object();
		const char *status;

		record_counter(req, spec, res, i, &cr);
		status = record_counter_status_name(cr.status);
		json_object_object_add(e, "value", count_or_null(cr.have_value, cr.value));
		json_object_object_add(e, "per_iter", cr.have_per_iter
							      ? json_object_new_double(cr.per_iter)
							      : NULL);
		json_object_object_add(e, "status", json_object_new_string(status));
		json_object_object_add(e, "markers", count_or_null(cr.have_markers, cr.markers));
		if (cr.config != EL_EVENT_NONE) {
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)cr.config);
			json_object_object_add(e, "config", json_object_new_string(hex));
		} else {
			json_object_object_add(e, "config", NULL); /* no encoding for this model */
		}
		json_object_object_add(o, cr.name, e);
	}
	return o;
}

struct json_object *record_guest_pmu_json(const struct el_report *r)
{
	const struct el_pmu_info *p = &r->pmu;
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "kind", json_object_new_string(el_pmu_kind_names[p->kind]));
	json_object_object_add(o, "version", json_object_new_int(p->version));
	json_object_object_add(o, "gp", json_object_new_int(p->nr_gp));
	json_object_object_add(o, "fixed", json_object_new_int(p->nr_fixed));
	json_object_object_add(o, "gp_width", json_object_new_int(p->gp_width));
	json_object_object_add(o, "fixed_width", json_object_new_int(p->fixed_width));
	json_object_object_add(o, "gp_usable", json_object_new_int64(p->gp_usable));
	json_object_object_add(o, "fixed_usable", json_object_new_int64(p->fixed_usable));
	return o;
}
