/*
 * The matrix as a list of `entrylab run` command lines, one per selected
 * variant: built from the experiment and the matrix options, then checked
 * by run's own parser and program preparation, so everything that could
 * stop a run is found before the first boot.  Also the prerequisites
 * (features the host's KVM must offer) and the --dry-run listing.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuid.h"
#include "kvm.h"
#include "matrix.h"
#include "matrix_run.h"
#include "status.h"
#include "trace.h"

static void push(struct matrix_variant *v, char *s)
{
	if (v->argc < MATRIX_MAX_ARGV - 1)
		v->argv[v->argc++] = s;
	v->argv[v->argc] = NULL;
}

static int select_variants(struct matrix *m)
{
	bool chosen[EXP_MAX_VARIANTS] = {0};
	char *list, *tok, *save;

	if (!m->o.only) {
		for (unsigned i = 0; i < m->exp.nvariants; i++)
			chosen[i] = true;
	} else {
		list = strdup(m->o.only);
		for (tok = list ? strtok_r(list, ",", &save) : NULL; tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int i = experiment_variant(&m->exp, tok);

			if (i < 0) {
				fprintf(stderr,
					"entrylab matrix: --only: %s has no variant '%s'; its "
					"variants are:",
					m->path, tok);
				for (unsigned k = 0; k < m->exp.nvariants; k++)
					fprintf(stderr, " %s", m->exp.variants[k].name);
				fputc('\n', stderr);
				free(list);
				return EL_EXIT_USAGE;
			}
			chosen[i] = true;
		}
		free(list);
	}
	/* File order, whatever order --only named them in: tables stay comparable. */
	for (unsigned i = 0; i < m->exp.nvariants; i++)
		if (chosen[i])
			m->v[m->nv++].index = i;
	return 0;
}

/*
 * Under --trace a variant's prerequisites go to QEMU as +feat: `enforce`
 * then refuses what -cpu max lacks, and the run says which (a skip).
 */
static const char *trace_cpu(struct matrix_variant *mv, const struct exp_variant *ev)
{
	size_t o = (size_t)snprintf(mv->cpu, sizeof(mv->cpu), "%s", ev->cpu);

	for (unsigned f = 0; f < EL_FEAT_COUNT && o < sizeof(mv->cpu); f++)
		if (ev->requires >> f & 1)
			o += (size_t)snprintf(mv->cpu + o, sizeof(mv->cpu) - o, ",+%s",
					      el_features[f].name);
	return mv->cpu;
}

