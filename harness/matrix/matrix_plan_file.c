/*
 * plan.json, the matrix directory's memory of what it set out to do
 * (matrix_run.h): written before the first boot, read by --resume, which
 * replays the saved options through the same parser and planner and
 * refuses when the result is not the same plan (the experiment file was
 * edited, the options mean something else now).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "matrix_run.h"
#include "report_save.h"
#include "status.h"

unsigned long matrix_file_hash(const char *path)
{
	char err[256];
	size_t len;
	char *text = io_read_file(path, 64u << 20, &len, err, sizeof(err));
	uint64_t h = 14695981039346656037ull;

	if (!text)
		return 0;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
	free(text);
	return (unsigned long)h;
}

static struct json_object *planned_runs(const struct matrix *m)
{
	struct json_object *runs = json_object_new_array();

	for (unsigned i = 0; i < m->nv; i++)
		for (unsigned run = 1; run <= m->repeat; run++) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "variant", json_object_new_string(
					       m->exp.variants[m->v[i].index].name));
			json_object_object_add(o, "run", json_object_new_int((int)run));
			json_object_array_add(runs, o);
		}
	return runs;
}

int matrix_plan_save(const struct matrix *m, const struct matrix_dir *d, const char *command,
		     int argc, char *const *argv, struct json_object *fleet)
{
	struct json_object *o = json_object_new_object(), *args = json_object_new_array();
	char file[PATH_MAX], hash[24], err[600];
	const char *slash = strrchr(d->runs, '/'), *text;
	int rc;

	if (!realpath(m->path, file))
		snprintf(file, sizeof(file), "%s", m->path);
	snprintf(hash, sizeof(hash), "%016lx", matrix_file_hash(m->path));
	/* The options as given, the experiment as the file it resolved to (any cwd works). */
	for (int i = 1; i < argc; i++)
		json_object_array_add(args, json_object_new_string(i == m->o.experiment_arg ? file
											   : argv[i]));
	json_object_object_add(o, "schema", json_object_new_string(MATRIX_PLAN_SCHEMA));
	json_object_object_add(o, "id", json_object_new_string(m->id));
	json_object_object_add(o, "experiment", json_object_new_string(m->exp.name));
	json_object_object_add(o, "file", json_object_new_string(file));
	json_object_object_add(o, "file_hash", json_object_new_string(hash));
	json_object_object_add(o, "command", json_object_new_string(command ? command : ""));
	json_object_object_add(o, "argv", args);
	json_object_object_add(o, "runs_file", json_object_new_string(slash ? slash + 1 : d->runs));
	json_object_object_add(o, "repeat", json_object_new_int((int)m->repeat));
	json_object_object_add(o, "trace", json_object_new_boolean(m->o.trace));
	json_object_object_add(o, "runs", planned_runs(m));
	if (fleet)
		json_object_object_add(o, "fleet", fleet);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = report_write_file(d->dir, MATRIX_PLAN_FILE, text, strlen(text), err, sizeof(err));
	if (rc)
		fprintf(stderr, "entrylab matrix: %s\n", err);
	json_object_put(o);
	return rc;
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : NULL;
}

static int plan_bad(const char *path, const char *what)
{
	fprintf(stderr, "entrylab matrix: --resume: %s %s; it is not a plan this entrylab wrote: "
			"start a new matrix (`entrylab matrix EXPERIMENT`)\n", path, what);
	return EL_EXIT_USAGE;
}

int matrix_plan_read(const char *dir, struct matrix_saved *s)
{
	char path[4200], err[4400];
	struct json_object *args;
	const char *hash;
	size_t len;
	char *text;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", dir, MATRIX_PLAN_FILE);
	if (access(path, F_OK) < 0) {
		fprintf(stderr, "entrylab matrix: --resume %s: there is no %s (%s); give the "
				"directory an interrupted matrix printed, e.g. "
				"results/pti-global/20261203T084512Z\n", dir, path, strerror(errno));
		return EL_EXIT_USAGE;
	}
	if (!(text = io_read_file(path, 16u << 20, &len, err, sizeof(err)))) {
		fprintf(stderr, "entrylab matrix: --resume: %s\n", err);
		return EL_EXIT_USAGE;
	}
	s->obj = json_tokener_parse(text);
	free(text);
	if (!s->obj || !json_object_is_type(s->obj, json_type_object))
		return plan_bad(path, "is not JSON");
	if (!get_str(s->obj, "schema") || strcmp(get_str(s->obj, "schema"), MATRIX_PLAN_SCHEMA))
		return plan_bad(path, "has another schema than " MATRIX_PLAN_SCHEMA);
	s->id = get_str(s->obj, "id");
	s->experiment = get_str(s->obj, "experiment");
	s->file = get_str(s->obj, "file");
	s->runs_file = get_str(s->obj, "runs_file");
	s->command = get_str(s->obj, "command");
	hash = get_str(s->obj, "file_hash");
	if (!s->id || !s->experiment || !s->file || !s->runs_file || !s->command || !hash ||
	    !json_object_object_get_ex(s->obj, "argv", &args) ||
	    !json_object_is_type(args, json_type_array) ||
	    json_object_array_length(args) > MATRIX_MAX_ARGV || strlen(s->id) >= 48)
		return plan_bad(path, "lacks id, experiment, file, file_hash, command, runs_file "
				      "or argv");
	s->hash = strtoul(hash, NULL, 16);
	s->argv[s->argc++] = "matrix";
	for (size_t i = 0; i < json_object_array_length(args); i++) {
		const char *a = json_object_get_string(json_object_array_get_idx(args, i));

		if (!a)
			return plan_bad(path, "has an argv entry that is not a string");
		s->argv[s->argc++] = (char *)a;
	}
	s->argv[s->argc] = NULL;
	return 0;
}

void matrix_saved_free(struct matrix_saved *s)
{
	json_object_put(s->obj);
	memset(s, 0, sizeof(*s));
}

int matrix_plan_matches(const struct matrix *m, const struct matrix_saved *s, const char *dir)
{
	struct json_object *now = planned_runs(m), *then;
	bool same;

	if (matrix_file_hash(m->path) != s->hash) {
		json_object_put(now);
		fprintf(stderr, "entrylab matrix: --resume %s: %s changed since the matrix started; "
				"its records would mix two experiments: restore the file, or "
				"start a new matrix\n", dir, m->path);
		return EL_EXIT_USAGE;
	}
	same = json_object_object_get_ex(s->obj, "runs", &then) &&
	       json_object_equal(now, then) && !strcmp(m->exp.name, s->experiment);
	json_object_put(now);
	if (!same) {
		fprintf(stderr, "entrylab matrix: --resume %s: replaying its options (%s) gives "
				"another list of runs than %s/%s holds; resume with the "
				"entrylab that started it, or start a new matrix\n", dir,
			s->command, dir, MATRIX_PLAN_FILE);
		return EL_EXIT_USAGE;
	}
	return 0;
}
