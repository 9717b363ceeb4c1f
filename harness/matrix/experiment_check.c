/*
 * Experiment files, second pass: check the [experiment] values, then
 * resolve every variant into one run's settings (its own keys first, then
 * the experiment's) and its baseline.  All problems are reported, not just
 * the first, so one edit fixes a file.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "experiment_priv.h"

#define DEFAULT_REPEAT 3

static bool bench_ok(struct check_ctx *c, const struct exp_value *v)
{
	if (!v->text || bench_find(v->text))
		return v->text != NULL;
	check_problem(c, v->line, "bench = %s: no such benchmark; `entrylab list benches` names "
		      "them", v->text);
	return false;
}

static char *join(const char *a, const char *b)
{
	size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	snprintf(s, la + lb + 2, "%s%s%s", a ? a : "", la && lb ? " " : "", b ? b : "");
	return s;
}

struct exp_defaults {
	uint64_t iterations;
	uint64_t requires;     /* requires = ... of [experiment] */
	uint64_t cpu_requires; /* +feat of [experiment] cpu, for variants that keep it */
	enum el_guest_kind guest; /* guest = ... of [experiment] */
	char *kernel;          /* kernel = ... of [experiment], resolved; NULL: none */
	enum el_region_scope region; /* region = ... of [experiment]; NONE: absent */
	struct el_file files[EL_FILES_MAX]; /* file = lines of [experiment] that are right */
	unsigned nfiles;
};

/*
 * The experiment's files, then the variant's own: at most EL_FILES_MAX in
 * all, as for --file.  The variant's wrong lines are reported and left out.
 */
static void resolve_files(struct check_ctx *c, struct exp_variant *v,
			  const struct exp_defaults *d)
{
	unsigned total = c->exp->file_kv.n + v->file_kv.n;

	if (!total)
		return;
	if (total > EL_FILES_MAX) {
		check_problem(c, v->file_kv.v[0].line, "variant '%s' gets %u file = lines, %u "
			      "of them from [experiment]: more than %u; pack a directory "
			      "holding them instead", v->name, total, c->exp->file_kv.n,
			      EL_FILES_MAX);
		return;
	}
	v->files = calloc(total, sizeof(*v->files));
	if (!v->files) {
		check_problem(c, v->line, "out of memory");
		return;
	}
	memcpy(v->files, d->files, d->nfiles * sizeof(*v->files));
	v->nfiles = d->nfiles;
	for (unsigned i = 0; i < v->file_kv.n; i++)
		v->nfiles += check_file(c, &v->file_kv.v[i], &v->files[v->nfiles]);
}

static void resolve_variant(struct check_ctx *c, struct exp_variant *v,
			    const struct exp_defaults *d)
{
	const struct exp_value *kv = v->kv, *ekv = c->exp->kv;
	const struct exp_value *args;
	bool same;
	int iter_line = 0;

	v->description = kv[EK_DESCRIPTION].text ? kv[EK_DESCRIPTION].text : "";
	v->bench = kv[EK_BENCH].text ? kv[EK_BENCH].text : ekv[EK_BENCH].text;
	/* The experiment's args and iterations are for its bench, not another one. */
	same = !kv[EK_BENCH].text || (ekv[EK_BENCH].text && !strcmp(ekv[EK_BENCH].text, v->bench));
	if (!v->bench)
		check_problem(c, v->line, "variant '%s' has no bench; give bench = NAME here or in "
			      "[experiment]", v->name);
	args = kv[EK_ARGS].text || !same ? &kv[EK_ARGS] : &ekv[EK_ARGS];
	v->args = args->text;
	if (kv[EK_ITERATIONS].text) {
		check_uint(c, EK_ITERATIONS, &kv[EK_ITERATIONS], 1, UINT64_MAX, &v->iterations);
		iter_line = kv[EK_ITERATIONS].line;
	} else if (same && d->iterations) {
		v->iterations = d->iterations;
		iter_line = ekv[EK_ITERATIONS].line;
	}
	/* The experiment's own bench was checked (and reported) once already. */
	if (kv[EK_BENCH].text ? bench_ok(c, &kv[EK_BENCH]) : v->bench && bench_find(v->bench))
		check_args(c, v->bench, v->args, args->line ? args->line : v->line, iter_line);

	v->requires = d->requires;
	if (kv[EK_CPU].text) {
		check_cpu(c, &kv[EK_CPU], &v->requires);
		v->cpu = kv[EK_CPU].text;
	} else {
		v->requires |= d->cpu_requires;
		v->cpu = ekv[EK_CPU].text ? ekv[EK_CPU].text : "host";
	}
	v->guest = d->guest;
	check_guest(c, &kv[EK_GUEST], &v->guest);
	v->region = d->region;
	check_region(c, &kv[EK_REGION], &v->region);
	if (kv[EK_KERNEL].text)
		v->kernel = check_kernel(c, &kv[EK_KERNEL]);
	else if (d->kernel)
		v->kernel = strdup(d->kernel);
	resolve_files(c, v, d);
	/*
	 * Our knobs are checked here; a Linux variant's command line is Linux's
	 * own, checked with the variant's request (matrix_plan) before anything boots.
	 */
	if (v->guest == EL_GUEST_ENTRYLAB)
		check_append(c, &kv[EK_APPEND]);
	v->append = join(ekv[EK_APPEND].text, kv[EK_APPEND].text);
	check_requires(c, &kv[EK_REQUIRES], &v->requires);
}

