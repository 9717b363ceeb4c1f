/*
 * Records from synthetic results: names from the shared tables, honest
 * nulls, status/exit-code mapping, whole-line appends (no KVM).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "entrylab/knobs.h"
#include "record.h"
#include "status.h"

static struct el_run_request req = {.cpu_spec = "host,-pge", .append = "pti=on", .repeat = 1};
static struct el_run_spec spec;
static struct el_host_info host = {.cpu_model = "Test CPU", .vendor = "AuthenticAMD",
				   .kernel = "6.1", .kvm = "native", .kvm_module = "kvm_amd",
				   .pmu = "none"};

static struct json_object *field(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, a, &v), "no %s", a);
	if (b)
		cr_assert(json_object_object_get_ex(v, b, &v), "no %s.%s", a, b);
	return v;
}

Test(record, boot_ok)
{
	struct el_run_result res = {.status = EL_RUN_OK, .exit_status = 0, .have_boot = true};
	struct json_object *rec, *cfg, *v;

	memset(res.boot.config, EL_CONFIG_UNSET, sizeof(res.boot.config));
	memset(res.boot.requested, EL_CONFIG_UNSET, sizeof(res.boot.requested));
	res.boot.cr4 = 0x20;
	res.boot.cpuid = 1ull << EL_FEAT_PGE;
	res.boot.config[EL_CFG_PTI] = EL_OFF;
	res.boot.requested[EL_CFG_PTI] = EL_ON;
	res.boot.config[EL_CFG_PCID] = EL_CONFIG_UNAVAILABLE;
	rec = record_build(&req, &spec, &host, &res);
	cr_expect_str_eq(json_object_get_string(field(rec, "schema", NULL)), EL_RECORD_SCHEMA);
	cr_expect_str_eq(json_object_get_string(field(rec, "status", NULL)), "ok");
	cr_expect_str_eq(json_object_get_string(field(rec, "guest", "cr4")), "0x20");
	cfg = field(rec, "guest", "config");
	cr_assert(json_object_object_get_ex(cfg, "pti", &v));
	cr_expect_str_eq(json_object_get_string(v), "off");
	cr_assert(json_object_object_get_ex(cfg, "pcid", &v));
	cr_expect_str_eq(json_object_get_string(v), "unavailable");
	cr_expect(!json_object_object_get_ex(cfg, "vdso", &v), "unset items are left out");
	v = field(rec, "guest", "cpuid");
	cr_expect(json_object_get_boolean(json_object_object_get(v, "pge")));
	cr_expect(!json_object_get_boolean(json_object_object_get(v, "pcid")));
	cr_expect(json_object_get_type(field(rec, "region", NULL)) == json_type_null,
		  "no region without a run report");
	cr_expect_eq(record_exit_code(&res), 0);
	json_object_put(rec);
}

Test(record, failures_map_to_codes)
{
	struct el_run_result res = {0};
	static const struct {
		enum el_run_status st;
		const char *name;
		int code;
	} cases[] = {
		{EL_RUN_GUEST_CRASH, "guest-crash", EL_EXIT_GUEST_CRASH},
		{EL_RUN_GUEST_BAD_IO, "guest-bad-io", EL_EXIT_GUEST_BAD_IO},
		{EL_RUN_TIMEOUT, "timeout", EL_EXIT_TIMEOUT},
		{EL_RUN_VMM_ERROR, "vmm-error", EL_EXIT_VMM},
		{EL_RUN_UNSUPPORTED, "unsupported", EL_EXIT_UNSUPPORTED},
	};
	size_t i;

	for (i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		struct json_object *rec;

		res.status = cases[i].st;
		res.exit_status = 7; /* must not leak into a failed run */
		cr_expect_str_eq(record_status(&res), cases[i].name);
		cr_expect_eq(record_exit_code(&res), cases[i].code);
		rec = record_build(&req, &spec, &host, &res);
		cr_expect(json_object_get_type(field(rec, "guest", "exit_status")) == json_type_null);
		json_object_put(rec);
	}
}

Test(record, append_whole_lines)
{
	char path[] = "/tmp/el-rec-XXXXXX";
	int fd = mkstemp(path);
	struct json_object *o = json_object_new_object();
	char buf[256];
	FILE *f;
	int lines = 0;

	cr_assert(fd >= 0);
	close(fd);
	json_object_object_add(o, "schema", json_object_new_string(EL_RECORD_SCHEMA));
	cr_assert_eq(record_append(path, o), 0);
	cr_assert_eq(record_append(path, o), 0);
	f = fopen(path, "r");
	while (fgets(buf, sizeof(buf), f)) {
		cr_expect_str_eq(buf, "{\"schema\":\"entrylab.run/1\"}\n");
		lines++;
	}
	fclose(f);
	cr_expect_eq(lines, 2);
	cr_expect_eq(record_append("/nonexistent-dir/x.jsonl", o), -1);
	cr_expect_eq(record_append("/tmp", o), -1, "a directory is no output file");
	json_object_put(o);
	unlink(path);
}
