/*
 * `entrylab run`: validate everything, pick the engine (engine_select:
 * native KVM, the nested runner or Bochs), open the records file (a path
 * that cannot take records is a usage error before any boot), then boot
 * once per --repeat, write one record per boot, and print one aggregate of
 * them all (summary.h).  --dry-run stops before the file: what would boot,
 * and the engine with its reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bochs.h"
#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "nested.h"
#include "record.h"
#include "record_out.h"
#include "report.h"
#include "status.h"
#include "summary.h"

/* One record per boot: KVM here (record_run), or Bochs (bochs_record_run). */
static struct json_object *run_once(struct el_cli_run *cli, const struct el_host_info *host,
				    struct el_run_result *res)
{
	if (cli->bochs)
		return bochs_record_run(&cli->req, &cli->spec, host, cli->cpu_model, res);
	return record_run(&cli->req, &cli->spec, host, res);
}

static int run_native(struct el_cli_run *cli, struct record_out *out)
{
	struct el_host_info host;
	struct summary_agg agg;
	int exit_code = 0;
	unsigned r;

	host_info_collect(&host, nested_is_inner());
	if (cli->bochs) {
		host.kvm = "bochs"; /* as the records say (bochs_record_run) */
		host.pmu = "none";
	}
	summary_agg_init(&agg, cli);

	for (r = 0; r < cli->req.repeat && !out->failed; r++) {
		struct el_run_result res;
		struct json_object *rec;
		int code;

		rec = run_once(cli, &host, &res);
		code = record_exit_code(&res);
		/* A lost record outweighs whatever the guest said: the result is gone. */
		if (record_out_append(out, rec))
			code = exit_code = EL_EXIT_VMM;
		summary_agg_add(&agg, cli, &res);
		if (cli->req.repeat > 1 && !out->failed)
			summary_progress(stderr, cli, &res, r);
		report_problem(stderr, &res);
		json_object_put(rec);
		el_run_result_free(&res);
		if (code && !exit_code)
			exit_code = code;
	}
	if (out->failed && r < cli->req.repeat)
		fprintf(stderr, "entrylab run: stopped after %u of %u runs: records cannot be "
				"written\n", r, cli->req.repeat);
	/* One aggregate after the last run, as perf stat -r N prints it. */
	summary_print(stdout, cli, &host, &agg, nested_is_inner() || out->failed ? NULL : out->path);
	fflush(stdout);
	return exit_code;
}

/* Nothing of the guest or the VMM was measured: those fields say so (null), not 0. */
static void record_unmeasured(struct json_object *rec)
{
	struct json_object *guest;

	if (json_object_object_get_ex(rec, "guest", &guest))
		json_object_object_add(guest, "vcpu_cpuid", NULL);
	json_object_object_add(rec, "vmm", NULL);
	json_object_object_add(rec, "console", NULL);
}

/*
 * The nested runner's deadline passed and QEMU was killed before the boot
 * in flight shipped its record: the host writes that boot's record itself,
 * status timeout, so the result is not lost.
 */
static void run_nested_timeout_record(const struct el_cli_run *cli, struct record_out *out)
{
	struct el_host_info host;
	struct el_run_result res = {.status = EL_RUN_TIMEOUT};
	struct json_object *rec;

	snprintf(res.detail, sizeof(res.detail), "the nested runner's deadline for the whole run "
		 "passed (--timeout %g per boot plus its boot and output); the nested VM was "
		 "killed before this boot's record came back", cli->req.timeout_s);
	host_info_collect(&host, true);
	rec = record_build(&cli->req, &cli->spec, &host, &res);
	if (rec)
		record_unmeasured(rec);
	if (rec && !record_out_append(out, rec))
		fprintf(stderr, "entrylab run: wrote a timeout record for the boot the nested VM "
				"did not finish\n");
	json_object_put(rec);
}

/*
 * The host files the nested command needs: --exec, --kernel (or the default
 * kernel), and each --file.  The runner carries regular files only (they
 * appear at the same paths inside), so a --file directory is refused here
 * with the way round it.  files has room for 2 + EL_FILES_MAX + 1.
 */
static int nested_files(const struct el_cli_run *cli, bool add_kernel, const char **files)
{
	int n = 0;

	if (cli->req.exec)
		files[n++] = cli->req.exec;
	if (cli->req.kernel || add_kernel)
		files[n++] = cli->req.kernel ? cli->req.kernel : cli->prog.kernel_path;
	for (unsigned i = 0; i < cli->req.nr_files; i++) {
		struct stat st;

		if (stat(cli->req.files[i].host, &st) == 0 && !S_ISREG(st.st_mode))
			return cli_bad("run", "give its files one --file each, or run where "
				       "/dev/kvm is", "--file %s is a directory, and the nested "
				       "runner carries regular files only", cli->req.files[i].host);
		files[n++] = cli->req.files[i].host;
	}
	files[n] = NULL;
	return 0;
}

/*
 * The whole command, as typed, in the nested runner's VM, with the files it
 * needs.  --guest linux without --kernel: the default kernel as resolved
 * here (program.h, linux_kernel_default) is sent and named with --kernel, so
 * the inner command boots that very file.  Measured on the 2-core CI VM: the
 * 63 MiB vmlinux costs ~2 s more to send than the 8 MiB bzImage, while the
 * bzImage's decompression costs ~3-9 s more of every boot there (xz under
 * TCG): the default kernel stays the vmlinux.
 */
