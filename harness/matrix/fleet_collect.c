/*
 * --collect's reading half (fleet.h): each task's part checked against the
 * plan before it counts, the merged records file, and the list of what is
 * still to do with the exact command that does it.  A part is trusted no
 * more than any input: it must be this fleet's (experiment id), this
 * entrylab's (version) and this task's (task, class, variant, run), or it
 * is refused and named, never merged.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "host_io.h"
#include "report_save.h"
#include "status.h"

static int int_at(struct json_object *o, const char *a, const char *b, int dflt)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &o) || !o || !json_object_object_get_ex(o, b, &v) ||
	    !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int(v);
}

/* Why rec is not task t's record, or NULL when it is. */
static const char *refusal(const struct matrix *m, const struct fleet *f, unsigned t,
			   struct json_object *rec, char *buf, size_t len)
{
	const struct fleet_task *ft = &f->t[t];
	const char *v = report_str_at(rec, "version"), *id = report_str_at(rec, "experiment.id");
	const char *var = report_str_at(rec, "experiment.variant");
	const char *cls = report_str_at(rec, "fleet.class");
	int run = int_at(rec, "experiment", "run", 0);

	if (!json_object_is_type(rec, json_type_object))
		return "not a JSON record";
	if (!v || strcmp(v, f->version)) {
		snprintf(buf, len, "written by entrylab %s, the fleet is %s's: run it again with "
			 "that entrylab", v ? v : "(no version)", f->version);
		return buf;
	}
	if (!id || strcmp(id, m->id) || !report_str_at(rec, "experiment.name") ||
	    strcmp(report_str_at(rec, "experiment.name"), m->exp.name))
		return "a record of another matrix or fleet (experiment.name or id differ)";
	if (int_at(rec, "fleet", "task", -1) != (int)t || !cls ||
	    strcmp(cls, f->c[ft->cls].name) || !var ||
	    strcmp(var, m->exp.variants[m->v[ft->variant].index].name) ||
	    (run != (int)ft->run && run != 0))
		return "a record of another task (fleet.task, class, variant or run differ)";
	return NULL;
}

static enum fleet_state state_of(struct json_object *rec, char *why, size_t len)
{
	const char *st = report_str_at(rec, "status"), *detail = report_str_at(rec, "detail");

	if (st && !strcmp(st, EL_STATUS_OK))
		return FT_OK;
	if (st && !strcmp(st, EL_STATUS_UNSUPPORTED)) {
		snprintf(why, len, "%s", detail ? detail : "");
		return FT_UNSUPPORTED;
	}
	snprintf(why, len, "%s%s%s", st ? st : "no status", detail && *detail ? ": " : "",
		 detail ? detail : "");
	return FT_FAILED;
}

int fleet_parts_load(const struct matrix *m, const struct fleet *f, struct fleet_parts *p)
{
	memset(p, 0, sizeof(*p));
	p->rec = calloc(f->nt, sizeof(*p->rec));
	p->st = calloc(f->nt, sizeof(*p->st));
	p->why = calloc(f->nt, sizeof(*p->why));
	if (!p->rec || !p->st || !p->why)
		return EL_EXIT_VMM;
	for (unsigned t = 0; t < f->nt; t++) {
		char path[4400], err[600], buf[320];
		const char *no;
		size_t len;
		char *text;
		struct json_object *rec;

		fleet_part_path(f, t, path, sizeof(path));
		if (!(text = io_read_file(path, 64u << 20, &len, err, sizeof(err)))) {
			p->st[t] = FT_MISSING;
			if (errno != ENOENT)
				snprintf(p->why[t], sizeof(p->why[t]), "%.300s", err);
			p->count[FT_MISSING]++;
			continue;
		}
		rec = json_tokener_parse(text);
		free(text);
		if (!rec || (no = refusal(m, f, t, rec, buf, sizeof(buf)))) {
			p->st[t] = FT_REFUSED;
			snprintf(p->why[t], sizeof(p->why[t]), "task-%u.json: %.280s", t,
				 rec ? no : "not JSON (cut short?)");
			json_object_put(rec);
			p->count[FT_REFUSED]++;
			continue;
		}
		p->rec[t] = rec;
		p->st[t] = state_of(rec, p->why[t], sizeof(p->why[t]));
		p->count[p->st[t]]++;
	}
	return 0;
}

void fleet_parts_free(const struct fleet *f, struct fleet_parts *p)
{
	for (unsigned t = 0; p->rec && t < f->nt; t++)
		json_object_put(p->rec[t]);
	free(p->rec);
	free(p->st);
	free(p->why);
	memset(p, 0, sizeof(*p));
}

int fleet_runs_write(const struct fleet *f, const struct fleet_parts *p)
{
	char *buf = NULL, err[600];
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	int rc;

	if (!mf)
		return -1;
	for (unsigned t = 0; t < f->nt; t++)
		if (p->rec[t])
			fprintf(mf, "%s\n", json_object_to_json_string_ext(
					    p->rec[t], JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
	if (fclose(mf)) {
		free(buf);
		return -1;
	}
	rc = report_write_file(f->dir, MATRIX_RUNS_FILE, buf, len, err, sizeof(err));
	if (rc)
		fprintf(stderr, "entrylab matrix: --collect: %s\n", err);
	free(buf);
	return rc;
}

static const char *state_word(enum fleet_state s)
{
	static const char *const w[FT_STATES] = {
		[FT_MISSING] = "missing", [FT_REFUSED] = "refused", [FT_OK] = "ok",
		[FT_UNSUPPORTED] = "unsupported", [FT_FAILED] = "failed",
	};
	return w[s];
}

int fleet_todo_print(FILE *out, const struct matrix *m, const struct fleet *f,
		     const struct fleet_parts *p)
{
	bool *want = calloc(f->nt, sizeof(*want));
	unsigned todo = 0;

	if (!want)
		return EL_EXIT_VMM;
	for (unsigned t = 0; t < f->nt; t++) {
		const struct fleet_task *ft = &f->t[t];

		if (p->st[t] == FT_OK)
			continue;
		fprintf(out, "  task %u (class %s, %s run %u): %s%s%s\n", t, f->c[ft->cls].name,
			m->exp.variants[m->v[ft->variant].index].name, ft->run, state_word(p->st[t]),
			p->why[t][0] ? ": " : "", p->why[t]);
		want[t] = p->st[t] != FT_UNSUPPORTED;
		todo += want[t];
	}
	if (todo) {
		fprintf(out, "to run them again (then `entrylab matrix --collect %s`):\n", f->dir);
		for (unsigned c = 0; c < f->nc; c++) {
			char cmd[4096];

			fleet_resubmit(f, c, want, cmd, sizeof(cmd));
			if (cmd[0])
				fprintf(out, "  %s\n", cmd);
		}
	}
	free(want);
	return p->count[FT_MISSING] + p->count[FT_REFUSED] ? FLEET_EXIT_MISSING
	       : p->count[FT_FAILED]			     ? FLEET_EXIT_FAILED
								     : 0;
}
