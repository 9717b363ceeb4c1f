/*
 * `entrylab run`: validate everything, pick native KVM or the nested
 * runner, then boot once per --repeat and write one record per boot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "blobs.h"
#include "cli.h"
#include "cmdline.h"
#include "commands.h"
#include "initrd.h"
#include "nested.h"
#include "record.h"
#include "run_once.h"
#include "status.h"
#include "summary.h"

/* Reads a whole file (a --kernel image); NULL after printing why. */
static unsigned char *file_read(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "entrylab: cannot read %s: %s; give the path of a file\n", path,
			fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (n != st.st_size) {
		fprintf(stderr, "entrylab: short read of %s\n", path);
		free(buf);
		return NULL;
	}
	*len = (size_t)st.st_size;
	return buf;
}

/* Knobs given on --append that the guest could not honour; 1 if any. */
static int config_mismatch(const struct el_cli_run *cli, const struct el_run_result *res,
			   bool quiet)
{
	struct el_cmdline want;
	int bad = 0;
	unsigned i;

	if (!res->have_boot || el_cmdline_parse(cli->append, &want, NULL, NULL))
		return 0;
	for (i = 0; i < EL_CFG_COUNT; i++) {
		uint8_t got = res->boot.config[i];

		if (!want.given[i] || got == want.requested[i])
			continue;
		bad = 1;
		if (!quiet)
			fprintf(stderr, "entrylab: %s: asked %s, the guest set up %s\n",
				el_config[i].key, el_config[i].values[want.requested[i]],
				got == EL_CONFIG_UNAVAILABLE ? "nothing (the vCPU lacks a feature)"
				: got < EL_CONFIG_UNAVAILABLE ? el_config[i].values[got] : "?");
	}
	return bad;
}

struct json_object *run_once(struct el_cli_run *cli, const struct el_host_info *host,
			     struct el_run_result *res)
{
	el_vm_run(&cli->spec, res);
	if (res->status == EL_RUN_OK && config_mismatch(cli, res, false) && cli->strict) {
		res->status = EL_RUN_UNSUPPORTED;
		snprintf(res->detail, sizeof(res->detail),
			 "--strict: the guest could not set up what --append asked "
			 "(see guest.config); drop --strict or the knob");
	}
	return record_build(cli, host, res);
}

static int run_native(struct el_cli_run *cli, const char *output)
{
	struct el_host_info host;
	int exit_code = 0;
	unsigned r;

	host_info_collect(&host, nested_is_inner());

	for (r = 0; r < cli->repeat; r++) {
		struct el_run_result res;
		struct json_object *rec;
		int code;

		rec = run_once(cli, &host, &res);
		code = record_exit_code(&res);
		if (record_append(output, rec) && code == 0)
			code = EL_EXIT_VMM;
		if (cli->json)
			printf("%s\n", json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PRETTY |
									JSON_C_TO_STRING_NOSLASHESCAPE));
		else if (cli->csv_sep)
			summary_csv(stdout, cli, &res);
		else
			summary_print(stdout, cli, &host, &res, nested_is_inner() ? NULL : output);
		summary_problem(stderr, &res);
		json_object_put(rec);
		el_run_result_free(&res);
		if (code && !exit_code)
			exit_code = code;
		else if (!exit_code)
			exit_code = code;
		fflush(stdout);
	}
	return exit_code;
}

/* Storage for the one program a command runs (one per process). */
static struct el_cpio program_initrd;
static char program_args_quoted[3072];
static char *program_argv[64];
static char program_default_args[256];
static char program_iter[24];
static unsigned char *program_exec_image;
static unsigned char *program_kernel_image;

/* Benchmark arguments: the defaults when none are given, -n substituted. */
static int program_args(struct el_cli_run *cli, const struct el_bench *b)
{
	int n = 0;

	if (cli->nargs == 0 && b) {
		char *save, *tok;

		snprintf(program_default_args, sizeof(program_default_args), "%s", b->default_args);
		for (tok = strtok_r(program_default_args, " ", &save); tok && n < 63;
		     tok = strtok_r(NULL, " ", &save))
			program_argv[n++] = tok;
	} else {
		for (n = 0; n < cli->nargs && n < 63; n++)
			program_argv[n] = cli->args[n];
		if (cli->nargs >= 63) {
			fprintf(stderr, "entrylab run: more than 62 program arguments\n");
			return EL_EXIT_USAGE;
		}
	}
	if (cli->iterations) {
		if (!b) {
			fprintf(stderr, "entrylab run: -n applies to the built-in benchmarks; pass "
					"your program's own arguments after --exec FILE\n");
			return EL_EXIT_USAGE;
		}
		snprintf(program_iter, sizeof(program_iter), "%llu",
			 (unsigned long long)cli->iterations);
		if ((int)b->iter_arg >= n) {
			fprintf(stderr, "entrylab run: -n: %s takes its iteration count as argument "
					"%u; give the arguments before it too (defaults: %s)\n",
				b->name, b->iter_arg + 1, b->default_args);
			return EL_EXIT_USAGE;
		}
		program_argv[b->iter_arg] = program_iter;
	} else if (b && (int)b->iter_arg < n) {
		uint64_t it;

		if (!cli_parse_u64(program_argv[b->iter_arg], 1, UINT64_MAX, &it))
			cli->iterations = it;
	}
	program_argv[n] = NULL;
	cli->args = program_argv;
	cli->nargs = n;
	return 0;
}

