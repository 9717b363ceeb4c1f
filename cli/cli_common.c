/*
 * What `run` and `trace` share on the command line: the options that mean
 * the same in both, their validation, and the checks once all are parsed.
 * One place, so a value accepted by one is accepted by the other.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bochs.h"
#include "cli.h"
#include "el_limits.h"
#include "files.h"
#include "parse_num.h"
#include "region_scope.h"
#include "status.h"

int cli_bad(const char *cmd, const char *fix, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "entrylab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; %s\n", fix);
	return EL_EXIT_USAGE;
}

int cli_opt_file(void *obj, const char *arg, struct el_opt_state *st)
{
	struct el_cli_run *cli = obj;
	char why[400];

	if (cli->req.nr_files >= EL_FILES_MAX)
		return cli_bad(st->t->cmd, "pack a directory holding them instead",
			       "more than %u --file options", EL_FILES_MAX);
	if (files_parse(arg, &cli->files[cli->req.nr_files], why, sizeof(why))) {
		fprintf(stderr, "entrylab %s: %s\n", st->t->cmd, why);
		return EL_EXIT_USAGE;
	}
	cli->req.files = cli->files;
	cli->req.nr_files++;
	return 0;
}

int cli_opt_guest(void *obj, const char *arg, struct el_opt_state *st)
{
	struct el_cli_run *cli = obj;

	for (int k = 0; k < EL_GUEST_KINDS; k++) {
		if (!strcmp(arg, el_guest_kind_names[k])) {
			cli->req.guest = (enum el_guest_kind)k;
			return 0;
		}
	}
	return cli_bad(st->t->cmd, "give --guest entrylab (our kernel) or --guest linux",
		       "--guest '%s' is not a guest kind", arg);
}

int cli_opt_region(void *obj, const char *arg, struct el_opt_state *st)
{
	struct el_cli_run *cli = obj;

	if (region_scope_parse(arg, &cli->req.region))
		return cli_bad(st->t->cmd, "give --region marked (what the program's markers "
			       "bracket) or --region whole (the whole program, as perf stat counts "
			       "it)", "--region '%s' is not a region", arg);
	return 0;
}

int cli_opt_memory(void *obj, const char *arg, struct el_opt_state *st)
{
	struct el_cli_run *cli = obj;
	char why[400];

	if (el_parse_size(arg, &cli->req.mem_bytes))
		return cli_bad(st->t->cmd, "give e.g. -m 256M or -m 1G",
			       "--memory '%s' is not a size", arg);
	if (el_limits_mem_check(cli->req.mem_bytes, why, sizeof(why))) {
		fprintf(stderr, "entrylab %s: --memory '%s': %s\n", st->t->cmd, arg, why);
		return EL_EXIT_USAGE;
	}
	return 0;
}

int cli_engine_word(const char *cmd, const char *arg, bool *bochs)
{
	if (strcmp(arg, "kvm") && strcmp(arg, "bochs"))
		return cli_bad(cmd, "give --engine kvm or --engine bochs",
			       "--engine '%s' is not an engine", arg);
	*bochs = !strcmp(arg, "bochs");
	return 0;
}

void cli_parsed(const struct el_opt_state *st, struct el_cli_run *cli)
{
	cli->req.timeout_given = el_opt_seen(st, 0, "timeout");
	if (optind < st->argc && !cli->req.exec)
		cli->req.bench = st->argv[optind++];
	cli->req.args = st->argv + optind;
	cli->req.nargs = st->argc - optind;
}

int cli_finish(const char *cmd, struct el_cli_run *cli)
{
	int rc;

	if (cli->json && cli->csv_sep)
		return cli_bad(cmd, "choose one output format", "%s", "--json and -x both given");
	if ((rc = request_finish(cmd, &cli->req, &cli->spec)))
		return rc;
	cli->spec.program_output_to_stderr = cli->json || cli->csv_sep;
	return 0;
}

int cli_prepare(const char *cmd, struct el_cli_run *cli)
{
	return request_programs(cmd, &cli->req, &cli->prog, &cli->spec);
}

int cli_timeout(const char *cmd, struct el_cli_run *cli, bool nested)
{
	struct el_estimate e;
	char fix[160], args[256] = "";
	size_t o = 0;

	request_estimate(&cli->req, nested, &e);
	if (!cli->req.timeout_given) {
		cli->req.timeout_s = cli->spec.timeout_s = request_estimate_timeout(&e);
		return 0;
	}
	if (!e.known || e.run_s <= cli->req.timeout_s)
		return 0;
	for (int i = 0; i < cli->req.nargs && o < sizeof(args); i++)
		o += (size_t)snprintf(args + o, sizeof(args) - o, " %s", cli->req.args[i]);
	snprintf(fix, sizeof(fix), "give --timeout %.0f, fewer iterations, or no --timeout (then "
		 "it follows from the work)", request_estimate_timeout(&e));
	return cli_bad(cmd, fix, "%s%s is estimated at ~%.0f s per boot %s (%llu %ss at ~%.0f ns "
		       "+ boot), longer than --timeout %g", cli->req.bench, args, e.run_s,
		       nested ? "in the nested runner" : "on KVM", (unsigned long long)e.iterations,
		       e.unit, e.per_iter_ns, cli->req.timeout_s);
}

void cli_free(struct el_cli_run *cli)
{
	programs_free(&cli->prog);
}

void cli_limits_help(FILE *f)
{
	fprintf(f, "Limits (common/el_limits.h): -m a multiple of 4 KiB in %lluM..%lluG; --kernel\n"
		   "FILE at most %llu MiB, --exec FILE at most %llu MiB (size and ELF headers are\n"
		   "checked before the file is read); --file at most %u times, %u files and\n"
		   "directories and %llu MiB in all.\n",
		EL_MEM_MIN >> 20, EL_MEM_MAX >> 30, EL_KERNEL_FILE_MAX >> 20, EL_EXEC_FILE_MAX >> 20,
		EL_FILES_MAX, EL_FILES_ENTRIES_MAX, EL_FILES_BYTES_MAX >> 20);
}

int cli_engine_check(const char *cmd, const struct el_cli_run *cli, bool cpu_given,
		     bool other_given)
{
	char err[300];

	if (cli->bochs && cli->req.guest == EL_GUEST_LINUX)
		return cli_bad(cmd, "run Linux on KVM (drop --engine bochs; without /dev/kvm the "
			       "nested runner takes it) or under `entrylab trace --guest linux`",
			       "--guest linux with --engine bochs: the Bochs engine boots our kernel "
			       "from a GRUB ISO only");
	if (!cli->bochs) {
		if (cli->cpu_model)
			return cli_bad(cmd, "add --engine bochs, or drop --cpu-model (KVM's CPU is "
				       "--cpu)", "--cpu-model '%s' is for --engine bochs",
				       cli->cpu_model);
		return 0;
	}
	if (!cli->cpu_model || bochs_model_check(cli->cpu_model, err, sizeof(err))) {
		if (!cli->cpu_model)
			snprintf(err, sizeof(err), "--engine bochs needs --cpu-model; choose one "
				 "of those below (e.g. --cpu-model corei7_haswell_4770)");
		fprintf(stderr, "entrylab %s: %s\n", cmd, err);
		bochs_models_print(stderr);
		return EL_EXIT_USAGE;
	}
	if (cpu_given)
		return cli_bad(cmd, "drop --cpu: under Bochs the CPU is --cpu-model's",
			       "--cpu with --engine bochs");
	if (other_given || cli->req.events)
		return cli_bad(cmd, "drop -e, --pin, --nested and --no-nested: Bochs has no PMU, "
			       "no vCPU thread and no nested runner",
			       "-e, --pin or --nested with --engine bochs");
	return 0;
}
