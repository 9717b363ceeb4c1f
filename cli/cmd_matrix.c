/*
 * `entrylab matrix EXPERIMENT [OPTIONS]` and `entrylab matrix --resume
 * DIR`: options (or DIR's saved ones), the experiment loaded and every run
 * checked, then matrix_session.c: the directory, the runs here (usable
 * /dev/kvm, or inside the nested runner's VM) or in ONE nested VM session
 * whose records come back as they complete, and the report printed (here)
 * and saved, from the records on disk.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bochs.h"
#include "cli.h"
#include "cmd_matrix.h"
#include "commands.h"
#include "engine.h"
#include "fleet.h"
#include "parse_num.h"
#include "matrix.h"
#include "metric.h"
#include "nested.h"
#include "opt_table.h"
#include "record.h"
#include "status.h"

#define AT(field) .off = offsetof(struct matrix_opts, field)

static void matrix_usage(FILE *f);

static int opt_engine(void *obj, const char *arg, struct el_opt_state *st)
{
	struct matrix_opts *o = obj;

	if (strcmp(arg, "kvm") && strcmp(arg, "bochs"))
		return el_opt_bad(st->t->cmd, "--engine is not an engine: '%s'", arg,
				  "give --engine kvm or --engine bochs");
	o->bochs = !strcmp(arg, "bochs");
	return 0;
}

/* --emit ENGINE DIR: the directory is the next word */
static int opt_emit(void *obj, const char *arg, struct el_opt_state *st)
{
	struct matrix_opts *o = obj;

	if (fleet_engine_parse(arg, &o->emit_engine))
		return el_opt_bad(st->t->cmd, "--emit is not an engine: '%s'", arg,
				  "give --emit slurm DIR or --emit parallel DIR");
	if (optind >= st->argc || st->argv[optind][0] == '-' || !st->argv[optind][0])
		return el_opt_bad(st->t->cmd, "--emit has no DIR after '%s'", arg,
				  "give the directory after the engine: --emit slurm DIR");
	o->emit = st->argv[optind++];
	return 0;
}

static int opt_task(void *obj, const char *arg, struct el_opt_state *st)
{
	struct matrix_opts *o = obj;
	uint64_t v;

	if (el_parse_u64(arg, 0, FLEET_MAX_TASKS - 1, &v))
		return el_opt_bad(st->t->cmd, "--task is not a task number: '%s'", arg,
				  "give the task's number from DIR/plan.json, e.g. --task 3");
	o->task = (long)v;
	o->task_given = true;
	return 0;
}

static int opt_scale(void *obj, const char *arg, struct el_opt_state *st)
{
	if (strcmp(arg, "seed"))
		return el_opt_bad(st->t->cmd, "--scale is not 'seed': '%s'", arg,
				  "the one scale is --scale seed (the experiment's seed_* keys)");
	((struct matrix_opts *)obj)->scale_seed = true;
	return 0;
}

