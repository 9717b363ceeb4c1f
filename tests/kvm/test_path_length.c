/*
 * The path-length test: every row of tests/kvm/path_ceilings.txt (its
 * format is described at its top) runs its command, takes its figure from
 * the record and fails when the figure is above the row's ceiling.  Each
 * row prints one line: PASS or FAIL, the row, the figure and the ceiling.
 *
 * The trace rows need only QEMU (`entrylab trace` is TCG); the boot row is
 * a real VM run (vmm.exits), under the nested runner where there is no
 * /dev/kvm, so the suite lives in the KVM tier.
 */
#include <criterion/criterion.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define CEILINGS EL_SOURCE_DIR "/tests/kvm/path_ceilings.txt"
#define MAX_ROWS 64
#define MAX_WORDS 24

TestSuite(path_length, .timeout = 900);

struct row {
	char name[48];
	double ceiling;
	char figure[256]; /* kernel, user, symbols:P,..., kernel-over:ROW, exits */
	char command[256]; /* the words after the figure, one blank apart */
	double value;
	bool measured;
};

/* One run per distinct command. */
struct run {
	char command[256];
	struct json_object *rec;
};

static struct row rows[MAX_ROWS];
static struct run runs[MAX_ROWS];
static unsigned nr_rows, nr_runs;

/* Splits s in place at blanks; returns the number of words. */
static unsigned split_words(char *s, char *words[], unsigned max)
{
	unsigned n = 0;

	for (char *t = strtok(s, " \t\r\n"); t && n < max; t = strtok(NULL, " \t\r\n"))
		words[n++] = t;
	return n;
}

static void load_rows(void)
{
	FILE *f = fopen(CEILINGS, "r");
	char line[1024];
	unsigned lineno = 0;

	cr_assert(f, "cannot open %s", CEILINGS);
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *words[MAX_WORDS], *end;
		struct row *r = &rows[nr_rows];
		unsigned n;

		lineno++;
		if (hash)
			*hash = '\0';
		n = split_words(line, words, MAX_WORDS);
		if (!n)
			continue;
		cr_assert(n >= 4, "%s:%u: want ROW CEILING FIGURE COMMAND...", CEILINGS, lineno);
		cr_assert(nr_rows < MAX_ROWS, "%s: more than %d rows", CEILINGS, MAX_ROWS);
		snprintf(r->name, sizeof(r->name), "%s", words[0]);
		r->ceiling = strtod(words[1], &end);
		cr_assert(end != words[1] && !*end, "%s:%u: ceiling '%s' is not a number", CEILINGS,
			  lineno, words[1]);
		snprintf(r->figure, sizeof(r->figure), "%s", words[2]);
		r->command[0] = '\0';
		for (unsigned i = 3; i < n; i++) {
			size_t len = strlen(r->command);

			snprintf(r->command + len, sizeof(r->command) - len, "%s%s", i > 3 ? " " : "",
				 words[i]);
		}
		cr_assert(!strncmp(r->command, "trace", 5) || !strncmp(r->command, "run", 3),
			  "%s:%u: the command must be trace or run, not '%s'", CEILINGS, lineno,
			  r->command);
		for (unsigned i = 0; i < nr_rows; i++)
			cr_assert(strcmp(rows[i].name, r->name), "%s:%u: row %s twice", CEILINGS,
				  lineno, r->name);
		nr_rows++;
	}
	fclose(f);
	cr_assert(nr_rows, "%s has no rows", CEILINGS);
}

/* `entrylab COMMAND -o FILE ARGS...`, once per command; the record. */
static struct json_object *record_of(const char *command)
{
	char copy[256], *words[MAX_WORDS] = {0}, file[32];
	const char *argv[MAX_WORDS + 4];
	struct el_proc p;
	struct run *run;
	unsigned n, a = 0;
	const char *out;

