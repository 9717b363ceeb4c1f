/*
 * The Bochs tier: PCID and INVPCID executed on CPU models that have them.
 * Under Haswell (PCID, INVPCID), Sandy Bridge (PCID only) and Ryzen
 * (neither), the entry-variant programs (regcheck, entrycheck, getpid) run
 * with pti=on, pti=on noinvpcid and pti=on nopcid through
 * `entrylab run --engine bochs`; each record must say the configuration
 * the model allows, every PTI self-check passed, and nothing measured.
 * Needs only bochs and grub-mkrescue; skipped with the reason otherwise.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

struct model {
	const char *name;
	bool pcid, invpcid;
};

static const struct model models[] = {
	{"corei7_haswell_4770", true, true},
	{"corei7_sandy_bridge_2600k", true, false},
	{"ryzen", false, false},
};

static const char *const appends[] = {"pti=on", "pti=on noinvpcid", "pti=on nopcid"};

/* The program and its arguments: few rounds, Bochs runs about 50 M instructions a second. */
static const char *const programs[][5] = {
	{"--exec", GUEST_BIN "regcheck", "-n", "20", "-s"}, /* "1000" follows */
	{"--exec", GUEST_BIN "entrycheck", "sysret-fallback", NULL, NULL},
	{"-n", "1000", "getpid", NULL, NULL},
};

static void need_bochs(void)
{
	if (!in_path("bochs") || !in_path("grub-mkrescue"))
		cr_skip_test("bochs or grub-mkrescue is not installed: apt-get install bochs "
			     "bochsbios vgabios bochs-term grub-pc-bin grub-common xorriso mtools "
			     "(or harness/bootstrap.sh)");
}

static const char *want_pcid(const struct model *m, const char *append)
{
	if (strstr(append, "nopcid"))
		return "off";
	return m->pcid ? "on" : "unavailable";
}

static const char *want_invpcid(const struct model *m, const char *append)
{
	if (strstr(append, "noinvpcid") || strstr(append, "nopcid"))
		return "off";
	return m->invpcid ? "on" : "unavailable";
}

/*
 * The two PCID flush paths, from the guest kernel's "tlb:" console line:
 * with INVPCID every user-page flush in a user PCID is an INVPCID, without
 * it each is deferred to the exit to user mode; without PCID no line.
 */
static void check_flush_paths(const char *console, const char *pcid, const char *invpcid,
			      const char *what)
{
	const char *line = console ? strstr(console, "tlb: user-page flushes in a user PCID: ")
				   : NULL;
	unsigned long by_invpcid, deferred;

	if (strcmp(pcid, "on")) {
		cr_expect_null(line, "[%s] pcid %s, yet a PCID flush line", what, pcid);
		return;
	}
	cr_assert(line, "[%s] pcid on, but no tlb: line in the console", what);
	cr_assert_eq(sscanf(line, "tlb: user-page flushes in a user PCID: %lu by INVPCID, %lu "
			    "deferred", &by_invpcid, &deferred), 2, "[%s] %.80s", what, line);
	if (!strcmp(invpcid, "on")) {
		cr_expect_gt(by_invpcid, 0, "[%s] INVPCID on, no flush by INVPCID", what);
		cr_expect_eq(deferred, 0, "[%s] INVPCID on, yet %lu deferred", what, deferred);
	} else {
		cr_expect_eq(by_invpcid, 0, "[%s] INVPCID %s, yet %lu by INVPCID", what, invpcid,
			     by_invpcid);
		cr_expect_gt(deferred, 0, "[%s] no INVPCID, no deferred flush", what);
	}
}

struct bochs_case {
	unsigned model, append;
};

ParameterizedTestParameters(bochs, variants)
{
	static struct bochs_case cases[EL_ARRAY_SIZE(models) * EL_ARRAY_SIZE(appends)];
	size_t n = 0;

	for (unsigned m = 0; m < EL_ARRAY_SIZE(models); m++)
		for (unsigned a = 0; a < EL_ARRAY_SIZE(appends); a++)
			cases[n++] = (struct bochs_case){m, a};
	return cr_make_param_array(struct bochs_case, cases, n);
}

/* One model and one command line: the three programs, one boot each. */
ParameterizedTest(struct bochs_case *c, bochs, variants, .timeout = 200)
{
	const struct model *m = &models[c->model];
	const char *append = appends[c->append];

	need_bochs();
	for (unsigned i = 0; i < EL_ARRAY_SIZE(programs); i++) {
		const char *out = tmp_output("bochs.jsonl");
		const char *argv[20] = {EL_ENTRYLAB, "run", "--engine", "bochs", "--cpu-model",
					m->name, "--append", append, "-o", out};
		unsigned n = 10;
		struct el_proc p;
		struct json_object *rec;
		const char *console;

		for (unsigned k = 0; k < 5 && programs[i][k]; k++)
			argv[n++] = programs[i][k];
		if (i == 0)
			argv[n++] = "1000";
		argv[n] = NULL;
		proc_run(&p, argv);
		cr_expect_eq(p.status, 0, "[%s %s] %s: exit %d\n%s", m->name, append, argv[11],
			     p.status, p.err);
		rec = last_record(out);
		cr_assert(rec, "[%s %s] %s: no record\n%s", m->name, append, argv[11], p.err);
		cr_expect_str_eq(jstr(rec, "status"), "ok", "[%s %s] %s: %s", m->name, append,
				 argv[11], jstr(rec, "detail") ? jstr(rec, "detail") : "");
		cr_expect_str_eq(jstr(rec, "host.kvm"), "bochs");
		cr_expect_str_eq(jstr(rec, "host.bochs_cpu_model"), m->name);
		cr_expect_str_eq(jstr(rec, "measurements"), "not-meaningful");
		cr_expect_null(jget(rec, "region"), "no region presented as measured");
		cr_expect_null(jget(rec, "vmm"), "no VMM timings presented as measured");
		cr_expect_str_eq(jstr(rec, "guest.config.pti"), "on", "[%s %s]", m->name, append);
		cr_expect_str_eq(jstr(rec, "guest.config.pcid"), want_pcid(m, append), "[%s %s] %s",
				 m->name, append, argv[11]);
		cr_expect_str_eq(jstr(rec, "guest.config.invpcid"), want_invpcid(m, append),
				 "[%s %s] %s", m->name, append, argv[11]);
		cr_expect(json_object_get_boolean(jget(rec, "guest.selfcheck.passed")),
			  "[%s %s] %s: a self-check failed: %s", m->name, append, argv[11],
			  json_object_to_json_string(jget(rec, "guest.selfcheck.checks")));
		console = jstr(rec, "console");
		{
			char what[160];

			snprintf(what, sizeof(what), "%s %s %s", m->name, append, argv[11]);
			check_flush_paths(console, want_pcid(m, append), want_invpcid(m, append),
					  what);
		}
		if (i < 2) /* the program's output is in the console under Bochs */
			cr_expect(console && strstr(console, "PASS: ") && !strstr(console, "FAIL"),
				  "[%s %s] %s did not pass:\n%s", m->name, append, argv[11],
				  console ? console : "(no console)");
		json_object_put(rec);
		proc_free(&p);
	}
}
