/*
 * `entrylab matrix` for fleets (harness/matrix/fleet.h, docs/fleet.md):
 * --emit after the matrix is planned as usual; --run-one and --collect
 * rebuild the same matrix from DIR/plan.json (its saved options through
 * the same parser, DIR/experiment.ini with relative names taken from the
 * original's directory, the same checks --resume makes) and then run one
 * task, or merge the parts into runs.jsonl and the report per host class.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_matrix.h"
#include "engine.h"
#include "fleet.h"
#include "host_info.h"
#include "host_io.h"
#include "nested.h"
#include "report_save.h"
#include "status.h"

int matrix_fleet_emit(struct matrix *m, const char *command, int argc, char **argv)
{
	struct fleet f = {.engine = m->o.emit_engine};
	int rc;

	if ((rc = matrix_estimate(m, false)) || (rc = fleet_layout(m, m->o.hosts, &f)))
		goto out;
	rc = fleet_emit(m, &f, command, argc, argv);
out:
	fleet_free(&f);
	return rc;
}

/* Everything a fleet command rebuilds from DIR. */
struct fleet_ctx {
	struct matrix *m;
	struct matrix_saved s;
	struct fleet f;
	char dir[PATH_MAX];
};

static int fleet_open(const char *dir, const char *what, struct fleet_ctx *c)
{
	char plan[PATH_MAX + 32];
	int rc;

	memset(c, 0, sizeof(*c));
	if (!(c->m = calloc(1, sizeof(*c->m))))
		return EL_EXIT_VMM;
	snprintf(plan, sizeof(plan), "%s/%s", dir, MATRIX_PLAN_FILE);
	if (!realpath(dir, c->dir) || access(plan, R_OK)) {
		fprintf(stderr, "entrylab matrix: %s %s: no readable %s there (%s); give the "
				"directory `entrylab matrix EXPERIMENT --emit slurm DIR` wrote\n",
			what, dir, plan, strerror(errno));
		return EL_EXIT_USAGE;
	}
	if ((rc = matrix_plan_read(c->dir, &c->s)))
		return rc;
	if (!json_object_object_get_ex(c->s.obj, "fleet", NULL)) {
		fprintf(stderr, "entrylab matrix: %s %s: a plain matrix's plan, not a fleet's; "
				"`entrylab matrix --resume %s` continues it\n", what, dir, dir);
		return EL_EXIT_USAGE;
	}
	c->m->o.fleet = true;
	if ((rc = cmd_matrix_options(c->s.argc, c->s.argv, &c->m->o))) {
		fprintf(stderr, "entrylab matrix: %s %s: the options saved in %s (%s) do not "
				"parse (above); use the entrylab that emitted it\n", what, dir,
			MATRIX_PLAN_FILE, c->s.command);
		return rc;
	}
	/* the copy, wherever DIR is mounted now */
	if ((size_t)snprintf(c->m->path, sizeof(c->m->path), "%.3000s/%s", c->dir, FLEET_COPY) >=
	    sizeof(c->m->path))
		return EL_EXIT_USAGE;
	if (experiment_load_as(c->m->path, fleet_origin(&c->s), &c->m->exp, stderr)) {
		fprintf(stderr, "entrylab matrix: %s %s: %s has problems here (above): a file = or "
				"kernel = it names must exist on this host too (at the same path)\n",
			what, dir, c->m->path);
		return EL_EXIT_USAGE;
	}
	if (c->m->o.scale_seed && experiment_scale_seed(&c->m->exp, stderr))
		return EL_EXIT_USAGE;
	if ((rc = matrix_plan(c->m)) || (rc = matrix_plan_matches(c->m, &c->s, c->dir)))
		return rc;
	snprintf(c->m->id, sizeof(c->m->id), "%s", c->s.id);
	return fleet_from_json(c->s.obj, c->dir, c->m, &c->f);
}

static void fleet_close(struct fleet_ctx *c)
{
	fleet_free(&c->f);
	matrix_saved_free(&c->s);
	if (c->m) {
		matrix_free(c->m);
		free(c->m->done);
		free(c->m);
	}
}

/* Every run done but the task's (and its variant's skip record, should it be skipped). */
static int only_task(struct matrix *m, const struct fleet_task *ft)
{
	size_t n = (size_t)m->nv * (m->repeat + 1);

	free(m->done);
	if (!(m->done = malloc(n + 1)))
		return -1;
	memset(m->done, 1, n + 1);
	m->done[ft->variant * (m->repeat + 1)] = 0;
	m->done[ft->variant * (m->repeat + 1) + ft->run] = 0;
	return 0;
}

