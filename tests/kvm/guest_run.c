/* guest_run.h: a guest test program under one entry variant, checked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest_run.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

/* The lines of `out` that start with `tag` (e.g. "FAIL:"), at most cap bytes. */
static void lines_with(const char *out, const char *tag, char *buf, size_t cap)
{
	size_t len = 0, n = strlen(tag);

	buf[0] = '\0';
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		size_t ll = e ? (size_t)(e - l) + 1 : strlen(l);

		if (!strncmp(l, tag, n) && len + ll < cap) {
			memcpy(buf + len, l, ll);
			len += ll;
			buf[len] = '\0';
		}
	}
}

/* The record's effective configuration must be what the run asked for. */
static void expect_config(struct json_object *rec, const char *key, const char *want,
			  const char *append)
{
	const char *got = jstr(rec, key);

	cr_expect(got && !strcmp(got, want), "[%s] %s is %s, asked for %s", append, key,
		  got ? got : "missing", want);
}

void guest_run_checked(const struct guest_run *r)
{
	char append[96], name[96], prog[160], args[128], fails[4096], skips[2048];
	const char *argv[24] = {EL_ENTRYLAB, "run", "--append", append, "-o", NULL,
				"--timeout", "150", "--exec", prog};
	int n = 10;
	struct el_proc p;
	struct json_object *rec;
	const char *status;

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s entry.irq_return=%s", r->pti, r->ret,
		 r->irq);
	snprintf(name, sizeof(name), "%s-%s-%s-%s.jsonl", r->prog, r->pti, r->ret, r->irq);
	snprintf(prog, sizeof(prog), GUEST_BIN "%s", r->prog);
	snprintf(args, sizeof(args), "%s", r->args ? r->args : "");
	for (char *save, *a = strtok_r(args, " ", &save); a && n < 22; a = strtok_r(NULL, " ", &save))
		argv[n++] = a;
	argv[n] = NULL;
	argv[5] = tmp_output(name);
	if (access(prog, X_OK) != 0 && r->missing)
		cr_skip_test("%s is not built: %s", prog, r->missing);
	cr_assert(access(prog, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)", prog);
	cr_log_info("[%s] %s %s", append, r->prog, r->args ? r->args : "");
	proc_run(&p, argv);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] %s: no record (exit %d)\n%s%s", append, r->prog, p.status, p.out, p.err);
	status = jstr(rec, "status");
	if (status && !strcmp(status, "unsupported"))
		cr_skip_test("[%s] %s: the vCPU cannot run this configuration: %s", append, r->prog,
			     jstr(rec, "detail") ? jstr(rec, "detail") : "(no detail)");
	lines_with(p.out, "FAIL", fails, sizeof(fails));
	lines_with(p.out, "SKIP", skips, sizeof(skips));
	if (skips[0])
		/* info, not warn: Criterion 2.4 fails a run that logged any warning. */
		cr_log_info("[%s] %s skipped checks (the vCPU or the host lacks something):\n%s",
			    append, r->prog, skips);
	cr_expect(status && !strcmp(status, "ok"), "[%s] %s: run status %s\n%s", append, r->prog,
		  status ? status : "?", p.err);
	cr_expect_eq(p.status, 0, "[%s] %s exit %d\n%s--- console / entrylab:\n%s", append, r->prog,
		     p.status, fails[0] ? fails : "(no FAIL line: it crashed or hung)\n", p.err);
	cr_expect(strstr(p.out, r->want ? r->want : "PASS: "), "[%s] %s: no \"%s\" arrived from "
		  "the guest:\n%s", append, r->prog, r->want ? r->want : "PASS: ", p.out);
	cr_expect(!fails[0], "[%s] %s:\n%s", append, r->prog, fails);
	cr_expect(jget(rec, "guest.unknown_syscalls") &&
			  json_object_get_int64(jget(rec, "guest.unknown_syscalls")) == 0,
		  "[%s] %s: guest.unknown_syscalls %s (a system call the kernel does not know)",
		  append, r->prog, jstr(rec, "guest.unknown_syscalls"));
	expect_config(rec, "guest.config.pti", r->pti, append);
	expect_config(rec, "guest.config.ret", r->ret, append);
	expect_config(rec, "guest.config.irq_return", r->irq, append);
	json_object_put(rec);
	proc_free(&p);
}
