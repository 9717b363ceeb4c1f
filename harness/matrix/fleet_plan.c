/*
 * A fleet's layout (fleet.h): its host classes, its tasks, and both as the
 * "fleet" object of plan.json, which --run-one and --collect read back on
 * other hosts, perhaps days later.  Ids are the plan's, never recomputed:
 * a plan read back is trusted only as far as fleet_from_json checks it.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "status.h"

int fleet_engine_parse(const char *word, enum fleet_engine *e)
{
	if (!strcmp(word, "slurm"))
		*e = FLEET_SLURM;
	else if (!strcmp(word, "parallel"))
		*e = FLEET_PARALLEL;
	else
		return -1;
	return 0;
}

const char *fleet_engine_name(enum fleet_engine e)
{
	return e == FLEET_SLURM ? "slurm" : "parallel";
}

static int add_class(const struct matrix *m, struct fleet *f, const char *name, size_t len)
{
	int h;

	if (!len || len >= EXP_NAME_MAX) {
		fprintf(stderr, "entrylab matrix: --hosts: '%.*s' is not a class name of 1 to %d "
				"characters; give e.g. --hosts skylake,atom\n", (int)len, name,
			EXP_NAME_MAX - 1);
		return EL_EXIT_USAGE;
	}
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+",
			    name[i])) {
			fprintf(stderr, "entrylab matrix: --hosts: '%.*s' is not a word of letters, "
					"digits and ._-+; rename the class (a [host CLASS] section "
					"can map it to any Slurm constraint)\n", (int)len, name);
			return EL_EXIT_USAGE;
		}
	if (f->nc == EXP_MAX_HOSTS) {
		fprintf(stderr, "entrylab matrix: --hosts: more than %d classes; split the fleet\n",
			EXP_MAX_HOSTS);
		return EL_EXIT_USAGE;
	}
	for (unsigned i = 0; i < f->nc; i++)
		if (strlen(f->c[i].name) == len && !memcmp(f->c[i].name, name, len)) {
			fprintf(stderr, "entrylab matrix: --hosts: class '%s' is named twice; name "
					"it once\n", f->c[i].name);
			return EL_EXIT_USAGE;
		}
	struct fleet_class *fc = &f->c[f->nc++];
	char cname[EXP_NAME_MAX];

	memcpy(cname, name, len);
	cname[len] = '\0';
	memcpy(fc->name, cname, len + 1);
	/* the experiment's [host CLASS] maps it; else the class is its own Slurm feature */
	h = experiment_host(&m->exp, cname);
	snprintf(fc->constraint, sizeof(fc->constraint), "%s",
		 h >= 0 && m->exp.hosts[h].constraint.text ? m->exp.hosts[h].constraint.text
							   : cname);
	if (h >= 0 && m->exp.hosts[h].expect.text)
		snprintf(fc->expect, sizeof(fc->expect), "%s", m->exp.hosts[h].expect.text);
	return 0;
}

int fleet_layout(const struct matrix *m, const char *hosts, struct fleet *f)
{
	unsigned runs = 0;
	int rc;

	f->nc = 0;
	if (hosts) {
		for (const char *p = hosts;; p++) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);

			if ((rc = add_class(m, f, p, len)))
				return rc;
			if (!end)
				break;
			p = end;
		}
	} else {
		for (unsigned i = 0; i < m->exp.nhosts; i++)
			if ((rc = add_class(m, f, m->exp.hosts[i].name, strlen(m->exp.hosts[i].name))))
				return rc;
	}
	if (!f->nc) {
		/* one class, any node: no constraint */
		snprintf(f->c[0].name, sizeof(f->c[0].name), "any");
		f->nc = 1;
	}
	for (unsigned i = 0; i < m->nv; i++)
		runs += m->repeat;
	if ((unsigned long)runs * f->nc > FLEET_MAX_TASKS) {
		fprintf(stderr, "entrylab matrix: %u classes x %u runs is more than %d tasks; "
				"lower -r or split the experiment\n", f->nc, runs, FLEET_MAX_TASKS);
		return EL_EXIT_USAGE;
	}
	free(f->t);
	f->nt = 0;
	if (!(f->t = calloc((size_t)runs * f->nc + 1, sizeof(*f->t))))
		return EL_EXIT_VMM;
	for (unsigned c = 0; c < f->nc; c++) {
		f->c[c].first = f->nt;
		for (unsigned i = 0; i < m->nv; i++)
			for (unsigned r = 1; r <= m->repeat; r++)
				f->t[f->nt++] = (struct fleet_task){.cls = c, .variant = i, .run = r};
		f->c[c].n = f->nt - f->c[c].first;
	}
	return 0;
}

