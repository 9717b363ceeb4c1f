/*
 * The records file read back (matrix_run.h): which runs of this matrix have
 * a record (what --resume skips), and the report of exactly those records,
 * so the table printed, the saved report and `entrylab compare runs.jsonl`
 * all come from what is on disk.  A record belongs to this matrix when its
 * experiment.name and experiment.id are this matrix's: a -o FILE shared
 * with other commands is fine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_run.h"

/* One record of this matrix: its selected-variant index and run (0: a skip record). */
struct rec_id {
	int variant;
	unsigned run;
};

static bool rec_of(const struct matrix *m, struct json_object *rec, struct rec_id *id)
{
	struct json_object *exp, *v;
	const char *name;

	if (!json_object_object_get_ex(rec, "experiment", &exp) || !exp ||
	    !json_object_object_get_ex(exp, "name", &v) || strcmp(json_object_get_string(v),
								   m->exp.name) ||
	    !json_object_object_get_ex(exp, "id", &v) || strcmp(json_object_get_string(v), m->id) ||
	    !json_object_object_get_ex(exp, "variant", &v))
		return false;
	name = json_object_get_string(v);
	id->variant = -1;
	for (unsigned i = 0; i < m->nv; i++)
		if (!strcmp(m->exp.variants[m->v[i].index].name, name))
			id->variant = (int)i;
	id->run = json_object_object_get_ex(exp, "run", &v) && v ? (unsigned)json_object_get_int(v)
								: 0;
	/* An interrupted run is not a result; anything else (ok, crash, timeout) is. */
	if (json_object_object_get_ex(rec, "status", &v) &&
	    !strcmp(json_object_get_string(v), "interrupted"))
		return false;
	return id->variant >= 0 && id->run <= m->repeat;
}

/* Calls fn for every record of this matrix in path; a missing file has none. */
static int each_record(const struct matrix *m, const char *path,
		       void (*fn)(void *ctx, struct json_object *rec, const struct rec_id *id),
		       void *ctx)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f && errno == ENOENT)
		return 0;
	if (!f) {
		fprintf(stderr, "entrylab matrix: cannot read %s: %s; check its permissions\n",
			path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		struct json_object *rec = json_tokener_parse(line);
		struct rec_id id;

		if (rec && rec_of(m, rec, &id))
			fn(ctx, rec, &id);
		json_object_put(rec);
	}
	free(line);
	fclose(f);
	return 0;
}

bool matrix_done(const struct matrix *m, unsigned i, unsigned run)
{
	return m->done && i < m->nv && run <= m->repeat && m->done[i * (m->repeat + 1) + run];
}

static void mark_done(void *ctx, struct json_object *rec, const struct rec_id *id)
{
	struct matrix *m = ctx;

	(void)rec;
	m->done[(unsigned)id->variant * (m->repeat + 1) + id->run] = 1;
}

int matrix_done_load(struct matrix *m, const char *path)
{
	free(m->done);
	m->done = calloc((size_t)m->nv * (m->repeat + 1) + 1, 1);
	if (!m->done) {
		fprintf(stderr, "entrylab matrix: out of memory reading %s\n", path);
		return -1;
	}
	return each_record(m, path, mark_done, m);
}

char *matrix_done_list(const struct matrix *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool first = true;

	if (!f)
		return NULL;
	for (unsigned i = 0; i < m->nv; i++)
		for (unsigned run = 0; run <= m->repeat; run++)
			if (matrix_done(m, i, run)) {
				fprintf(f, "%s%u.%u", first ? "" : ",", i, run);
				first = false;
			}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int matrix_done_parse(struct matrix *m, const char *list)
{
	const char *p = list;

	free(m->done);
	m->done = calloc((size_t)m->nv * (m->repeat + 1) + 1, 1);
	if (!m->done)
		return -1;
	while (*p) {
		char *end;
		unsigned long i = strtoul(p, &end, 10), run;

		if (end == p || *end != '.')
			break;
		run = strtoul(p = end + 1, &end, 10);
		if (end == p || i >= m->nv || run > m->repeat || (*end && *end != ','))
			break;
		m->done[i * (m->repeat + 1) + run] = 1;
		p = *end ? end + 1 : end;
	}
	if (*p) {
		fprintf(stderr, "entrylab matrix: --done-runs '%s' is not a list of I.RUN; it is "
				"for the nested runner only, drop it\n", list);
		return -1;
	}
	return 0;
}

struct report_ctx {
	const struct matrix *m;
	struct report *r;
	unsigned char *seen;
	unsigned kept;
};

static void add_record(void *ctx, struct json_object *rec, const struct rec_id *id)
{
	struct report_ctx *c = ctx;
	unsigned char *seen = &c->seen[(unsigned)id->variant * (c->m->repeat + 1) + id->run];

	/* Each run once, whatever a file appended to twice holds. */
	if (*seen)
		return;
	*seen = 1;
	c->kept += id->run != 0;
	report_add(c->r, id->variant, rec);
}

int matrix_report_load(const struct matrix *m, const char *path, struct report *r,
		       unsigned *kept, unsigned *planned)
{
	struct report_ctx c = {.m = m, .r = r};
	int rc;

	for (unsigned i = 0; i < m->nv; i++) {
		const struct exp_variant *ev = &m->exp.variants[m->v[i].index];

		if (report_group(r, ev->name, ev->bench, ev->cpu, ev->append) != (int)i)
			return -1;
	}
	c.seen = calloc((size_t)m->nv * (m->repeat + 1) + 1, 1);
	if (!c.seen)
		return -1;
	rc = each_record(m, path, add_record, &c);
	*kept = c.kept;
	*planned = 0;
	for (unsigned i = 0; i < m->nv; i++)
		if (!m->v[i].skip[0] && !c.seen[i * (m->repeat + 1)])
			*planned += m->repeat;
	free(c.seen);
	/* Baselines by name: one left out by --only falls back in report_resolve_baselines. */
	for (unsigned i = 0; i < m->nv; i++) {
		const struct exp_variant *ev = &m->exp.variants[m->v[i].index];

		r->g[i].baseline = report_find(r, m->exp.variants[ev->baseline].name);
	}
	r->base = report_find(r, m->exp.variants[m->exp.baseline].name);
	report_resolve_baselines(r);
	return rc;
}
