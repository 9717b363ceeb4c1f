/*
 * `entrylab engine` and the --dry-run engine line, as a user sees them:
 * ENTRYLAB_KVM_DEVICE naming a path that does not exist makes entrylab go
 * nested and say why; the tests' nested_mode() and `entrylab engine` agree
 * (one function answers both); a dry run boots nothing.  Nothing here boots.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(engine, .timeout = 60);

#define TINY EL_SOURCE_DIR "/tests/kvm/matrix-tiny.ini"

static struct json_object *engine_json(void)
{
	struct el_proc p;
	struct json_object *o;

	entrylab(&p, "engine", "--json", NULL);
	cr_assert_eq(p.status, 0, "entrylab engine --json: exit %d\n%s", p.status, p.err);
	o = json_tokener_parse(p.out);
	cr_assert(o, "not one JSON object:\n%s", p.out);
	proc_free(&p);
	return o;
}

Test(engine, nonexistent_device_is_nested_naming_it)
{
	struct json_object *o;

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	o = engine_json();
	unsetenv("ENTRYLAB_KVM_DEVICE");
	cr_expect_str_eq(jstr(o, "engine"), "nested");
	cr_expect(strstr(jstr(o, "reason"), "/nonexistent"), "%s", jstr(o, "reason"));
	cr_expect_str_eq(jstr(o, "kvm.device"), "/nonexistent");
	cr_expect(json_object_get_boolean(jget(o, "kvm.device_from_env")));
	cr_expect(!json_object_get_boolean(jget(o, "kvm.opens")));
	cr_expect_str_eq(jstr(o, "offers.pmu"), "none");
	json_object_put(o);
}

Test(engine, the_tests_and_entrylab_agree)
{
	struct json_object *o = engine_json();
	bool nested = nested_mode();

	cr_expect_str_eq(jstr(o, "engine"), nested ? "nested" : "native",
			 "nested_mode() says %s, entrylab engine says %s (%s)",
			 nested ? "nested" : "native", jstr(o, "engine"), jstr(o, "reason"));
	json_object_put(o);

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	cr_expect(nested_mode(), "ENTRYLAB_KVM_DEVICE=/nonexistent must make nested_mode() true");
	unsetenv("ENTRYLAB_KVM_DEVICE");
}

Test(engine, human_output_one_fact_a_line)
{
	struct el_proc p;

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	entrylab(&p, "engine", NULL);
	unsetenv("ENTRYLAB_KVM_DEVICE");
	cr_expect_eq(p.status, 0);
	cr_expect(!strncmp(p.out, "engine:          nested\n", 24), "%s", p.out);
	cr_expect(strstr(p.out, "\nkvm device:      /nonexistent (from ENTRYLAB_KVM_DEVICE)\n"),
		  "%s", p.out);
	cr_expect(strstr(p.out, "\nopens:           no: No such file or directory"), "%s", p.out);
	proc_free(&p);

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	entrylab(&p, "engine", "--no-nested", NULL);
	unsetenv("ENTRYLAB_KVM_DEVICE");
	cr_expect_eq(p.status, 121, "no engine left: exit as run would, got %d", p.status);
	cr_expect(!strncmp(p.out, "engine:          none\n", 22), "%s", p.out);
	proc_free(&p);
}

Test(engine, run_dry_run_says_the_engine_and_boots_nothing)
{
	const char *out = tmp_output("dry.jsonl");
	struct el_proc p;

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	entrylab(&p, "run", "--dry-run", "-o", out, "-r", "2", "getpid", "1000", NULL);
	cr_expect_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.out, "entrylab run --dry-run: 2 boot(s)"), "%s", p.out);
	cr_expect(strstr(p.out, "  program   getpid 1000\n"), "%s", p.out);
	cr_expect(strstr(p.out, "\nengine: nested (/nonexistent (ENTRYLAB_KVM_DEVICE): "), "%s",
		  p.out);
	cr_expect(!strstr(p.err, "QEMU TCG VM"), "the nested runner started: %s", p.err);
	cr_expect(access(out, F_OK) != 0, "a dry run wrote %s", out);
	proc_free(&p);

	/* as a run would: --no-nested where only the nested runner would do is 121 */
	entrylab(&p, "run", "--dry-run", "--no-nested", "getpid", NULL);
	cr_expect_eq(p.status, 121, "exit %d", p.status);
	cr_expect(strstr(p.err, "/nonexistent") && strstr(p.err, "--no-nested forbids"), "%s",
		  p.err);
	proc_free(&p);

	/* and a bad option is still a usage error */
	entrylab(&p, "run", "--dry-run", "--append", "pti=maybe", "getpid", NULL);
	cr_expect_eq(p.status, 120, "exit %d", p.status);
	proc_free(&p);
	unsetenv("ENTRYLAB_KVM_DEVICE");
}

Test(engine, matrix_dry_run_says_the_engine)
{
	struct el_proc p;

	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	entrylab(&p, "matrix", TINY, "--dry-run", NULL);
	unsetenv("ENTRYLAB_KVM_DEVICE");
	cr_expect_eq(p.status, 0, "%s", p.err);
	cr_expect(strstr(p.out, "\nengine: nested (/nonexistent (ENTRYLAB_KVM_DEVICE): "), "%s",
		  p.out);
	proc_free(&p);

	entrylab(&p, "matrix", TINY, "--dry-run", "--trace", NULL);
	cr_expect_eq(p.status, 0, "%s", p.err);
	cr_expect(strstr(p.out, "\nengine: tcg (--trace"), "%s", p.out);
	proc_free(&p);
}
