/*
 * The files a matrix leaves (summary.csv, report.md, SVG charts;
 * harness/report/report_save.h) for records: `entrylab compare --save DIR
 * FILE...` (compare_save), and a records file on disk, e.g. a resumed or
 * nested matrix's runs.jsonl (compare_save_records).  When the records come
 * from one experiment, its file (found by name, or given) shapes report.md:
 * headline, row labels, tables, and the columns of summary.csv.
 */
#include <errno.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare_load.h"
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

/* What shapes the report: the experiment file, loaded into exp (free it in any case). */
struct shape {
	struct el_experiment exp;
	struct report_row rows[EXP_MAX_VARIANTS];
	bool loaded;
};

/*
 * Loads experiment (a path or name; NULL: the one the records name) and
 * fills meta from it.  A given experiment that cannot be loaded is an error
 * (problems on stderr); one found through the records is only skipped.
 */
static int shape_load(struct shape *s, const struct report *r, const char *experiment,
		      struct report_meta *meta)
{
	const char *what = experiment ? experiment : records_experiment(r);
	FILE *problems;
	char path[4096];

	memset(&s->exp, 0, sizeof(s->exp));
	s->loaded = false;
	meta->experiment = what ? what : "compare";
	if (!what)
		return 0;
	problems = experiment ? stderr : fopen("/dev/null", "w");
	if (!experiment_resolve(what, path, sizeof(path)) &&
	    !experiment_load(path, &s->exp, problems ? problems : stderr)) {
		experiment_report_meta(&s->exp, s->rows, meta);
		s->loaded = true;
	}
	if (problems && problems != stderr)
		fclose(problems);
	return experiment && !s->loaded ? -1 : 0;
}

int compare_save(const struct report *r, const char *dir, const char *experiment, int argc,
		 char **argv)
{
	static struct shape s;
	struct report_meta meta = {0};
	char cmd[2048], err[512];
	int rc;

	if (shape_load(&s, r, experiment, &meta)) {
		fprintf(stderr,
			"entrylab compare: --experiment %s cannot be used (above); fix it "
			"or drop the option\n",
			experiment);
		experiment_free(&s.exp);
		return EL_EXIT_USAGE;
	}
	command_line(argc, argv, cmd, sizeof(cmd));
	meta.command = cmd;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "entrylab compare: cannot create %s: %s; give a directory that "
				"exists or can be made\n", dir, strerror(errno));
		experiment_free(&s.exp);
		return EL_EXIT_USAGE;
	}
	rc = report_save(r, dir, &meta, err, sizeof(err));
	if (rc)
		fprintf(stderr, "entrylab compare: %s\n", err);
	else
		fprintf(stderr, "entrylab compare: report in %s (report.md, summary.csv, charts)\n",
			dir);
	experiment_free(&s.exp);
	return rc ? EL_EXIT_VMM : 0;
}

/* The experiment's columns as `entrylab matrix` chooses them; the defaults otherwise. */
static void choose_metrics(struct report *r, const struct shape *s)
{
	const struct el_experiment *e = &s->exp;
	const char *metrics[EXP_MAX_METRICS];

	if (!s->loaded || !e->nmetrics || report_all_traces(r)) {
		report_default_metrics(r);
		return;
	}
	for (unsigned i = 0; i < e->nmetrics; i++)
		metrics[i] = e->metrics[i];
	report_experiment_columns(r, metrics, e->nmetrics, e->events);
}

int compare_save_records(const char *records, const char *experiment, const char *dir,
			 const struct report_meta *over, char *err, size_t errlen)
{
	static struct shape s;
	struct json_object *all = json_object_new_array();
	struct report_meta meta = {0};
	struct report r;
	unsigned bad = 0;
	int rc;

	if (!all || compare_load_file(records, all, &bad) < 0) {
		snprintf(err, errlen, "cannot read the records in %s; check the file", records);
		json_object_put(all);
		return -1;
	}
	report_init(&r);
	compare_build_groups(&r, all, true);
	shape_load(&s, &r, experiment, &meta);
	choose_metrics(&r, &s);
	report_resolve_baselines(&r);
	if (over) {
		meta.command = over->command;
		meta.runs_file = over->runs_file;
		meta.scale = over->scale;
		meta.planned = over->planned;
		meta.kept = over->kept;
		meta.interrupted = over->interrupted;
		if (!s.loaded && over->experiment)
			meta.experiment = over->experiment;
	}
	rc = report_save(&r, dir, &meta, err, errlen);
	experiment_free(&s.exp);
	report_free(&r);
	json_object_put(all);
	return rc;
}
