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

#include "blobs.h"
#include "cli.h"
#include "cmdline.h"
#include "commands.h"
#include "nested.h"
#include "record.h"
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

static int run_native(struct el_cli_run *cli, const char *output)
{
	struct el_host_info host;
	unsigned char *kernel = NULL;
	int exit_code = 0;
	unsigned r;

	if (cli->kernel) {
		kernel = file_read(cli->kernel, &cli->spec.kernel_len);
		if (!kernel)
			return EL_EXIT_USAGE;
		cli->spec.kernel = kernel;
	} else {
		cli->spec.kernel = entrylab_kernel;
		cli->spec.kernel_len = (size_t)(entrylab_kernel_end - entrylab_kernel);
	}
	host_info_collect(&host, nested_is_inner());

	for (r = 0; r < cli->repeat; r++) {
		struct el_run_result res;
		struct json_object *rec;
		int code;

		el_vm_run(&cli->spec, &res);
		if (res.status == EL_RUN_OK && config_mismatch(cli, &res, false) && cli->strict) {
			res.status = EL_RUN_UNSUPPORTED;
			snprintf(res.detail, sizeof(res.detail),
				 "--strict: the guest could not set up what --append asked "
				 "(see guest.config); drop --strict or the knob");
		}
		code = record_exit_code(&res);
		rec = record_build(cli, &host, &res);
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
	free(kernel);
	return exit_code;
}

int cmd_run(int argc, char **argv)
{
	struct el_cli_run cli;
	char defpath[256];
	const char *output;
	int rc = cli_run_parse(argc, argv, &cli);

	if (rc)
		return rc;
	if (cli.bench || cli.exec) {
		fprintf(stderr, "entrylab run: unknown benchmark '%s'; `entrylab list benches` lists "
				"them\n", cli.bench ? cli.bench : cli.exec);
		return EL_EXIT_USAGE;
	}
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
		if (!usable)
			return nested_run(argc + 1, argv - 1, output, NULL);
	}
	return run_native(&cli, output);
}