static void build_argv(struct matrix *m, struct matrix_variant *mv)
{
	const struct el_experiment *e = &m->exp;
	const struct exp_variant *ev = &e->variants[mv->index];
	uint64_t iterations = m->o.iterations ? m->o.iterations : ev->iterations;
	/* The file's timeout is for KVM boots; a trace keeps its own unless --timeout. */
	double timeout = m->o.timeout_s ? m->o.timeout_s : m->o.trace ? 0 : e->timeout_s;
	const char *args = m->o.args ? m->o.args : ev->args;
	char *save, *tok;
	struct el_run_request *r = &mv->req;
	int bench_at;

	push(mv, m->o.trace ? "trace" : "run");
	push(mv, "-c");
	push(mv, m->o.trace ? (char *)trace_cpu(mv, ev) : (char *)ev->cpu);
	push(mv, "-a");
	push(mv, (char *)ev->append);
	if (ev->guest != EL_GUEST_ENTRYLAB) {
		push(mv, "--guest");
		push(mv, (char *)el_guest_kind_names[ev->guest]);
	}
	if (ev->kernel) {
		push(mv, "--kernel");
		push(mv, ev->kernel);
	}
	if (ev->nfiles)
		mv->file_words = malloc(ev->nfiles * 2 * EL_FILE_PATH_MAX);
	for (unsigned i = 0, o = 0; mv->file_words && i < ev->nfiles; i++) {
		push(mv, "--file");
		push(mv, mv->file_words + o);
		o += (unsigned)sprintf(mv->file_words + o, "%s=%s", ev->files[i].host,
				       ev->files[i].guest) + 1;
	}
	if (ev->region != EL_REGION_SCOPE_NONE) {
		push(mv, "--region");
		push(mv, (char *)el_region_scope_names[ev->region]);
	}
	if (e->events && !m->o.trace) {
		push(mv, "-e");
		push(mv, (char *)e->events);
	}
	if (iterations) {
		snprintf(mv->num[0], sizeof(mv->num[0]), "%llu", (unsigned long long)iterations);
		push(mv, "-n");
		push(mv, mv->num[0]);
	}
	if (e->mem_bytes) {
		if (e->mem_bytes % (1ull << 20))
			snprintf(mv->num[1], sizeof(mv->num[1]), "%llu",
				 (unsigned long long)e->mem_bytes);
		else
			snprintf(mv->num[1], sizeof(mv->num[1]), "%lluM",
				 (unsigned long long)(e->mem_bytes >> 20));
		push(mv, "-m");
		push(mv, mv->num[1]);
	}
	if (timeout) {
		snprintf(mv->num[2], sizeof(mv->num[2]), "%g", timeout);
		push(mv, "--timeout");
		push(mv, mv->num[2]);
	}
	if (m->o.verbose)
		push(mv, "-v");
	push(mv, (char *)ev->bench);
	bench_at = mv->argc;
	mv->args_copy = args ? strdup(args) : NULL;
	for (tok = mv->args_copy ? strtok_r(mv->args_copy, " \t", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \t", &save))
		push(mv, tok);

	/* The same values as the request each boot of the variant starts from. */
	request_init(r);
	r->cpu_spec = mv->argv[2];
	r->append = ev->append;
	r->guest = ev->guest;
	r->kernel = ev->kernel;
	r->region = ev->region;
	r->files = ev->files;
	r->nr_files = ev->nfiles;
	r->events = m->o.trace ? NULL : e->events;
	r->iterations = iterations;
	r->mem_bytes = e->mem_bytes ? e->mem_bytes : m->o.trace ? EL_TRACE_MEMORY : r->mem_bytes;
	r->timeout_s = timeout ? timeout : m->o.trace ? EL_TRACE_TIMEOUT : r->timeout_s;
	r->verbose = m->o.verbose;
	r->bench = ev->bench;
	r->args = mv->argv + bench_at;
	r->nargs = mv->argc - bench_at;
}

/*
 * The variant's request checked as `run` (or, --trace, `trace`) checks
 * one, its programs prepared and dropped again; a -cpu QEMU never gives is
 * a skip.
 */
static int check_variant(struct matrix *m, struct matrix_variant *mv)
{
	struct el_run_request req = mv->req;
	struct el_run_spec spec = {0};
	struct el_programs prog = {0};
	char cpu[512];
	int rc;

	if (mv->argc >= MATRIX_MAX_ARGV - 1)
		return EL_EXIT_USAGE;
	if ((rc = request_finish("matrix", &req, &spec)))
		return rc;
	if (m->o.trace && trace_qemu_cpu(&spec.cpu, cpu, sizeof(cpu), mv->skip, sizeof(mv->skip)))
		return 0;
	rc = request_programs("matrix", &req, &prog, &spec);
	if (!rc && m->o.trace) {
		struct el_trace_job job = {.req = &req, .spec = &spec, .prog = &prog};

		rc = trace_prepare(&job);
		trace_job_free(&job);
	}
	programs_free(&prog);
	return rc;
}

int matrix_plan(struct matrix *m)
{
	int rc;

	/* A trace is deterministic: one run per variant, unless -r asks (a fleet's hosts). */
	m->repeat = m->o.repeat ? m->o.repeat : m->o.trace ? 1 : m->exp.repeat;
	if ((rc = select_variants(m)))
		return rc;
	for (unsigned i = 0; i < m->nv; i++) {
		struct matrix_variant *mv = &m->v[i];
		const struct exp_variant *ev = &m->exp.variants[mv->index];

		build_argv(m, mv);
		if ((rc = check_variant(m, mv))) {
			fprintf(stderr, "entrylab matrix: %s:%d: variant '%s' cannot run as given "
					"(above); fix the file or the matrix option\n", m->path,
				ev->line, ev->name);
			return rc;
		}
	}
	return 0;
}

static void missing_text(uint64_t missing, char *buf, size_t len)
{
	char where[48];
	size_t o = 0;

	for (unsigned f = 0; f < EL_FEAT_COUNT && o < len; f++) {
		if (!(missing >> f & 1))
			continue;
		cpuid_feature_where(f, where, sizeof(where));
		o += (size_t)snprintf(buf + o, len - o, "%s%s (%s)", o ? ", " : "",
				      el_features[f].name, where);
	}
}

void matrix_prerequisites(struct matrix *m)
{
	struct el_cpuid *sup = calloc(1, sizeof(*sup));
	uint64_t have = 0;
	int kvm = kvm_device_open();

	if (!sup || kvm < 0 || cpuid_kvm_supported(kvm, sup)) {
		/* The runs themselves then say what is unsupported. */
		if (kvm >= 0)
			close(kvm);
		free(sup);
		return;
	}
	close(kvm);
	for (unsigned f = 0; f < EL_FEAT_COUNT; f++)
		if (cpuid_has(sup, f))
			have |= 1ull << f;
	free(sup);
	for (unsigned i = 0; i < m->nv; i++) {
		const struct exp_variant *ev = &m->exp.variants[m->v[i].index];
		uint64_t missing = ev->requires & ~have;
		char what[200];

		if (!missing)
			continue;
		missing_text(missing, what, sizeof(what));
		snprintf(m->v[i].skip, sizeof(m->v[i].skip), "this host's KVM does not "
			 "offer %s, which the variant requires", what);
	}
}

void matrix_print_plan(FILE *f, const struct matrix *m, bool checked, const char *output)
{
	unsigned runs = 0;
	bool unchecked = false;

	for (unsigned i = 0; i < m->nv; i++)
		runs += m->v[i].skip[0] ? 0 : m->repeat;
	fprintf(f, "entrylab matrix %s%s%s%s: %u variant(s) x %u run(s) = %u boot(s); records to "
		   "%s\n", m->exp.name, m->exp.seed[0] ? " (seed " : "", m->exp.seed,
		m->exp.seed[0] ? ")" : "", m->nv, m->repeat, runs, output);
	for (unsigned i = 0; i < m->nv; i++) {
		const struct matrix_variant *mv = &m->v[i];
		const struct exp_variant *ev = &m->exp.variants[mv->index];

		fprintf(f, "  %-16s ", ev->name);
		if (mv->skip[0]) {
			fprintf(f, "skipped: %s\n", mv->skip);
			continue;
		}
		fprintf(f, "%u x entrylab", m->repeat);
		for (int k = 0; k < mv->argc; k++) {
			fputc(' ', f);
			matrix_shell_word(f, mv->argv[k]);
		}
		fputc('\n', f);
		if (ev->requires) {
			fprintf(f, "  %-16s requires", "");
			for (unsigned b = 0; b < EL_FEAT_COUNT; b++)
				if (ev->requires >> b & 1)
					fprintf(f, " %s", el_features[b].name);
			fprintf(f, "%s\n", checked ? " (this host has them)" : "");
			unchecked = unchecked || !checked;
		}
	}
	if (unchecked && m->o.trace)
		fprintf(f, "Required CPU features go to QEMU as +feat (above): a variant whose "
			   "feature -cpu max lacks is skipped.\n");
	else if (unchecked)
		fprintf(f, "Required CPU features are checked when the matrix runs (/dev/kvm is "
			   "not usable here: in the nested runner's VM).\n");
}

void matrix_free(struct matrix *m)
{
	for (unsigned i = 0; i < m->nv; i++) {
		free(m->v[i].args_copy);
		free(m->v[i].file_words);
	}
	experiment_free(&m->exp);
}