/*
 * Everything about the program, checked before anything boots: the
 * benchmark exists or --exec names a runnable static binary; the initrd
 * around it; its arguments for the guest command line.
 */
static int program_prepare(struct el_cli_run *cli)
{
	const struct el_bench *b = NULL;
	const unsigned char *image;
	size_t len;
	char err[512];
	int rc;

	if (!cli->bench && !cli->exec) {
		if (cli->iterations) {
			fprintf(stderr, "entrylab run: -n needs a benchmark; `entrylab list benches`\n");
			return EL_EXIT_USAGE;
		}
		return 0;
	}
	if (cli->exec) {
		program_exec_image = file_read(cli->exec, &len);
		if (!program_exec_image)
			return EL_EXIT_USAGE;
		if (exec_check(program_exec_image, len, err, sizeof(err))) {
			fprintf(stderr, "entrylab run: --exec %s: %s\n", cli->exec, err);
			return EL_EXIT_USAGE;
		}
		image = program_exec_image;
	} else {
		b = bench_find(cli->bench);
		if (!b) {
			fprintf(stderr, "entrylab run: unknown benchmark '%s'; `entrylab list benches` "
					"lists them, --exec FILE runs your own program\n", cli->bench);
			return EL_EXIT_USAGE;
		}
		image = b->image;
		len = b->image_len;
	}
	if ((rc = program_args(cli, b)))
		return rc;
	if (initrd_quote_args(program_args_quoted, sizeof(program_args_quoted), cli->args,
			      cli->nargs, err, sizeof(err))) {
		fprintf(stderr, "entrylab run: %s\n", err);
		return EL_EXIT_USAGE;
	}
	el_cpio_init(&program_initrd);
	if (initrd_build(&program_initrd, image, len)) {
		fprintf(stderr, "entrylab run: cannot build the initrd: %s\n", program_initrd.error);
		return EL_EXIT_VMM;
	}
	cli->spec.initrd = program_initrd.buf;
	cli->spec.initrd_len = program_initrd.len;
	cli->spec.init_args = program_args_quoted;
	return 0;
}

int run_prepare(struct el_cli_run *cli)
{
	int rc;

	/* A second program in the same process (matrix): drop the first one. */
	el_cpio_free(&program_initrd);
	free(program_exec_image);
	free(program_kernel_image);
	program_exec_image = program_kernel_image = NULL;
	if ((rc = program_prepare(cli)))
		return rc;
	if (cli->kernel) {
		program_kernel_image = file_read(cli->kernel, &cli->spec.kernel_len);
		if (!program_kernel_image)
			return EL_EXIT_USAGE;
		cli->spec.kernel = program_kernel_image;
	} else {
		cli->spec.kernel = entrylab_kernel;
		cli->spec.kernel_len = (size_t)(entrylab_kernel_end - entrylab_kernel);
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct el_cli_run cli;
	char defpath[256];
	const char *output;
	int rc = cli_run_parse(argc, argv, &cli);

	if (rc)
		return rc;
	if ((rc = run_prepare(&cli)))
		return rc;
	output = nested_is_inner() ? nested_inner_output() : cli.output;
	if (!output) {
		if (record_default_path(cli.bench, defpath, sizeof(defpath)))
			return EL_EXIT_USAGE;
		output = defpath;
	}

	if (!nested_is_inner()) {
		bool usable = cli.nested == EL_NESTED_FORCE ? false : nested_kvm_usable();

		if (!usable && cli.nested == EL_NESTED_FORBID) {
			fprintf(stderr, "entrylab run: /dev/kvm is not usable here and --no-nested "
					"forbids the nested runner; drop --no-nested or run on a "
					"host with KVM\n");
			return EL_EXIT_UNSUPPORTED;
		}
		if (!usable) {
			const char *files[] = {cli.exec, cli.kernel, NULL};

			if (!cli.exec) {
				files[0] = cli.kernel;
				files[1] = NULL;
			}
			return nested_run(argc + 1, argv - 1, output, files);
		}
	}
	return run_native(&cli, output);
}
