/*
 * The record's counters from synthetic guest reports (record/record_counters.c,
 * summary_aggregate.c): request order, numbers only where the guest counted,
 * a report that does not answer what was asked is not believed, per_iter
 * with the markers' cost taken off, perf's placeholders in the CSV.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "summary.h"

#define UK (EL_EVSEL_USR | EL_EVSEL_OS)

static struct el_cli_run cli;
static struct el_run_result res;

/* cycles (no encoding here), instructions:k, branches: what -e asked. */
static void setup(void)
{
	char err[256];

	memset(&cli, 0, sizeof(cli));
	memset(&res, 0, sizeof(res));
	cr_assert_eq(events_parse("cycles,instructions:k,branches", &cli.req.ev, err, sizeof(err)),
		     0);
	cli.spec.nr_events = 3;
	cli.spec.events[0] = EL_EVENT_NONE;
	cli.spec.events[1] = 0x00c0 | EL_EVSEL_OS;
	cli.spec.events[2] = 0x00c4 | UK;
	cli.req.iterations = 100;
	cli.csv_sep = ",";
	res.status = EL_RUN_OK;
	res.have_boot = res.have_run = true;
	res.run.nr_counters = 3;
	for (unsigned i = 0; i < 3; i++)
		res.run.counters[i].config = cli.spec.events[i];
	res.run.counters[0].status = EL_COUNTER_NOT_SUPPORTED;
	res.run.counters[1] = (struct el_counter){cli.spec.events[1], 12345, EL_COUNTER_COUNTED};
	res.run.markers[1] = (struct el_counter){cli.spec.events[1], 345, EL_COUNTER_COUNTED};
	res.run.counters[2] = (struct el_counter){cli.spec.events[2], 777, EL_COUNTER_NOT_COUNTED};
	res.run.region.valid = 1;
	res.run.region.iterations = 100;
	res.run.region_scope = EL_REGION_SCOPE_MARKED;
	cli.spec.region_scope = EL_REGION_SCOPE_MARKED;
}

TestSuite(record_counters, .init = setup);

static struct json_object *entry(struct json_object *o, const char *name, const char *key)
{
	struct json_object *e = NULL, *v = NULL;

	cr_assert(json_object_object_get_ex(o, name, &e), "no counters.%s", name);
	cr_assert(json_object_object_get_ex(e, key, &v), "no counters.%s.%s", name, key);
	return v;
}

Test(record_counters, honest_values_in_request_order)
{
	struct json_object *o = record_counters_json(&cli.req, &cli.spec, &res);
	const char *want[] = {"cycles", "instructions:k", "branches"};
	unsigned i = 0;

	json_object_object_foreach(o, name, v) {
		(void)v;
		cr_assert_lt(i, 3);
		cr_expect_str_eq(name, want[i++]);
	}
	cr_expect_eq(i, 3);
	cr_expect_str_eq(json_object_get_string(entry(o, "cycles", "status")), "not-supported");
	cr_expect_null(entry(o, "cycles", "value"));
	cr_expect_null(entry(o, "cycles", "config"), "no encoding on this model");
	cr_expect_str_eq(json_object_get_string(entry(o, "instructions:k", "status")), "counted");
	cr_expect_eq(json_object_get_int64(entry(o, "instructions:k", "value")), 12345);
	cr_expect_eq(json_object_get_int64(entry(o, "instructions:k", "markers")), 345);
	cr_expect_float_eq(json_object_get_double(entry(o, "instructions:k", "per_iter")), 120.0,
			   1e-9, "(12345 - 345) / 100");
	cr_expect_str_eq(json_object_get_string(entry(o, "instructions:k", "config")), "0x200c0");
	cr_expect_str_eq(json_object_get_string(entry(o, "branches", "status")), "not-counted");
	cr_expect_null(entry(o, "branches", "value"), "777 was not counted: no number");
	cr_expect_null(entry(o, "branches", "per_iter"));
	json_object_put(o);
}

Test(record_counters, a_report_for_other_events_is_not_believed)
{
	struct el_counter_result cr;

	res.run.counters[1].config = 0x003c | EL_EVSEL_OS;
	record_counter(&cli.req, &cli.spec, &res, 1, &cr);
	cr_expect_eq(cr.status, EL_COUNTER_NOT_COUNTED);
	cr_expect_not(cr.have_value);
	res.run.counters[1].config = cli.spec.events[1];
	res.run.nr_counters = 2;
	record_counter(&cli.req, &cli.spec, &res, 1, &cr);
	cr_expect_not(cr.have_value, "nr_counters differs from the request");
}

Test(record_counters, no_report_no_numbers)
{
	struct el_counter_result cr;

	res.have_run = res.have_boot = false;
	record_counter(&cli.req, &cli.spec, &res, 0, &cr);
	cr_expect_eq(cr.status, EL_COUNTER_NOT_SUPPORTED, "no encoding: known without the guest");
	record_counter(&cli.req, &cli.spec, &res, 1, &cr);
	cr_expect_eq(cr.status, EL_COUNTER_NOT_COUNTED);
	cr_expect_not(cr.have_value || cr.have_markers || cr.have_per_iter);
}

Test(record_counters, markers_larger_than_the_count_are_not_subtracted)
{
	struct el_counter_result cr;

	res.run.markers[1].value = 20000;
	record_counter(&cli.req, &cli.spec, &res, 1, &cr);
	cr_expect_float_eq(cr.per_iter, 123.45, 1e-9);
}

Test(record_counters, csv_uses_perf_placeholders)
{
	static struct summary_agg agg;
	char *out = NULL, *rows;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	summary_agg_init(&agg, &cli);
	summary_agg_add(&agg, &cli, &res);
	summary_agg_csv(f, &agg, ",");
	fclose(f);
	/* The counters follow the region's six rows; no TSC rate here, so no run time. */
	rows = strstr(out, "<not supported>,,cycles");
	cr_assert(rows, "%s", out);
	cr_expect_str_eq(rows, "<not supported>,,cycles,0,100.00,,\n"
			       "12345,,instructions:k,0,100.00,120.00,per iteration\n"
			       "<not counted>,,branches,0,100.00,,\n");
	free(out);
}

/* A whole-program region: no markers bracket it, so their cost is not taken off. */
Test(record_counters, whole_program_keeps_the_markers_cost)
{
	struct json_object *o;

	cli.spec.region_scope = res.run.region_scope = EL_REGION_SCOPE_WHOLE;
	res.run.region.iterations = 0;
	o = record_counters_json(&cli.req, &cli.spec, &res);
	cr_expect_float_eq(json_object_get_double(entry(o, "instructions:k", "per_iter")), 123.45,
			   1e-9);
	json_object_put(o);
}

/* No region measured: a counter that says COUNTED counted nothing of it. */
Test(record_counters, no_region_no_value)
{
	struct json_object *o;

	res.run.region.valid = 0;
	res.run.region_scope = EL_REGION_SCOPE_NONE;
	o = record_counters_json(&cli.req, &cli.spec, &res);
	cr_expect(json_object_get_type(entry(o, "instructions:k", "value")) == json_type_null);
	cr_expect_str_eq(json_object_get_string(entry(o, "instructions:k", "status")),
			 "not-counted");
	cr_expect_str_eq(record_region_missing(&cli.spec, &res),
			 "the program's markers never ran (no BEGIN marker); --region whole "
			 "measures the whole program");
	json_object_put(o);
}