static const struct el_opt matrix_opts_table[] = {
	{.synopsis = "EXPERIMENT", .help = "a file, or a name from `entrylab list experiments`"},
	{.short_name = 'r', .long_name = "repeat", .arg = "N",
	 .help = "runs per variant (a fresh VM each; default: the file's)", .kind = EL_OPT_UINT,
	 AT(repeat), .min = 1, .max = 1000, .bad = "--repeat is not in 1..1000: '%s'",
	 .fix = "give e.g. -r 5"},
	{.short_name = 'n', .long_name = "iterations", .arg = "N",
	 .help = "iterations of the measured loop, for every variant", .kind = EL_OPT_U64,
	 AT(iterations), .min = 1, .max = UINT64_MAX,
	 .bad = "--iterations is not a positive integer: '%s'", .fix = "give e.g. -n 100000"},
	{.long_name = "args", .arg = "ARGS",
	 .help = "benchmark arguments, every variant (e.g. '1G 100')", .kind = EL_OPT_STRING,
	 AT(args)},
	{.short_name = 'o', .long_name = "output", .arg = "FILE",
	 .help = "append records to FILE; plan.json and the report files go\n"
		 "beside it (default: the directory\n"
		 "results/EXPERIMENT/UTC-TIME/ with runs.jsonl)",
	 .kind = EL_OPT_STRING, AT(output)},
	{.short_name = 'x', .long_name = "field-separator", .arg = "SEP", .synopsis = "-x SEP",
	 .help = "the report as CSV with separator SEP", .kind = EL_OPT_STRING, AT(csv_sep)},
	{.long_name = "json", .help = "the report as JSON lines", .kind = EL_OPT_TRUE, AT(json)},
	{.long_name = "only", .arg = "V1,V2", .help = "run only these variants",
	 .kind = EL_OPT_STRING, AT(only)},
	{.long_name = "timeout", .arg = "SEC",
	 .help = "per boot (default: from the work asked for, at least\n120; --dry-run shows it)",
	 .kind = EL_OPT_SECONDS, AT(timeout_s), .max = 86400,
	 .bad = "--timeout is not a number of seconds in (0, 86400]: '%s'",
	 .fix = "give e.g. --timeout 30"},
	{.long_name = "scale", .arg = "seed",
	 .help = "the seed's own sizes (the file's seed_args,\n"
		 "seed_iterations, seed_repeat); -r/-n/--args still win",
	 .kind = EL_OPT_CALL, .fn = opt_scale},
	{.long_name = "nested", .synopsis = "    --nested, --no-nested",
	 .help = "force or forbid the nested runner", .kind = EL_OPT_SET, AT(nested),
	 .val = EL_NESTED_FORCE},
	{.long_name = "no-nested", .kind = EL_OPT_SET, AT(nested), .val = EL_NESTED_FORBID},
	{.long_name = "no-warm", .help = "nested runner: boot a VM for this matrix alone",
	 .kind = EL_OPT_TRUE, AT(cold)},
	{.long_name = "dry-run", .help = "print the runs and their estimated time instead",
	 .kind = EL_OPT_TRUE, AT(dry_run)},
	{.long_name = "trace", .help = "each variant once under QEMU TCG as `entrylab trace`:\n"
				       "exact instruction counts, any host (no KVM needed)",
	 .kind = EL_OPT_TRUE, AT(trace)},
	{.long_name = "engine", .arg = "kvm|bochs",
	 .synopsis = "    --engine kvm|bochs, --cpu-model M",
	 .help = "every boot under Bochs with CPU model M\n"
		 "(as `entrylab run --engine bochs`; variants with a --cpu\n"
		 "other than host are recorded unsupported)",
	 .kind = EL_OPT_CALL, .fn = opt_engine},
	{.long_name = "cpu-model", .arg = "M", .kind = EL_OPT_STRING, AT(cpu_model)},
	{.long_name = "resume", .arg = "DIR",
	 .help = "continue an interrupted matrix: the runs DIR/plan.json\n"
		 "plans that have no record yet; then the report again",
	 .kind = EL_OPT_STRING, AT(resume)},
	/* internal: the host tells the nested VM which runs are done */
	{.long_name = "done-runs", .arg = "LIST", .internal = true, .kind = EL_OPT_STRING,
	 AT(done_runs)},
	{.long_name = "emit", .arg = "ENGINE", .synopsis = "    --emit slurm|parallel DIR",
	 .help = "write the runs as jobs instead of running\n"
		 "them: one Slurm job array per host class (or a GNU\n"
		 "parallel task list), DIR/submit.sh, docs/fleet.md",
	 .kind = EL_OPT_CALL, .fn = opt_emit},
	{.long_name = "hosts", .arg = "A,B",
	 .help = "the host classes (Slurm constraints, or [host CLASS]\n"
		 "sections of the file); each runs every variant",
	 .kind = EL_OPT_STRING, AT(hosts)},
	{.long_name = "run-one", .arg = "DIR", .synopsis = "    --run-one DIR --task ID",
	 .help = "run one task of an emitted fleet (its job\n"
		 "scripts do): its record to DIR/parts/task-ID.json",
	 .kind = EL_OPT_STRING, AT(run_one)},
	{.long_name = "task", .arg = "ID", .kind = EL_OPT_CALL, .fn = opt_task},
	{.long_name = "collect", .arg = "DIR",
	 .help = "merge DIR's parts: runs.jsonl, the report per host\n"
		 "class; names each missing or failed task and the\n"
		 "command that runs it again (exit 1: tasks missing,\n"
		 "2: some failed)",
	 .kind = EL_OPT_STRING, AT(collect)},
	{.short_name = 'v', .long_name = "verbose", .synopsis = "-v",
	 .help = "guest console and program output on stderr", .kind = EL_OPT_TRUE, AT(verbose)},
	{.short_name = 'h', .long_name = "help", .kind = EL_OPT_HELP},
};

