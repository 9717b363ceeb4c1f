/*
 * `entrylab trace`: the request prepared as `run` prepares it, the guest
 * booted under QEMU TCG with the eltrace plugin (never KVM, never the
 * nested runner; harness/trace/ does the work), then the record, the table
 * on stdout and, with --listing, the path.  The records file is checked
 * and opened before QEMU starts: a path that cannot take it is a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "record.h"
#include "record_out.h"
#include "report.h"
#include "status.h"
#include "trace.h"

static void trace_print(const struct el_cli_trace *cli, const struct el_trace_job *job,
			struct json_object *rec, const struct el_run_result *res,
			const struct el_trace_result *out, const char *output)
{
	FILE *listing = cli->run.json || cli->run.csv_sep ? stderr : stdout;
	uint64_t it = cli->run.req.iterations;

	if (cli->run.json)
		/* One line: what --json writes is JSON lines, like the records file. */
		printf("%s\n", json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
								JSON_C_TO_STRING_NOSLASHESCAPE));
	else if (cli->run.csv_sep)
		fprintf(stdout, "%s%sstatus%s%s\n", record_status(res), cli->run.csv_sep,
			cli->run.csv_sep, res->status == EL_RUN_OK ? "ok" : res->detail);
	if (out->have_data && cli->run.csv_sep)
		trace_csv(stdout, cli->run.csv_sep, &out->d, &out->t, it);
	else if (out->have_data && !cli->run.json)
		trace_summary(stdout, job, res, &out->d, &out->t, output);
	if (out->have_data && !out->not_measured && cli->opts.listing)
		trace_listing(listing, &out->d, &out->m, it);
	report_problem(stderr, res);
	/* The program may have run fine: its status stands, the measurement did not happen. */
	if (out->not_measured)
		fprintf(stderr, "entrylab trace: not measured: %s; the exit status is %s\n",
			out->not_measured,
			res->status == EL_RUN_OK ? "the program's" : "the run's");
	fflush(stdout);
}

static int trace_command(struct el_cli_trace *cli)
{
	struct el_trace_job job = {
		.req = &cli->run.req, .spec = &cli->run.spec, .prog = &cli->run.prog,
		.opts = cli->opts,
	};
	struct el_trace_result out;
	struct record_out rout;
	struct el_run_result res;
	struct json_object *rec;
	char defpath[256];
	const char *output = cli->run.output;
	int rc;

	if ((rc = trace_prepare(&job)))
		goto out;
	if (!output) {
		char name[80];

		snprintf(name, sizeof(name), "trace-%s",
			 cli->run.req.bench ? cli->run.req.bench : "exec");
		rc = EL_EXIT_USAGE;
		if (record_default_path(name, defpath, sizeof(defpath)))
			goto out;
		output = defpath;
	}
	if ((rc = record_out_open(&rout, "trace", output)))
		goto out;
	rec = trace_once(&job, &res, &out);
	/* The table and listing divide by the count the region was declared with. */
	cli->run.req.iterations = out.iterations;
	rc = record_exit_code(&res);
	/* A lost record outweighs whatever the guest said: the result is gone. */
	if (record_out_append(&rout, rec) | record_out_close(&rout))
		rc = EL_EXIT_VMM;
	trace_print(cli, &job, rec, &res, &out, rout.failed ? NULL : output);
	json_object_put(rec);
	trace_result_free(&out);
out:
	trace_job_free(&job);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	struct el_cli_trace cli;
	int rc = cli_trace_parse(argc, argv, &cli);

	if (!rc)
		rc = cli_prepare("trace", &cli.run);
	if (!rc)
		rc = trace_command(&cli);
	cli_free(&cli.run);
	return rc;
}
