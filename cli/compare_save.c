/*
 * `entrylab compare --save DIR FILE...`: the files a matrix leaves
 * (summary.csv, report.md, SVG charts; harness/report/report_save.h) for
 * any records.  When the records come from one experiment, its file (found
 * by name, or --experiment) gives report.md its seed's shape: headline,
 * row labels, tables.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare_save.h"
#include "experiment.h"
#include "report_save.h"
#include "status.h"

/* The experiment all records name, NULL if none or several. */
static const char *records_experiment(const struct report *r)
{
	const char *name = NULL;

	for (unsigned g = 0; g < r->n; g++)
		for (size_t k = 0; k < json_object_array_length(r->g[g].runs); k++) {
			const char *e = report_str_at(json_object_array_get_idx(r->g[g].runs, k),
						      "experiment.name");

			if (!e || (name && strcmp(name, e)))
				return NULL;
			name = e;
		}
	return name;
}

static void command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "entrylab");

	for (int i = 0; i < argc && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s", argv[i]);
}

int compare_save(const struct report *r, const char *dir, const char *experiment, int argc,
		 char **argv)
{
	static struct el_experiment exp;
	static struct report_row rows[EXP_MAX_VARIANTS];
	struct report_meta meta = {0};
	const char *what = experiment ? experiment : records_experiment(r);
	char path[4096], cmd[2048], err[512];
	bool loaded = false;
	int rc;

	if (what) {
		FILE *quiet = experiment ? stderr : fopen("/dev/null", "w");

		if (!experiment_resolve(what, path, sizeof(path)) &&
		    !experiment_load(path, &exp, quiet ? quiet : stderr)) {
			experiment_report_meta(&exp, rows, &meta);
			loaded = true;
		} else if (experiment) {
			fprintf(stderr,
				"entrylab compare: --experiment %s cannot be used (above); "
				"fix it or drop the option\n",
				experiment);
			if (quiet && quiet != stderr)
				fclose(quiet);
			experiment_free(&exp);
			return EL_EXIT_USAGE;
		}
		if (quiet && quiet != stderr)
			fclose(quiet);
	}
	if (!loaded)
		meta.experiment = what ? what : "compare";
	command_line(argc, argv, cmd, sizeof(cmd));
	meta.command = cmd;
	rc = report_save(r, dir, &meta, err, sizeof(err));
	if (rc)
		fprintf(stderr, "entrylab compare: %s\n", err);
	else
		fprintf(stderr, "entrylab compare: report in %s (report.md, summary.csv, charts)\n",
			dir);
	experiment_free(&exp);
	return rc ? EL_EXIT_VMM : 0;
}