long fleet_task_id(const struct fleet *f, unsigned cls, unsigned variant, unsigned run)
{
	for (unsigned t = cls < f->nc ? f->c[cls].first : f->nt; t < f->nt && f->t[t].cls == cls;
	     t++)
		if (f->t[t].variant == variant && f->t[t].run == run)
			return (long)t;
	return -1;
}

struct json_object *fleet_json(const struct fleet *f, const struct matrix *m)
{
	struct json_object *o = json_object_new_object(), *cls = json_object_new_array();
	struct json_object *tasks = json_object_new_array();

	json_object_object_add(o, "engine", json_object_new_string(fleet_engine_name(f->engine)));
	json_object_object_add(o, "version", json_object_new_string(f->version));
	json_object_object_add(o, "origin", json_object_new_string(f->origin));
	json_object_object_add(o, "entrylab", json_object_new_string(f->entrylab));
	for (unsigned c = 0; c < f->nc; c++) {
		struct json_object *k = json_object_new_object();

		json_object_object_add(k, "name", json_object_new_string(f->c[c].name));
		json_object_object_add(k, "constraint", json_object_new_string(f->c[c].constraint));
		json_object_object_add(k, "expect", json_object_new_string(f->c[c].expect));
		json_object_object_add(k, "first", json_object_new_int((int)f->c[c].first));
		json_object_object_add(k, "tasks", json_object_new_int((int)f->c[c].n));
		json_object_array_add(cls, k);
	}
	json_object_object_add(o, "classes", cls);
	for (unsigned t = 0; t < f->nt; t++) {
		struct json_object *k = json_object_new_object();

		json_object_object_add(k, "task", json_object_new_int((int)t));
		json_object_object_add(k, "class", json_object_new_string(f->c[f->t[t].cls].name));
		json_object_object_add(k, "variant", json_object_new_string(
				       m->exp.variants[m->v[f->t[t].variant].index].name));
		json_object_object_add(k, "run", json_object_new_int((int)f->t[t].run));
		json_object_array_add(tasks, k);
	}
	json_object_object_add(o, "tasks", tasks);
	return o;
}

static int bad(const char *dir, const char *what)
{
	fprintf(stderr, "entrylab matrix: %s/%s: %s; it is not a fleet plan this entrylab wrote: "
			"emit the fleet again (`entrylab matrix EXPERIMENT --emit slurm DIR`)\n",
		dir, MATRIX_PLAN_FILE, what);
	return EL_EXIT_USAGE;
}

static int copy_str(char *dst, size_t len, const char *src)
{
	return !src || (size_t)snprintf(dst, len, "%s", src) >= len ? -1 : 0;
}

int fleet_from_json(struct json_object *plan, const char *dir, const struct matrix *m,
		    struct fleet *f)
{
	struct json_object *o, *cls, *tasks;
	size_t nc, nt;