static const struct el_opt_table matrix_table = {
	EL_OPT_TABLE("matrix", matrix_opts_table), .col = 24, .gap = 2, .usage = matrix_usage,
};

static void matrix_usage(FILE *f)
{
	fprintf(f, "usage: entrylab matrix EXPERIMENT [OPTIONS]\n"
		   "       entrylab matrix --resume DIR [-v] [-x SEP | --json] [--nested | "
		   "--no-nested]\n");
	el_opt_help(f, &matrix_table);
	fprintf(f, "On SIGINT or SIGTERM the boot in flight is abandoned, the report of the runs\n"
		   "kept is written, and the exit status is 128 + the signal (130 for Ctrl-C).\n");
}

/* cli_bad() as matrix's checks word it: "WHAT 'ARG'; FIX". */
static int bad(const char *fix, const char *what, const char *arg)
{
	return cli_bad("matrix", fix, "%s '%s'", what, arg);
}

const struct el_opt_table *cmd_matrix_table(void)
{
	return &matrix_table;
}

/*
 * The fleet modes' rules (fleet.h): --run-one DIR --task ID and --collect
 * DIR take everything else from DIR/plan.json (only -v besides); --emit
 * takes the options that shape the runs, not those of where and how a
 * matrix runs here.  -1: not a fleet mode, or --emit with nothing against
 * it (the experiment is checked as for any matrix); else 0 or EL_EXIT_USAGE.
 */
static int fleet_options(int argc, char **argv, const struct matrix_opts *o)
{
	struct matrix_opts rest = *o;
	static const struct matrix_opts none;

	if (o->hosts && !o->emit)
		return bad("add --emit slurm DIR (or parallel), or drop --hosts", "--hosts is for "
			   "--emit:", o->hosts);
	if (o->task_given && !o->run_one)
		return bad("add --run-one DIR, or drop --task", "--task is for --run-one:", "--task");
	if (o->emit) {
		const char *clash = o->output	   ? "-o"
				    : o->resume	   ? "--resume"
				    : o->dry_run   ? "--dry-run"
				    : o->cold	   ? "--no-warm"
				    : o->nested	   ? "--nested/--no-nested"
				    : o->run_one   ? "--run-one"
				    : o->collect   ? "--collect"
						   : NULL;

		if (clash)
			return bad("drop it: each task runs where its engine puts it, and DIR "
				   "holds everything", "--emit does not go with", clash);
		return -1;
	}
	if (!o->run_one && !o->collect)
		return -1;
	if (o->run_one && o->collect)
		return bad("choose one", "--run-one and --collect both given:", o->collect);
	if (o->run_one && !o->task_given)
		return bad("add --task ID (the job scripts pass it)", "--run-one needs --task:",
			   o->run_one);
	if (optind != argc)
		return bad("drop it: DIR/plan.json names the experiment", "--run-one and "
			   "--collect take no EXPERIMENT, got", argv[optind]);
	rest.run_one = rest.collect = NULL;
	rest.task = 0;
	rest.task_given = rest.verbose = false;
	if (memcmp(&rest, &none, sizeof(rest)))
		return bad("drop the other options: the ones DIR/plan.json saved apply",
			   "--run-one and --collect take only -v (and --task) besides DIR:",
			   o->run_one ? o->run_one : o->collect);
	return 0;
}