static int baseline_of(struct check_ctx *c, const struct exp_value *b)
{
	struct el_experiment *e = c->exp;
	int i = experiment_variant(e, b->text);

	if (i >= 0)
		return i;
	check_problem(c, b->line, "baseline = %s: there is no [variant %s]; name one of:", b->text,
		      b->text);
	for (unsigned k = 0; k < e->nvariants; k++)
		fprintf(c->err, " %s", e->variants[k].name);
	fputc('\n', c->err);
	return 0;
}

/* Deltas compare like with like: a variant of another bench gets the first of its own. */
static void resolve_baselines(struct check_ctx *c)
{
	struct el_experiment *e = c->exp;

	e->baseline = e->kv[EK_BASELINE].text ? baseline_of(c, &e->kv[EK_BASELINE]) : 0;
	for (unsigned i = 0; i < e->nvariants; i++) {
		struct exp_variant *v = &e->variants[i];
		const char *base_bench = e->variants[e->baseline].bench;

		if (v->kv[EK_BASELINE].text) {
			v->baseline = baseline_of(c, &v->kv[EK_BASELINE]);
			continue;
		}
		v->baseline = e->baseline;
		if (v->bench && base_bench && strcmp(v->bench, base_bench))
			for (unsigned k = 0; k < e->nvariants; k++)
				if (e->variants[k].bench &&
				    !strcmp(e->variants[k].bench, v->bench)) {
					v->baseline = (int)k;
					break;
				}
	}
}

/* Whether any variant boots Linux (its own guest key, else the experiment's). */
static bool experiment_has_linux(const struct el_experiment *e, enum el_guest_kind dflt)
{
	for (unsigned i = 0; i < e->nvariants; i++) {
		const char *g = e->variants[i].kv[EK_GUEST].text;

		if (g ? !strcmp(g, "linux") : dflt == EL_GUEST_LINUX)
			return true;
	}
	return dflt == EL_GUEST_LINUX;
}

int experiment_check(
struct el_experiment *e, FILE *err)
{
	struct check_ctx c = {.exp = e, .err = err};
	struct exp_value *kv = e->kv;
	struct exp_defaults d = {0};
	uint64_t repeat = DEFAULT_REPEAT;

	if (!e->line)
		check_problem(&c, 0,
			      "no [experiment] section; begin the file with [experiment] and "
			      "name = NAME (harness/experiments/README.md)");
	else if (!kv[EK_NAME].text)
		check_problem(&c, e->line, "[experiment] has no name; add name = NAME");
	check_word(&c, EK_NAME, &kv[EK_NAME]);
	e->name = kv[EK_NAME].text ? kv[EK_NAME].text : "";
	e->description = kv[EK_DESCRIPTION].text ? kv[EK_DESCRIPTION].text : "";
	e->seed = kv[EK_SEED].text ? kv[EK_SEED].text : "";
	bench_ok(&c, &kv[EK_BENCH]);
	check_uint(&c, EK_ITERATIONS, &kv[EK_ITERATIONS], 1, UINT64_MAX, &d.iterations);
	check_events(&c, &kv[EK_EVENTS]);
	e->events = kv[EK_EVENTS].text;
	check_uint(&c, EK_REPEAT, &kv[EK_REPEAT], 1, 1000, &repeat);
	e->repeat = (unsigned)repeat;
	check_cpu(&c, &kv[EK_CPU], &d.cpu_requires);
	check_guest(&c, &kv[EK_GUEST], &d.guest);
	check_region(&c, &kv[EK_REGION], &d.region);
	d.kernel = check_kernel(&c, &kv[EK_KERNEL]);
	for (unsigned i = 0; i < e->file_kv.n; i++)
		d.nfiles += check_file(&c, &e->file_kv.v[i], &d.files[d.nfiles]);
	/* The experiment's append goes to every variant: checked as ours unless one is Linux. */
	if (!experiment_has_linux(e, d.guest))
		check_append(&c, &kv[EK_APPEND]);
	check_size(&c, EK_MEMORY, &kv[EK_MEMORY], &e->mem_bytes);
	check_seconds(&c, EK_TIMEOUT, &kv[EK_TIMEOUT], &e->timeout_s);
	check_requires(&c, &kv[EK_REQUIRES], &d.requires);
	check_metrics(&c, &kv[EK_METRICS]);

	if (e->nvariants == 0)
		check_problem(&c, e->line,
			      "no [variant NAME] sections; add at least one (a variant "
			      "with no keys runs the [experiment] settings as they are)");
	for (unsigned i = 0; i < e->nvariants; i++)
		resolve_variant(&c, &e->variants[i], &d);
	free(d.kernel);
	check_seed_scale(&c);
	if (e->nvariants)
		resolve_baselines(&c);
	check_report_keys(&c);
	check_hosts(&c);
	free(c.events_buf);
	return c.problems;
}