	memset(f, 0, sizeof(*f));
	if (!json_object_object_get_ex(plan, "fleet", &o) || !json_object_is_type(o,
										   json_type_object))
		return bad(dir, "has no \"fleet\" object (a plain matrix plan: `entrylab matrix "
				"--resume DIR` continues it)");
	if (!report_str_at(o, "engine") || fleet_engine_parse(report_str_at(o, "engine"), &f->engine) ||
	    copy_str(f->version, sizeof(f->version), report_str_at(o, "version")) ||
	    copy_str(f->origin, sizeof(f->origin), report_str_at(o, "origin")) ||
	    copy_str(f->entrylab, sizeof(f->entrylab), report_str_at(o, "entrylab")) ||
	    copy_str(f->dir, sizeof(f->dir), dir) ||
	    !json_object_object_get_ex(o, "classes", &cls) ||
	    !json_object_is_type(cls, json_type_array) ||
	    !json_object_object_get_ex(o, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_array))
		return bad(dir, "lacks engine, version, origin, entrylab, classes or tasks");
	nc = json_object_array_length(cls);
	nt = json_object_array_length(tasks);
	if (!nc || nc > EXP_MAX_HOSTS || !nt || nt > FLEET_MAX_TASKS)
		return bad(dir, "has no classes or tasks, or too many");
	if (!(f->t = calloc(nt, sizeof(*f->t))))
		return EL_EXIT_VMM;
	for (size_t c = 0; c < nc; c++) {
		struct json_object *k = json_object_array_get_idx(cls, c), *v;
		struct fleet_class *fc = &f->c[c];

		if (copy_str(fc->name, sizeof(fc->name), report_str_at(k, "name")) ||
		    copy_str(fc->constraint, sizeof(fc->constraint), report_str_at(k, "constraint")) ||
		    copy_str(fc->expect, sizeof(fc->expect), report_str_at(k, "expect")) ||
		    !json_object_object_get_ex(k, "first", &v) ||
		    (fc->first = (unsigned)json_object_get_int(v), false) ||
		    !json_object_object_get_ex(k, "tasks", &v) ||
		    (fc->n = (unsigned)json_object_get_int(v), false) ||
		    fc->first != (c ? f->c[c - 1].first + f->c[c - 1].n : 0) ||
		    fc->n > nt - fc->first)
			return bad(dir, "has a class without name, constraint, expect, or a task "
					"range that does not follow the one before");
	}
	f->nc = (unsigned)nc;
	if (f->c[nc - 1].first + f->c[nc - 1].n != nt)
		return bad(dir, "has classes whose tasks do not add up to the task list");
	f->nt = (unsigned)nt;
	for (size_t t = 0; t < nt; t++) {
		struct json_object *k = json_object_array_get_idx(tasks, t), *v;
		const char *cname = report_str_at(k, "class"), *vname = report_str_at(k, "variant");
		struct fleet_task *ft = &f->t[t];
		int run;

		if (!cname || !vname || !json_object_object_get_ex(k, "task", &v) ||
		    json_object_get_int(v) != (int)t || !json_object_object_get_ex(k, "run", &v))
			return bad(dir, "has a task without task (its index), class, variant or run");
		run = json_object_get_int(v);
		while (ft->cls < f->nc && t >= f->c[ft->cls].first + f->c[ft->cls].n)
			ft->cls++;
		ft->variant = m->nv;
		for (unsigned i = 0; i < m->nv; i++)
			if (!strcmp(m->exp.variants[m->v[i].index].name, vname))
				ft->variant = i;
		if (ft->cls >= f->nc || strcmp(f->c[ft->cls].name, cname) || ft->variant == m->nv ||
		    run < 1 || (unsigned)run > m->repeat)
			return bad(dir, "has a task whose class, variant or run is not the "
					"experiment's as its options give it (edited?)");
		ft->run = (unsigned)run;
	}
	return 0;
}

void fleet_free(struct fleet *f)
{
	free(f->t);
	f->t = NULL;
	f->nt = 0;
}

const char *fleet_origin(const struct matrix_saved *s)
{
	struct json_object *o;

	return s->obj && json_object_object_get_ex(s->obj, "fleet", &o) ? report_str_at(o, "origin")
									 : NULL;
}