/* The task's record from the records file its runs went to: the last line of its variant. */
static struct json_object *task_record(const char *path)
{
	struct json_object *rec = NULL;
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		struct json_object *r = json_tokener_parse(line);

		if (r) {
			json_object_put(rec);
			rec = r;
		}
	}
	free(line);
	fclose(f);
	return rec;
}

/* This node is not what the class expects: an unsupported record, never a run. */
static int wrong_node(struct fleet_ctx *c, unsigned task, const char *why)
{
	const struct fleet_task *ft = &c->f.t[task];
	struct el_host_info host;
	struct json_object *rec;
	int rc;

	host_info_collect(&host, false);
	if (!(rec = matrix_record_without_run(c->m, &c->m->v[ft->variant], &host,
					      EL_RUN_UNSUPPORTED, why)))
		return EL_EXIT_VMM;
	matrix_tag(rec, c->m, &c->m->v[ft->variant], ft->run);
	json_object_object_add(rec, "fleet", fleet_node_json(&c->f, task, -1));
	rc = fleet_part_write(&c->f, task, rec);
	json_object_put(rec);
	fprintf(stderr, "entrylab matrix: task %u: %s\n", task, why);
	return rc ? EL_EXIT_VMM : EL_EXIT_UNSUPPORTED;
}

int matrix_fleet_run_one(const struct matrix_opts *given)
{
	static struct engine_probe engine;
	struct fleet_ctx c;
	const struct fleet_task *ft;
	char why[600], tmp[PATH_MAX + 128], host[64] = "";
	struct json_object *rec;
	int rc, pin = -1;
	unsigned task = (unsigned)given->task;

	if ((rc = fleet_open(given->run_one, "--run-one", &c)))
		goto out;
	c.m->o.verbose = given->verbose;
	if (task >= c.f.nt) {
		fprintf(stderr, "entrylab matrix: --task %u: %s has tasks 0-%u; give one of those\n",
			task, c.dir, c.f.nt - 1);
		rc = EL_EXIT_USAGE;
		goto out;
	}
	ft = &c.f.t[task];
	if ((rc = only_task(c.m, ft) ? EL_EXIT_VMM : 0))
		goto out;
	if (!fleet_expect_ok(&c.f, ft->cls, why, sizeof(why))) {
		rc = wrong_node(&c, task, why);
		goto out;
	}
	if ((rc = engine_select("matrix", &(struct engine_request){.bochs = c.m->o.bochs,
								   .trace = c.m->o.trace,
								   .nested = c.m->o.nested},
				&engine)))
		goto out;
	if (engine.d.kind == ENGINE_NATIVE) {
		matrix_prerequisites(c.m);
		/* a benchmark's vCPU on one CPU of the node Slurm gave us */
		if ((pin = fleet_pin_cpu()) >= 0)
			c.m->v[ft->variant].req.pin_cpu = pin;
	}
	if ((rc = matrix_estimate(c.m, engine.d.kind == ENGINE_NESTED || c.m->o.bochs)))
		goto out;
	gethostname(host, sizeof(host) - 1);
	snprintf(tmp, sizeof(tmp), "%s/%s/.task-%u.%d.jsonl", c.dir, FLEET_PARTS, task,
		 (int)getpid());
	rc = matrix_session_task(c.m, c.dir, tmp,
				 engine.d.kind == ENGINE_NESTED ? engine.d.reason : NULL,
				 matrix_boot_timeout(c.m));
	rec = task_record(tmp);
	unlink(tmp);
	if (!rec) {
		fprintf(stderr, "entrylab matrix: task %u left no record%s; it stays missing for "
				"--collect, which names the command that runs it again\n", task,
			rc > 128 ? " (stopped by a signal)" : "");
		rc = rc ? rc : EL_EXIT_VMM;
		goto out;
	}
	json_object_object_add(rec, "fleet", fleet_node_json(&c.f, task, pin));
	if (fleet_part_write(&c.f, task, rec))
		rc = EL_EXIT_VMM;
	else
		fprintf(stderr, "task %u (class %s, %s run %u): %s on %s\n", task,
			c.f.c[ft->cls].name, c.m->exp.variants[c.m->v[ft->variant].index].name,
			ft->run, json_object_get_string(json_object_object_get(rec, "status")),
			host);
	json_object_put(rec);
out:
	fleet_close(&c);
	return rc;
}

/* ---- --collect ---- */