static int parse_options(int argc, char **argv, struct matrix_opts *o)
{
	struct el_opt_state st;
	int rc;

	/* permuted: EXPERIMENT may come before the options */
	if ((rc = el_opt_parse(&matrix_table, argc, argv, o, &st)))
		return rc;
	if (o->done_runs && (!o->resume || !nested_is_inner()))
		return bad("drop it", "--done-runs is the nested runner's own option, not for the "
			   "command line:", o->done_runs);
	if (o->resume && optind != argc)
		return bad("drop it: DIR/plan.json names the experiment", "--resume DIR takes no "
			   "EXPERIMENT, got", argv[optind]);
	if (o->cpu_model && !o->bochs)
		return bad("add --engine bochs, or drop --cpu-model", "--cpu-model is for --engine "
			   "bochs:", o->cpu_model);
	if (o->bochs) {
		char err[300];

		if (!o->cpu_model || bochs_model_check(o->cpu_model, err, sizeof(err))) {
			fprintf(stderr, "entrylab matrix: %s\n", o->cpu_model ? err : "--engine bochs "
				"needs --cpu-model; choose one of those below");
			bochs_models_print(stderr);
			return EL_EXIT_USAGE;
		}
		if (o->trace || o->nested != EL_NESTED_AUTO)
			return bad("drop --trace, --nested and --no-nested", "--engine bochs runs "
				   "Bochs here, not QEMU or the nested runner:", "--engine bochs");
	}
	if ((rc = fleet_options(argc, argv, o)) >= 0)
		return rc;
	if (o->resume)
		return o->json && o->csv_sep ? bad("choose one output format", "--json and -x both "
						   "given:", "-x") : 0;
	if (optind != argc - 1) {
		fprintf(stderr, "entrylab matrix: give one EXPERIMENT (a file or a name from "
				"`entrylab list experiments`)\n");
		return EL_EXIT_USAGE;
	}
	o->experiment = argv[optind];
	o->experiment_arg = optind;
	if (o->json && o->csv_sep)
		return bad("choose one output format", "--json and -x both given:", "-x");
	/* A trace is deterministic (repeats give the same counts) and TCG by design. */
	if (o->trace && o->repeat && !o->emit && !o->fleet) {
		fprintf(stderr, "entrylab matrix: -r with --trace: a trace is deterministic, "
				"repeats give the same counts; drop -r (--trace runs each variant "
				"once; a fleet, --emit, may repeat it on many hosts)\n");
		return EL_EXIT_USAGE;
	}
	if (o->trace && o->nested == EL_NESTED_FORCE) {
		fprintf(stderr, "entrylab matrix: --nested with --trace: a trace runs under QEMU "
				"TCG here, never on KVM or the nested runner; drop --nested\n");
		return EL_EXIT_USAGE;
	}
	return 0;
}

int cmd_matrix_options(int argc, char **argv, struct matrix_opts *o)
{
	return parse_options(argc, argv, o);
}

/* The nested session must outlive every boot of the matrix, not just one -r. */
/* Each boot's --timeout: the nested runner's deadline is this times the boots. */
static double nested_boot_timeout(const struct matrix *m)
{
	return matrix_boot_timeout(m);
}

