/*
 * Progress lines of a matrix on stderr, one per record and only once that
 * record is on disk, so a line saying `ok` always has its record in the
 * file.  Natively matrix_exec calls matrix_progress_record after each
 * append; under the nested runner the host calls matrix_progress_line for
 * each record line it appended (the inner entrylab prints none: the host's
 * file is the one that counts).
 */
#include <stdio.h>
#include <string.h>

#include "matrix_run.h"
#include "nested.h"

static const char *rec_str(struct json_object *rec, const char *a, const char *b)
{
	struct json_object *v;

	if (!json_object_object_get_ex(rec, a, &v))
		return NULL;
	if (b && (!v || !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return v ? json_object_get_string(v) : NULL;
}

static int variant_index(const struct matrix *m, const char *name)
{
	for (unsigned i = 0; name && i < m->nv; i++)
		if (!strcmp(m->exp.variants[m->v[i].index].name, name))
			return (int)i;
	return -1;
}

void matrix_progress_init(struct matrix_progress *p, const struct matrix *m)
{
	memset(p, 0, sizeof(*p));
	p->m = m;
	for (unsigned i = 0; i < m->nv; i++) {
		if (m->v[i].skip[0] || matrix_done(m, i, 0))
			continue;
		p->total += m->repeat;
		for (unsigned run = 1; run <= m->repeat; run++)
			p->k += matrix_done(m, i, run);
	}
}

void matrix_progress_record(struct matrix_progress *p, struct json_object *rec)
{
	const char *variant = rec_str(rec, "experiment", "variant");
	const char *status = rec_str(rec, "status", NULL), *detail = rec_str(rec, "detail", NULL);
	struct json_object *exp, *v, *vmm;
	int i = variant_index(p->m, variant);
	bool quiet = nested_is_inner();
	int run = 0;

	if (json_object_object_get_ex(rec, "experiment", &exp) &&
	    json_object_object_get_ex(exp, "run", &v) && v)
		run = json_object_get_int(v);
	if (!run) {
		/* A skip: its runs leave the count, unless the plan knew already. */
		if (i >= 0 && !p->m->v[i].skip[0] && p->total >= p->m->repeat)
			p->total -= p->m->repeat;
		if (!quiet)
			fprintf(stderr, "entrylab matrix: %s: %s\n", variant ? variant : "?",
				detail ? detail : "skipped");
		return;
	}
	p->k++;
	if (quiet)
		return;
	fprintf(stderr, "entrylab matrix: [%u/%u] %s run %d/%u: %s", p->k, p->total,
		variant ? variant : "?", run, p->m->repeat, status ? status : "?");
	/* A trace's time is QEMU's. */
	if ((json_object_object_get_ex(rec, "vmm", &vmm) ||
	     json_object_object_get_ex(rec, "qemu", &vmm)) && vmm &&
	    json_object_object_get_ex(vmm, "wall_ms", &v))
		fprintf(stderr, " (%.0f ms)", json_object_get_double(v));
	fprintf(stderr, "%s%s\n", detail ? ": " : "", detail ? detail : "");
}

void matrix_progress_line(void *ctx, const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *rec = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;

	if (rec)
		matrix_progress_record(ctx, rec);
	json_object_put(rec);
	if (tok)
		json_tokener_free(tok);
}