/* A kind of host: CPU brand string and microcode, as the records say. */
static void host_kind(struct json_object *rec, char *buf, size_t len)
{
	const char *cpu = report_str_at(rec, "host.cpu_model");
	const char *ucode = report_str_at(rec, "fleet.microcode");

	snprintf(buf, len, "%s, microcode %s", cpu ? cpu : "unknown CPU", ucode ? ucode : "unknown");
}

struct section_build {
	struct report r;
	char name[EXP_NAME_MAX + 8], sub[EXP_NAME_MAX + 16], hosts[512], warn[1024];
	unsigned kept, planned;
};

/* "node1 x 2, node2 x 2 (KIND)": the hosts of section kind (NULL: all) in class c. */
static void hosts_text(const struct fleet_ctx *c, const struct fleet_parts *p, unsigned cls,
		       const char *kind, char *buf, size_t len)
{
	char seen[16][64];
	unsigned nseen = 0, count[16] = {0};
	size_t o = 0;

	for (unsigned t = c->f.c[cls].first; t < c->f.c[cls].first + c->f.c[cls].n; t++) {
		char k[200];
		const char *h;
		unsigned i;

		if (p->st[t] != FT_OK || !(h = report_str_at(p->rec[t], "fleet.host")))
			continue;
		host_kind(p->rec[t], k, sizeof(k));
		if (kind && strcmp(k, kind))
			continue;
		for (i = 0; i < nseen && strcmp(seen[i], h); i++)
			;
		if (i == nseen && nseen < 16)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", h);
		if (i < 16)
			count[i]++;
	}
	for (unsigned i = 0; i < nseen && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s x %u", i ? ", " : "", seen[i], count[i]);
	if (!nseen)
		snprintf(buf, len, "none with a result yet");
}

/* One section: class cls's records (of host kind, or all when kind is NULL). */
static int build_section(const struct fleet_ctx *c, const struct fleet_parts *p, unsigned cls,
			 const char *kind, struct section_build *b, bool quiet)
{
	const struct matrix *m = c->m;

	report_init(&b->r);
	for (unsigned i = 0; i < m->nv; i++) {
		const struct exp_variant *ev = &m->exp.variants[m->v[i].index];

		if (report_group(&b->r, ev->name, ev->bench, ev->cpu, ev->append) != (int)i)
			return -1;
	}
	for (unsigned t = c->f.c[cls].first; t < c->f.c[cls].first + c->f.c[cls].n; t++) {
		char k[200];

		if (!p->rec[t])
			continue;
		host_kind(p->rec[t], k, sizeof(k));
		/* a split's non-ok records (no host kind to speak of) go to its first section */
		if (kind && p->st[t] == FT_OK && strcmp(k, kind))
			continue;
		if (kind && p->st[t] != FT_OK && strcmp(b->name, c->f.c[cls].name))
			continue;
		report_add(&b->r, (int)c->f.t[t].variant, p->rec[t]);
		b->kept++;
	}
	for (unsigned i = 0; i < m->nv; i++) {
		const struct exp_variant *ev = &m->exp.variants[m->v[i].index];

		b->r.g[i].baseline = report_find(&b->r, m->exp.variants[ev->baseline].name);
	}
	b->r.base = report_find(&b->r, m->exp.variants[m->exp.baseline].name);
	report_resolve_baselines(&b->r);
	cmd_matrix_columns(m, &b->r, quiet);
	hosts_text(c, p, cls, kind, b->hosts, sizeof(b->hosts));
	return 0;
}

/* The distinct host kinds of class cls's ok records (at most max). */
static unsigned class_kinds(const struct fleet_ctx *c, const struct fleet_parts *p, unsigned cls,
			    char (*kinds)[200], unsigned max)
{
	unsigned n = 0;

	for (unsigned t = c->f.c[cls].first; t < c->f.c[cls].first + c->f.c[cls].n; t++) {
		char k[200];
		unsigned i;

		if (p->st[t] != FT_OK)
			continue;
		host_kind(p->rec[t], k, sizeof(k));
		for (i = 0; i < n && strcmp(kinds[i], k); i++)
			;
		if (i == n && n < max)
			snprintf(kinds[n++], sizeof(kinds[0]), "%s", k);
	}
	return n;
}

static int collect_report(const struct fleet_ctx *c, const struct fleet_parts *p)
{
	struct section_build *b = calloc(EXP_MAX_HOSTS * 4, sizeof(*b));
	struct report_section s[EXP_MAX_HOSTS * 4];
	struct report_row rows[EXP_MAX_VARIANTS];
	struct report_meta meta = {0};
	char kinds[4][200], err[600];
	unsigned n = 0;
	int rc = 0;

	if (!b)
		return EL_EXIT_VMM;
	for (unsigned cls = 0; cls < c->f.nc && !rc; cls++) {
		unsigned nk = class_kinds(c, p, cls, kinds, 4);

		for (unsigned k = 0; k < (nk > 1 ? nk : 1) && !rc; k++) {
			struct section_build *sb = &b[n];

			snprintf(sb->name, sizeof(sb->name), nk > 1 && k ? "%s/%u" : "%s",
				 c->f.c[cls].name, k + 1);
			snprintf(sb->sub, sizeof(sb->sub), nk > 1 && k ? "class-%s-%u" : "class-%s",
				 c->f.c[cls].name, k + 1);
			if (build_section(c, p, cls, nk > 1 ? kinds[k] : NULL, sb, n > 0)) {
				rc = EL_EXIT_VMM;
				break;
			}
			sb->planned = nk > 1 ? sb->kept : c->f.c[cls].n;
			if (nk > 1)
				snprintf(sb->warn, sizeof(sb->warn), "the hosts of class %s differ (%u "
					 "kinds of CPU or microcode), so it is split: this section is "
					 "the hosts with %s.  Give the class a constraint that selects "
					 "one kind of node.", c->f.c[cls].name, nk, kinds[k]);
			s[n] = (struct report_section){.name = sb->name, .sub = sb->sub,
						       .hosts = sb->hosts,
						       .warning = sb->warn[0] ? sb->warn : NULL,
						       .r = &sb->r, .planned = sb->planned,
						       .kept = sb->kept};
			n++;
		}
	}
	if (!rc) {
		experiment_report_meta(&c->m->exp, rows, &meta);
		meta.command = c->s.command;
		meta.runs_file = MATRIX_RUNS_FILE;
		meta.scale = c->m->o.scale_seed ? "seed" : "default";
		meta.planned = c->f.nt;
		meta.kept = c->f.nt - p->count[FT_MISSING] - p->count[FT_REFUSED];
		if (report_fleet_save(s, n, c->dir, &meta, err, sizeof(err))) {
			fprintf(stderr, "entrylab matrix: --collect: the report was not saved: %s\n",
				err);
			rc = EL_EXIT_VMM;
		}
		for (unsigned i = 0; i < n; i++) {
			printf("\nclass %s (hosts: %s)\n", s[i].name, s[i].hosts);
			if (s[i].warning)
				printf("  warning: %s\n", s[i].warning);
			report_print_table(stdout, s[i].r);
		}
	}
	for (unsigned i = 0; i < n; i++)
		report_free(&b[i].r);
	free(b);
	return rc;
}

int matrix_fleet_collect(const struct matrix_opts *given)
{
	struct fleet_ctx c;
	struct fleet_parts p = {0};
	int rc, todo;

	if ((rc = fleet_open(given->collect, "--collect", &c)))
		goto out;
	if (strcmp(c.f.version, ENTRYLAB_VERSION)) {
		fprintf(stderr, "entrylab matrix: --collect %s: the fleet was emitted by entrylab "
				"%s, this is %s; collect with that one (%s), so the records and their "
				"report are one version's\n", c.dir, c.f.version, ENTRYLAB_VERSION,
			c.f.entrylab);
		rc = EL_EXIT_USAGE;
		goto out;
	}
	if ((rc = fleet_parts_load(c.m, &c.f, &p)))
		goto out;
	if (fleet_runs_write(&c.f, &p)) {
		rc = EL_EXIT_VMM;
		goto out;
	}
	printf("entrylab matrix %s: fleet %s: %u tasks: %u ok, %u unsupported, %u failed, %u "
	       "missing, %u refused\n", c.m->exp.name, c.dir, c.f.nt, p.count[FT_OK],
	       p.count[FT_UNSUPPORTED], p.count[FT_FAILED], p.count[FT_MISSING],
	       p.count[FT_REFUSED]);
	if ((rc = collect_report(&c, &p)))
		goto out;
	fflush(stdout);
	todo = fleet_todo_print(stderr, c.m, &c.f, &p);
	fprintf(stderr, "results in %s/ (runs.jsonl, report.md, summary.csv, class-*/)\n", c.dir);
	rc = todo;
out:
	fleet_parts_free(&c.f, &p);
	fleet_close(&c);
	return rc;
}