static int run_nested(int argc, char **argv, const struct el_cli_run *cli,
		      struct record_out *out, const char *why)
{
	const char *files[2 + EL_FILES_MAX + 1] = {NULL};
	bool add_kernel = cli->req.guest == EL_GUEST_LINUX && !cli->req.kernel;
	char **inner = calloc((size_t)argc + 4, sizeof(*inner));
	int n = 0, rc;

	if (!inner) {
		fprintf(stderr, "entrylab run: out of memory\n");
		return EL_EXIT_VMM;
	}
	if ((rc = nested_files(cli, add_kernel, files))) {
		free(inner);
		return rc;
	}
	inner[n++] = argv[-1];
	inner[n++] = argv[0];
	if (add_kernel) {
		inner[n++] = "--kernel";
		inner[n++] = (char *)cli->prog.kernel_path;
	}
	for (int i = 1; i < argc; i++)
		inner[n++] = argv[i];
	inner[n] = NULL;
	rc = nested_run(&(struct nested_request){
		.argc = n, .argv = inner, .output = out, .files = files, .why = why,
		.verbose = cli->req.verbose, .timeout_s = cli->req.timeout_s,
		.cold = cli->nested_cold,
		.boots = cli->req.repeat,
		.expects_record = true,
	});
	free(inner);
	if (rc == EL_EXIT_TIMEOUT && !out->failed && out->written < cli->req.repeat)
		run_nested_timeout_record(cli, out);
	if (!out->failed && out->written)
		fprintf(stderr, "entrylab: records appended to %s\n", out->path);
	return rc;
}

/*
 * --dry-run: everything checked as for a run (options, programs, --timeout,
 * the -o path, the engine), then what would boot, the engine and why; no
 * VM, no file.
 */
static int run_dry(const struct el_cli_run *cli, const struct engine_probe *engine, bool slow)
{
	char err[4200], line[ENGINE_LINE_MAX];
	struct el_estimate e;

	if (cli->output && record_out_check(cli->output, err, sizeof(err))) {
		fprintf(stderr, "entrylab run: output %s\n", err);
		return EL_EXIT_USAGE;
	}
	request_estimate(&cli->req, slow, &e);
	printf("entrylab run --dry-run: %u boot(s), a fresh VM each; nothing booted\n",
	       cli->req.repeat);
	printf("  program   %s", cli->req.exec ? cli->req.exec : cli->req.bench ? cli->req.bench
									: "(boot only)");
	for (int i = 0; i < cli->req.nargs; i++)
		printf(" %s", cli->req.args[i]);
	printf("\n  cpu       %s\n  append    %s\n", cli->req.cpu_spec,
	       cli->req.append && *cli->req.append ? cli->req.append : "(none)");
	if (cli->req.guest == EL_GUEST_LINUX) {
		char release[65];

		linux_release(cli->prog.kernel, &cli->prog.linux_image, release, sizeof(release));
		printf("  guest     linux: %s (%s%s%s%s)\n", cli->prog.kernel_path,
		       linux_kind_names[cli->prog.linux_image.kind], release[0] ? ", Linux " : "",
		       release, cli->req.kernel ? "" : "; the default, the nested runner's kernel");
	} else if (cli->req.kernel) {
		printf("  kernel    %s\n", cli->req.kernel);
	}
	if (cli->req.events)
		printf("  events    %s\n", cli->req.events);
	printf("  memory    %lluM\n", (unsigned long long)(cli->req.mem_bytes >> 20));
	printf("  timeout   %.0f s per boot", cli->req.timeout_s);
	if (e.known)
		printf(" (estimate ~%.1f s: %llu %ss at ~%.0f ns + boot)", e.run_s,
		       (unsigned long long)e.iterations, e.unit, e.per_iter_ns);
	printf("\n  records   %s\n", cli->output ? cli->output
					 : "a new file under results/ (default; -o FILE to choose)");
	engine_line(engine, line, sizeof(line));
	printf("%s\n", line);
	return 0;
}

static int run_command(int argc, char **argv, struct el_cli_run *cli)
{
	static struct engine_probe engine; /* the facts hold paths: off the stack */
	char defpath[256];
	const char *output = nested_is_inner() ? nested_inner_output() : cli->output;
	struct record_out out;
	bool usable, slow;
	int rc;

	if ((rc = engine_select("run", &(struct engine_request){.bochs = cli->bochs,
								.nested = cli->nested},
				&engine)))
		return rc;
	usable = engine.d.kind != ENGINE_NESTED;
	slow = engine_nested_rate(&engine);
	/* a timeout shorter than the work asked for is refused before anything is created */
	if ((rc = cli_timeout("run", cli, slow)))
		return rc;
	if (cli->dry_run)
		return run_dry(cli, &engine, slow);
	if (!output) {
		if (record_default_path(cli->req.bench, defpath, sizeof(defpath)))
			return EL_EXIT_USAGE;
		output = defpath;
	}
	if ((rc = record_out_open(&out, "run", output)))
		return rc;
	nested_inner_test_crash(); /* tests only: ENTRYLAB_TEST_INNER_CRASH */
	rc = usable ? run_native(cli, &out) : run_nested(argc, argv, cli, &out, engine.d.reason);
	if (record_out_close(&out) && !rc)
		rc = EL_EXIT_VMM;
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct el_cli_run cli;
	int rc = cli_run_parse(argc, argv, &cli);

	if (!rc)
		rc = cli_prepare("run", &cli);
	if (!rc)
		rc = run_command(argc, argv, &cli);
	cli_free(&cli);
	return rc;
}
