/*
 * `entrylab compare` groups (cli/compare_load.c): records without an
 * experiment group by bench, cpu and append, and a Linux guest's by the
 * release it ran too, so two kernels never fall into one group.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>

#include "compare_load.h"

static struct json_object *rec(const char *kind, const char *release, const char *append)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "{\"status\":\"ok\",\"bench\":{\"name\":\"getpid\"},"
		 "\"request\":{\"cpu\":\"host\",\"append\":\"%s\"},"
		 "\"guest\":{\"kind\":\"%s\"%s%s%s}}",
		 append, kind, release ? ",\"linux\":{\"release\":\"" : "",
		 release ? release : "", release ? "\"}" : "");
	return json_tokener_parse(text);
}

Test(compare_groups, linux_kernels_apart)
{
	struct json_object *all = json_object_new_array();
	struct report r;

	json_object_array_add(all, rec("entrylab", NULL, ""));
	json_object_array_add(all, rec("linux", "6.1.0-57-amd64", ""));
	json_object_array_add(all, rec("linux", "6.12.118+deb12-amd64", ""));
	json_object_array_add(all, rec("linux", "6.1.0-57-amd64", ""));
	json_object_array_add(all, rec("linux", "6.1.0-57-amd64", "pti=on"));
	report_init(&r);
	compare_build_groups(&r, all, true);
	cr_assert_eq(r.n, 4);
	cr_assert_str_eq(r.g[0].name, "getpid");
	cr_assert_str_eq(r.g[1].name, "getpid linux 6.1.0-57-amd64");
	cr_assert_str_eq(r.g[2].name, "getpid linux 6.12.118+deb12-amd64");
	cr_assert_str_eq(r.g[3].name, "getpid linux 6.1.0-57-amd64 pti=on");
	cr_assert_eq(r.g[1].ok + r.g[1].failed, 2, "the same kernel twice: one group of two runs");
	report_free(&r);
	json_object_put(all);
}