void cmd_matrix_columns(const struct matrix *m, struct report *r, bool quiet)
{
	const struct el_experiment *e = &m->exp;
	const char *metrics[EXP_MAX_METRICS];
	char dropped[512];

	for (unsigned i = 0; i < e->nmetrics; i++)
		metrics[i] = e->metrics[i];
	if (!m->o.trace) {
		report_experiment_columns(r, metrics, e->nmetrics, e->events);
		return;
	}
	/* A trace has no PMU and no timed region: the metrics it cannot give, said once. */
	report_trace_columns(r, metrics, e->nmetrics, dropped, sizeof(dropped));
	if ((dropped[0] || e->events) && !quiet)
		fprintf(stderr, "entrylab matrix: --trace counts instructions exactly, by "
				"privilege; it has no PMU events%s%s%s and no timed region, so these "
				"metrics are left out: %s\n", e->events ? " (" : "",
			e->events ? e->events : "", e->events ? ")" : "",
			dropped[0] ? dropped : "none");
}

static void print_report(const struct matrix *m, struct report *r, const char *output)
{
	const struct el_experiment *e = &m->exp;
	char runs[96];

	if (m->o.trace && m->repeat == 1)
		snprintf(runs, sizeof(runs), "traced once per variant under QEMU TCG (exact "
			 "instruction counts)");
	else
		snprintf(runs, sizeof(runs), "%u %s per variant", m->repeat,
			 m->o.trace ? "trace(s)" : "run(s)");
	cmd_matrix_columns(m, r, false);
	if (m->o.json) {
		report_print_json(stdout, r);
		return;
	}
	if (m->o.csv_sep) {
		report_print_csv(stdout, r, m->o.csv_sep);
		return;
	}
	printf("entrylab matrix %s%s%s%s: %s\n", e->name,
	       e->seed[0] ? " (seed " : "", e->seed, e->seed[0] ? ")" : "", runs);
	if (e->description[0])
		printf("  %s\n", e->description);
	if (output)
		printf("  records: %s\n", output);
	report_print_table(stdout, r);
}

void cmd_matrix_print(const struct matrix *m, struct report *r, const char *output)
{
	print_report(m, r, nested_is_inner() ? NULL : output);
}

/*
 * --resume DIR: the options that shape the plan are DIR/plan.json's,
 * replayed through parse_options; the command line may only choose how
 * the report is shown (-v, -x, --json) and where it runs (--nested,
 * --no-nested).  Any other option conflicts: after clearing those, the
 * options (calloc'ed, set only by parse_options) must be all zero.
 */
static int resume_options(struct matrix *m, struct matrix_saved *s)
{
	static const struct matrix_opts none;
	struct matrix_opts given, rest;
	int rc;

	memcpy(&given, &m->o, sizeof(given));
	memcpy(&rest, &m->o, sizeof(rest));
	rest.resume = NULL;
	rest.done_runs = NULL;
	rest.csv_sep = NULL;
	rest.verbose = rest.json = false;
	rest.nested = EL_NESTED_AUTO;
	if (memcmp(&rest, &none, sizeof(rest))) {
		fprintf(stderr, "entrylab matrix: --resume %s takes only -v, -x, --json, --nested "
				"and --no-nested: the runs, their options and the output are the ones "
				"%s/%s saved; drop the other options, or start a new matrix\n",
			given.resume, given.resume, MATRIX_PLAN_FILE);
		return EL_EXIT_USAGE;
	}
	if ((rc = matrix_plan_read(given.resume, s)))
		return rc;
	memset(&m->o, 0, sizeof(m->o));
	/* a fleet's plan, resumed by a fleet task in the nested runner (matrix_fleet.c) */
	m->o.fleet = json_object_object_get_ex(s->obj, "fleet", NULL);
	if (m->o.fleet && !nested_is_inner()) {
		fprintf(stderr, "entrylab matrix: --resume %s: this is a fleet's plan: its tasks run "
				"through %s/submit.sh (or --run-one DIR --task ID), and --collect %s "
				"merges them\n", given.resume, given.resume, given.resume);
		return EL_EXIT_USAGE;
	}
	if ((rc = parse_options(s->argc, s->argv, &m->o))) {
		fprintf(stderr, "entrylab matrix: --resume %s: the options saved in %s (%s) do not "
				"parse (above); resume with the entrylab that started it\n",
			given.resume, MATRIX_PLAN_FILE, s->command);
		return rc;
	}
	m->o.resume = given.resume;
	m->o.done_runs = given.done_runs;
	m->o.verbose = m->o.verbose || given.verbose;
	if (given.json || given.csv_sep) {
		m->o.json = given.json;
		m->o.csv_sep = given.csv_sep;
	}
	if (given.nested != EL_NESTED_AUTO)
		m->o.nested = given.nested;
	m->o.cold = m->o.cold || given.cold;
	snprintf(m->id, sizeof(m->id), "%s", s->id);
	return 0;
}

