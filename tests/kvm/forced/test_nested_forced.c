/*
 * ctest kvm_nested_forced: the KVM tests whose assertions depend on the
 * engine (they ask nested_mode()) run once more with the nested runner
 * forced, ENTRYLAB_KVM_DEVICE=/nonexistent (vmm/kvm.h), so their
 * nested-only assertions run on every machine.  Decided when the test
 * runs, by the engine probe entrylab itself asks: where it says native, the
 * kvm tier ran those tests natively and they run here again, nested; where
 * it already says nested, the kvm tier ran them nested and this is skipped,
 * saying why.  The list below names those tests; the second test keeps it
 * complete (every caller of nested_mode() in tests/kvm/ is in it).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "engine.h"
#include "harness.h"
#include "host_io.h"
#include "kvm.h"

#define FORCED_DEVICE "/nonexistent"

/* The tests that branch on nested_mode(), as kvm_tests --filter names them. */
static const char *const nested_tests[] = {
	"report_save/pti_global_seed_table",
	"matrix/tiny_experiment_end_to_end",
	"jail/record_shows_the_confinement",
	"engine/the_tests_and_entrylab_agree",
};
#define NTESTS EL_ARRAY_SIZE(nested_tests)

Test(nested_forced, engine_dependent_tests_run_nested, .timeout = 2700)
{
	static struct engine_probe p;
	bool failed = false;
	char bxfi[256];

	engine_probe(&(struct engine_request){0}, &p);
	if (p.d.kind != ENGINE_NATIVE)
		cr_skip_test("the engine probe already says %s here (%s): the kvm tier ran the "
			     "nested-specific tests in the nested runner; nothing to repeat",
			     engine_kind_name(p.d.kind), p.d.reason);
	/*
	 * This test runs in a Criterion worker, whose BXFI_MAP would make the
	 * kvm_tests started here take itself for a worker too (it aborts).
	 */
	snprintf(bxfi, sizeof(bxfi), "%s", getenv("BXFI_MAP") ? getenv("BXFI_MAP") : "");
	unsetenv("BXFI_MAP");
	setenv(KVM_DEVICE_ENV, FORCED_DEVICE, 1);
	for (size_t i = 0; i < NTESTS; i++) {
		const char *argv[] = {EL_KVM_TESTS, "--jobs", "1", "--filter",
				      nested_tests[i], NULL};
		struct el_proc t;

		cr_log_info("%s=%s %s --filter %s", KVM_DEVICE_ENV, FORCED_DEVICE, EL_KVM_TESTS,
			    nested_tests[i]);
		proc_run(&t, argv);
		cr_expect_eq(t.status, 0, "%s, nested (%s=%s): exit %d\n%s", nested_tests[i],
			     KVM_DEVICE_ENV, FORCED_DEVICE, t.status, t.err);
		cr_expect(strstr(t.err, "Tested: 1 "), "%s ran no test: renamed? (this file's "
			  "list)\n%s", nested_tests[i], t.err);
		failed |= t.status != 0;
		proc_free(&t);
	}
	unsetenv(KVM_DEVICE_ENV);
	if (bxfi[0])
		setenv("BXFI_MAP", bxfi, 1);
	cr_expect(!failed);
}

static bool listed(const char *suite, const char *name)
{
	char id[256];

	for (size_t i = 0; i < NTESTS; i++) {
		snprintf(id, sizeof(id), "%s/%s", suite, name ? name : "");
		if (name ? !strcmp(nested_tests[i], id) : !strncmp(nested_tests[i], id, strlen(id)))
			return true;
	}
	return false;
}

/*
 * One file's callers (comment lines aside): a call inside a Test(suite,
 * name) body must have its test listed; one in a helper (a function that
 * ended after the last Test began), its suite.
 */
static void check_file(const char *path, const char *text)
{
	const char *at;

	for (at = strstr(text, "nested_mode()"); at; at = strstr(at + 1, "nested_mode()")) {
		const char *t = NULL, *s, *line = at;
		char suite[96] = "", name[128] = "";

		while (line > text && line[-1] != '\n')
			line--;
		line += strspn(line, " \t");
		if (*line == '*' || !strncmp(line, "/*", 2) || !strncmp(line, "//", 2))
			continue; /* a comment that names it */

		for (s = strstr(text, "\nTest("); s && s < at; s = strstr(s + 1, "\nTest("))
			t = s;
		if (t)
			sscanf(t, "\nTest(%95[a-z0-9_], %127[a-zA-Z0-9_]", suite, name);
		if (!t || !suite[0]) {
			cr_expect(false, "%s calls nested_mode() before any Test: list the tests "
				  "that use it in nested_tests[]", path);
			continue;
		}
		if (memmem(t, (size_t)(at - t), "\n}\n", 3))
			cr_expect(listed(suite, NULL), "%s: a helper calls nested_mode(); list "
				  "its %s tests in nested_tests[]", path, suite);
		else
			cr_expect(listed(suite, name), "%s: %s/%s asks nested_mode(); add it to "
				  "nested_tests[] (tests/kvm/forced/test_nested_forced.c)", path,
				  suite, name);
	}
}

Test(nested_forced, the_list_names_every_caller_of_nested_mode)
{
	const char *dir = EL_SOURCE_DIR "/tests/kvm";
	DIR *d = opendir(dir);
	struct dirent *e;
	char err[256], path[1024];
	size_t len;
	int files = 0;

	cr_assert(d, "%s: cannot list", dir);
	while ((e = readdir(d))) {
		char *text;

		if (strncmp(e->d_name, "test_", 5) || fnmatch("*.c", e->d_name, 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		text = io_read_file(path, 4u << 20, &len, err, sizeof(err));
		cr_assert(text, "%s", err);
		check_file(e->d_name, text);
		free(text);
		files++;
	}
	closedir(d);
	cr_expect_gt(files, 10, "the KVM tests were not found in %s", dir);
}