	for (unsigned i = 0; i < nr_runs; i++)
		if (!strcmp(runs[i].command, command))
			return runs[i].rec;
	run = &runs[nr_runs];
	snprintf(file, sizeof(file), "path%u.jsonl", nr_runs++);
	out = tmp_output(file);
	snprintf(run->command, sizeof(run->command), "%s", command);
	snprintf(copy, sizeof(copy), "%s", command);
	n = split_words(copy, words, MAX_WORDS);
	cr_assert(n > 0, "an empty command");
	argv[a++] = EL_ENTRYLAB;
	argv[a++] = words[0];
	argv[a++] = "-o";
	argv[a++] = out;
	for (unsigned i = 1; i < n; i++)
		argv[a++] = words[i];
	argv[a] = NULL;
	proc_run(&p, argv);
	cr_assert_eq(p.status, 0, "entrylab %s: exit %d\n%s%s", command, p.status, p.out, p.err);
	run->rec = last_record(out);
	cr_assert(run->rec, "entrylab %s: no record", command);
	cr_assert_str_eq(jstr(run->rec, "status"), "ok", "entrylab %s", command);
	proc_free(&p);
	return run->rec;
}

static double number(struct json_object *rec, const char *path, const char *command)
{
	struct json_object *v = jget(rec, path);

	cr_assert(v, "entrylab %s: no %s in the record", command, path);
	return json_object_get_double(v);
}

static bool matches_any(const char *name, const char *patterns)
{
	char copy[256], *save;

	snprintf(copy, sizeof(copy), "%s", patterns);
	for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (!fnmatch(p, name, 0))
			return true;
	return false;
}

/* The summed counts of the matching symbols, per iteration. */
static double symbols_per_iter(struct json_object *rec, const char *patterns,
			       const char *command)
{
	struct json_object *syms = jget(rec, "trace.symbols");
	double iters = number(rec, "trace.iterations", command), sum = 0;
	bool any = false;

	cr_assert(syms && json_object_is_type(syms, json_type_array),
		  "entrylab %s: no trace.symbols", command);
	cr_assert(iters > 0, "entrylab %s: trace.iterations is 0", command);
	for (size_t i = 0; i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);
		const char *name = jstr(s, "name");

		if (name && matches_any(name, patterns)) {
			sum += number(s, "count", command);
			any = true;
		}
	}
	cr_assert(any, "entrylab %s: no symbol matches %s", command, patterns);
	return sum / iters;
}

static const struct row *find_row(const char *name)
{
	for (unsigned i = 0; i < nr_rows; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

static double measure(struct row *r)
{
	struct json_object *rec = record_of(r->command);
	const char *arg = strchr(r->figure, ':');

	if (!strcmp(r->figure, "kernel"))
		return number(rec, "trace.per_iter.kernel", r->command);
	if (!strcmp(r->figure, "user"))
		return number(rec, "trace.per_iter.user", r->command);
	if (!strcmp(r->figure, "exits"))
		return number(rec, "vmm.exits", r->command);
	if (arg && !strncmp(r->figure, "symbols:", 8))
		return symbols_per_iter(rec, arg + 1, r->command);
	if (arg && !strncmp(r->figure, "kernel-over:", 12)) {
		const struct row *base = find_row(arg + 1);

		cr_assert(base && base < r && base->measured && !strcmp(base->figure, "kernel"),
			  "row %s: kernel-over:%s needs a kernel row of that name above it", r->name,
			  arg + 1);
		return number(rec, "trace.per_iter.kernel", r->command) - base->value;
	}
	cr_assert_fail("row %s: unknown figure '%s' (kernel, user, symbols:P,..., "
		       "kernel-over:ROW, exits)", r->name, r->figure);
	return 0;
}

Test(path_length, every_row_under_its_ceiling)
{
	unsigned failed = 0;

	if (access("/usr/bin/qemu-system-x86_64", X_OK))
		cr_skip_test("no qemu-system-x86_64 (harness/bootstrap.sh installs it)");
	load_rows();
	for (unsigned i = 0; i < nr_rows; i++) {
		struct row *r = &rows[i];
		bool pass;

		r->value = measure(r);
		r->measured = true;
		pass = r->value <= r->ceiling;
		failed += !pass;
		printf("path_length: %s %-24s %10.2f  ceiling %10.2f  (%s: entrylab %s)\n",
		       pass ? "PASS" : "FAIL", r->name, r->value, r->ceiling, r->figure, r->command);
		fflush(stdout);
		cr_expect(pass, "%s: %.2f is above its ceiling %.2f (entrylab %s)", r->name,
			  r->value, r->ceiling, r->command);
	}
	printf("path_length: %u of %u rows under their ceilings (%s)\n", nr_rows - failed, nr_rows,
	       CEILINGS);
	for (unsigned i = 0; i < nr_runs; i++)
		json_object_put(runs[i].rec);
}