int cmd_matrix(int argc, char **argv)
{
	static struct engine_probe engine; /* the facts hold paths: off the stack */
	struct matrix *m = calloc(1, sizeof(*m));
	struct matrix_saved saved = {0};
	struct matrix_dir d;
	bool inner = nested_is_inner(), usable;
	char *command = matrix_command(argc, argv); /* as typed: getopt reorders argv */
	int rc;

	if (!m || !command) {
		free(m);
		free(command);
		return EL_EXIT_VMM;
	}
	if ((rc = parse_options(argc, argv, &m->o)))
		goto out;
	if (m->o.run_one || m->o.collect) {
		rc = m->o.run_one ? matrix_fleet_run_one(&m->o) : matrix_fleet_collect(&m->o);
		goto out;
	}
	if ((m->o.resume && (rc = resume_options(m, &saved))) ||
	    (rc = experiment_resolve(m->o.experiment, m->path, sizeof(m->path)) ? EL_EXIT_USAGE
										: 0))
		goto out;
	if (experiment_load_as(m->path, m->o.resume ? fleet_origin(&saved) : NULL, &m->exp,
			       stderr)) {
		fprintf(stderr, "entrylab matrix: %s has problems (above); nothing was run\n",
			m->path);
		rc = EL_EXIT_USAGE;
		goto out;
	}
	if (m->o.scale_seed && experiment_scale_seed(&m->exp, stderr)) {
		rc = EL_EXIT_USAGE;
		goto out;
	}
	if ((rc = matrix_plan(m)) ||
	    (m->o.resume && (rc = matrix_plan_matches(m, &saved, m->o.resume))))
		goto out;
	if (m->o.emit) {
		rc = matrix_fleet_emit(m, command, argc, argv);
		goto out;
	}
	/* --trace needs no KVM: QEMU TCG here, so never the nested runner. */
	if ((rc = engine_select("matrix", &(struct engine_request){.bochs = m->o.bochs,
								   .trace = m->o.trace,
								   .nested = m->o.nested},
				&engine)))
		goto out;
	usable = engine.d.kind != ENGINE_NESTED;
	if (engine.d.kind == ENGINE_NATIVE)
		matrix_prerequisites(m);
	if ((rc = matrix_estimate(m, engine_nested_rate(&engine))))
		goto out;
	if (m->o.dry_run) {
		char line[ENGINE_LINE_MAX];

		matrix_dir_name(m, &d);
		matrix_print_plan(stdout, m, usable && !m->o.trace, d.runs);
		matrix_print_estimate(stdout, m);
		engine_line(&engine, line, sizeof(line));
		printf("%s\n", line);
		goto out;
	}
	if (inner) {
		rc = matrix_session_inner(m, m->o.resume ? &saved : NULL);
		goto out;
	}
	rc = matrix_session_host(m, m->o.resume ? &saved : NULL, command, argc, argv,
				 usable ? NULL : engine.d.reason, nested_boot_timeout(m));
out:
	matrix_saved_free(&saved);
	matrix_free(m);
	free(m->done);
	free(m);
	free(command);
	return rc;
}
