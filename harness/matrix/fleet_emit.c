/*
 * `entrylab matrix EXPERIMENT --emit slurm|parallel DIR` (fleet.h): the job
 * directory, self-contained.  Every path the scripts hold is absolute (a
 * cluster's shared directory is mounted at one path on every node) and
 * made of characters no shell, sbatch pattern (%) or parallel replacement
 * string ({}) reads, so the scripts quote nothing.  The scripts run
 * ${ENTRYLAB:-the entrylab that emitted them}: the same build, which
 * --collect checks by its version.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet.h"
#include "host_io.h"
#include "report_save.h"
#include "status.h"

static bool path_safe(const char *p)
{
	return *p && !p[strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789/._+-@=,:")];
}

/* DIR made, or an empty existing one taken; f->dir its absolute path. */
static int make_dir(const char *dir, struct fleet *f)
{
	char *abs;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "entrylab matrix: --emit: cannot create %s: %s; give a directory "
				"in a writable place (on a cluster: the shared one every node "
				"mounts)\n", dir, strerror(errno));
		return EL_EXIT_USAGE;
	}
	if (!(abs = realpath(dir, NULL))) {
		fprintf(stderr, "entrylab matrix: --emit: %s: %s; give a directory that can be "
				"resolved\n", dir, strerror(errno));
		return EL_EXIT_USAGE;
	}
	snprintf(f->dir, sizeof(f->dir), "%s", abs);
	free(abs);
	if (!path_safe(f->dir) || strlen(f->dir) > 3000) {
		fprintf(stderr, "entrylab matrix: --emit: %s has characters the job scripts would "
				"have to quote (only letters, digits and /._+-@=,: are taken) or is "
				"too long; choose another directory\n", f->dir);
		return EL_EXIT_USAGE;
	}
	{
		char probe[4200];

		snprintf(probe, sizeof(probe), "%s/%s", f->dir, MATRIX_PLAN_FILE);
		if (access(probe, F_OK) == 0) {
			fprintf(stderr, "entrylab matrix: --emit: %s already holds a plan; give a "
					"new directory (its runs and parts are kept as they are)\n",
				f->dir);
			return EL_EXIT_USAGE;
		}
	}
	return 0;
}

static int sub_dir(const struct fleet *f, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "entrylab matrix: --emit: cannot create %s: %s; check the "
				"directory's permissions and free space\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* text written whole as dir/name (name may have one directory: "slurm/A.sbatch"), with mode. */
static int write_text(const struct fleet *f, const char *name, const char *text, mode_t mode)
{
	char err[600], path[4200], in[4200];
	const char *slash = strchr(name, '/');

	snprintf(in, sizeof(in), "%s%s%.*s", f->dir, slash ? "/" : "",
		 slash ? (int)(slash - name) : 0, name);
	if (report_write_file(in, slash ? slash + 1 : name, text, strlen(text), err, sizeof(err))) {
		fprintf(stderr, "entrylab matrix: --emit: %s\n", err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	if (chmod(path, mode) < 0) {
		fprintf(stderr, "entrylab matrix: --emit: chmod %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The array indices as Slurm's --array takes them: "0-3,7". */
static void index_list(const bool *want, unsigned first, unsigned n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && o < len; i++) {
		unsigned j = i;

		if (!want[first + i])
			continue;
		while (j + 1 < n && want[first + j + 1])
			j++;
		o += (size_t)snprintf(buf + o, len - o, j > i ? "%s%u-%u" : "%s%u", o ? "," : "", i,
				      j);
		i = j;
	}
}

void fleet_resubmit(const struct fleet *f, unsigned c, const bool *want, char *buf, size_t len)
{
	const struct fleet_class *fc = &f->c[c];
	char list[2048];

	index_list(want, fc->first, fc->n, list, sizeof(list));
	if (!list[0]) {
		buf[0] = '\0';
		return;
	}
	if (f->engine == FLEET_SLURM) {
		snprintf(buf, len, "sbatch --array=%s %s/slurm/%s.sbatch", list, f->dir, fc->name);
		return;
	}
	/* parallel: the task ids themselves */
	size_t o = (size_t)snprintf(buf, len, "parallel --will-cite --sshloginfile "
				    "%s/parallel/%s.hosts %s matrix --run-one %s --task {} :::",
				    f->dir, fc->name, f->entrylab, f->dir);

	for (unsigned t = fc->first; t < fc->first + fc->n && o < len; t++)
		if (want[t])
			o += (size_t)snprintf(buf + o, len - o, " %u", t);
}

/* What a script printer sees: the matrix, the fleet, and the class it is for. */
struct emit_ctx {
	const struct matrix *m;
	const struct fleet *f;
	unsigned c;
};

/* name (under f->dir, one directory deep at most) printed by print, written whole, mode. */
static int emit_file(const struct emit_ctx *x, const char *name, mode_t mode,
		     void (*print)(FILE *, const struct emit_ctx *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	int rc;

	if (!mf)
		return -1;
	print(mf, x);
	if (fclose(mf)) {
		free(buf);
		return -1;
	}
	rc = write_text(x->f, name, buf, mode);
	free(buf);
	return rc;
}

/* Wall-clock minutes a task may take: its boot's timeout, with room for the VMM's start. */
static unsigned task_minutes(const struct matrix *m)
{
	double s = matrix_boot_timeout(m);

	return s > 0 ? (unsigned)ceil(s * 1.5 / 60.0) + 5 : 0;
}

/* slurm/CLASS.sbatch: the class's tasks as one job array. */
static void print_sbatch(FILE *o, const struct emit_ctx *x)
{
	const struct fleet *f = x->f;
	const struct fleet_class *fc = &f->c[x->c];
	unsigned minutes = task_minutes(x->m);

	fprintf(o, "#!/bin/sh\n"
		   "# entrylab fleet: host class %s of experiment %s, tasks %u-%u of\n"
		   "# %s/%s (array index i runs task %u + i).\n"
		   "# All classes: %s/submit.sh.  Some tasks again:\n"
		   "#   sbatch --array=LIST %s/slurm/%s.sbatch\n",
		fc->name, x->m->exp.name, fc->first, fc->first + fc->n - 1, f->dir,
		MATRIX_PLAN_FILE, fc->first, f->dir, f->dir, fc->name);
	fprintf(o, "#SBATCH --job-name=el-%s-%s\n#SBATCH --array=0-%u\n", x->m->exp.name, fc->name,
		fc->n - 1);
	if (fc->constraint[0])
		fprintf(o, "#SBATCH --constraint=%s\n", fc->constraint);
	fprintf(o, "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n");
	if (x->m->o.trace)
		fprintf(o, "# --trace: exact counts under QEMU TCG, no node to keep quiet\n"
			   "#SBATCH --cpus-per-task=1\n");
	else
		fprintf(o, "# a benchmark: the whole node, nothing running beside it\n"
			   "#SBATCH --exclusive\n");
	/* No --time line: one above a partition's MaxTime leaves the array pending for ever. */
	if (minutes)
		fprintf(o, "# Each boot stops itself at its --timeout; to give Slurm a limit too, submit\n"
			   "# with SBATCH_TIMELIMIT=%u (minutes) in the environment.\n", minutes);
	fprintf(o, "#SBATCH --output=%s/logs/%s-%%A-%%a.out\n", f->dir, fc->name);
	fprintf(o, "exec \"${ENTRYLAB:-%s}\" matrix --run-one %s --task "
		   "$((%u + SLURM_ARRAY_TASK_ID))\n", f->entrylab, f->dir, fc->first);
}

/* slurm/collect.sbatch */
static void print_collect(FILE *o, const struct emit_ctx *x)
{
	fprintf(o, "#!/bin/sh\n"
		   "# entrylab fleet: merges the parts of %s (submit.sh runs it after every\n"
		   "# class's array has ended, afterany).\n"
		   "#SBATCH --job-name=el-%s-collect\n#SBATCH --ntasks=1\n"
		   "#SBATCH --output=%s/logs/collect-%%j.out\n"
		   "exec \"${ENTRYLAB:-%s}\" matrix --collect %s\n",
		x->f->dir, x->m->exp.name, x->f->dir, x->f->entrylab, x->f->dir);
}

/* The opening of either submit.sh: what it is, then "for class in A B; do". */
static void print_submit_head(FILE *o, const struct emit_ctx *x, const char *what)
{
	const struct fleet *f = x->f;

	fprintf(o, "#!/bin/sh\n"
		   "# entrylab fleet %s (experiment %s, %u tasks)%s\n"
		   "# Written by: entrylab matrix --emit %s.\n"
		   "dir=%s\n"
		   "entrylab=${ENTRYLAB:-%s}\n",
		f->dir, x->m->exp.name, f->nt, what, fleet_engine_name(f->engine), f->dir,
		f->entrylab);
}

static void print_class_list(FILE *o, const struct fleet *f)
{
	fprintf(o, "for class in");
	for (unsigned c = 0; c < f->nc; c++)
		fprintf(o, " %s", f->c[c].name);
	fprintf(o, "; do\n");
}

/* submit.sh for Slurm: the arrays, then the collect job after all of them. */
static void print_slurm_submit(FILE *o, const struct emit_ctx *x)
{
	print_submit_head(o, x, ": one Slurm job array per\n"
				"# host class, then the collect job once all of them have "
				"ended.\n# Job ids go to slurm/jobs.");
	fprintf(o, "set -eu\nexport ENTRYLAB=\"$entrylab\"\ndeps=\n: >\"$dir/slurm/jobs\"\n");
	print_class_list(o, x->f);
	fprintf(o, "\tid=$(sbatch --parsable \"$dir/slurm/$class.sbatch\")\n"
		   "\tid=${id%%%%;*}\n"
		   "\techo \"$class $id\" >>\"$dir/slurm/jobs\"\n"
		   "\techo \"submitted class $class: job array $id\"\n"
		   "\tdeps=\"$deps:$id\"\n"
		   "done\n"
		   "id=$(sbatch --parsable --dependency=\"afterany$deps\" "
		   "\"$dir/slurm/collect.sbatch\")\n"
		   "id=${id%%%%;*}\n"
		   "echo \"collect $id\" >>\"$dir/slurm/jobs\"\n"
		   "echo \"submitted collect: job $id, after$deps; then $dir/report.md\"\n");
}

static int slurm_scripts(const struct matrix *m, const struct fleet *f)
{
	struct emit_ctx x = {.m = m, .f = f};
	char name[200];

	if (sub_dir(f, "slurm"))
		return -1;
	for (x.c = 0; x.c < f->nc; x.c++) {
		snprintf(name, sizeof(name), "slurm/%s.sbatch", f->c[x.c].name);
		if (emit_file(&x, name, 0755, print_sbatch))
			return -1;
	}
	return emit_file(&x, "slurm/collect.sbatch", 0755, print_collect) ||
			       emit_file(&x, "submit.sh", 0755, print_slurm_submit)
		       ? -1
		       : 0;
}

/* parallel/CLASS.tasks: the class's task ids, one a line. */
static void print_tasks(FILE *o, const struct emit_ctx *x)
{
	const struct fleet_class *fc = &x->f->c[x->c];

	for (unsigned t = fc->first; t < fc->first + fc->n; t++)
		fprintf(o, "%u\n", t);
}

/* parallel/CLASS.hosts: the --sshloginfile to fill in; this machine to start with. */
static void print_hosts(FILE *o, const struct emit_ctx *x)
{
	const struct fleet_class *fc = &x->f->c[x->c];
	bool bench = !x->m->o.trace;

	fprintf(o, "# GNU parallel --sshloginfile of host class %s%s%s%s: one host of the\n"
		   "# class per line, e.g. 1/user@node7 (1/: one task at a time there%s).\n"
		   "# ':' is this machine.  Every host needs %s and %s at these paths.\n"
		   "%s:\n", fc->name, fc->expect[0] ? " (expect = " : "", fc->expect,
		fc->expect[0] ? ")" : "", bench ? ", the whole host for the benchmark" : "",
		x->f->entrylab, x->f->dir, bench ? "1/" : "");
}

/* submit.sh for GNU parallel: each class on its hosts with a joblog, then the collect. */
static void print_parallel_submit(FILE *o, const struct emit_ctx *x)
{
	print_submit_head(o, x, " over GNU parallel: each\n"
				"# class's tasks on the hosts of parallel/CLASS.hosts, a joblog per "
				"class;\n# run it again and --resume-failed runs only what failed "
				"or never ran.\n# Then the collect.");
	fprintf(o, "set -u\n");
	print_class_list(o, x->f);
	fprintf(o, "\tparallel --will-cite --sshloginfile \"$dir/parallel/$class.hosts\" \\\n"
		   "\t\t--joblog \"$dir/parallel/$class.joblog\" --resume-failed \\\n"
		   "\t\t--arg-file \"$dir/parallel/$class.tasks\" \\\n"
		   "\t\t\"$entrylab\" matrix --run-one \"$dir\" --task {} ||\n"
		   "\t\techo \"class $class: some tasks failed (its joblog says which)\" >&2\n"
		   "done\n"
		   "exec \"$entrylab\" matrix --collect \"$dir\"\n");
}

static int parallel_scripts(const struct matrix *m, const struct fleet *f)
{
	struct emit_ctx x = {.m = m, .f = f};
	char name[200];

	if (sub_dir(f, "parallel"))
		return -1;
	for (x.c = 0; x.c < f->nc; x.c++) {
		snprintf(name, sizeof(name), "parallel/%s.tasks", f->c[x.c].name);
		if (emit_file(&x, name, 0644, print_tasks))
			return -1;
		snprintf(name, sizeof(name), "parallel/%s.hosts", f->c[x.c].name);
		if (emit_file(&x, name, 0644, print_hosts))
			return -1;
	}
	return emit_file(&x, "submit.sh", 0755, print_parallel_submit);
}

/* The copy: the experiment's bytes, unchanged, so its hash is the original's. */
static int copy_experiment(const struct matrix *m, const struct fleet *f)
{
	char err[600];
	size_t len;
	char *text = io_read_file(m->path, 16u << 20, &len, err, sizeof(err));
	int rc;

	if (!text) {
		fprintf(stderr, "entrylab matrix: --emit: %s\n", err);
		return -1;
	}
	rc = report_write_file(f->dir, FLEET_COPY, text, len, err, sizeof(err));
	if (rc)
		fprintf(stderr, "entrylab matrix: --emit: %s\n", err);
	free(text);
	return rc;
}

/* argv without --emit E DIR and --hosts H; *exp_arg follows the experiment's index. */
static int plan_argv(int argc, char *const *argv, int *exp_arg, char **out)
{
	int n = 0, e = *exp_arg;

	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--emit") || !strcmp(argv[i], "--hosts") ||
		    !strncmp(argv[i], "--emit=", 7) || !strncmp(argv[i], "--hosts=", 8)) {
			int skip = !strcmp(argv[i], "--emit") ? 2 : !strncmp(argv[i], "--emit=", 7) ? 1
				 : !strcmp(argv[i], "--hosts")	? 1
								: 0;

			i += skip;
			continue;
		}
		if (i == *exp_arg)
			e = n;
		out[n++] = argv[i];
	}
	*exp_arg = e;
	return n;
}

int fleet_emit(struct matrix *m, struct fleet *f, const char *command, int argc,
	       char *const *argv)
{
	char copy[4096], exe[PATH_MAX], orig[PATH_MAX], *pargv[MATRIX_MAX_ARGV + 8];
	struct matrix_dir d;
	int pargc, exp_arg = m->o.experiment_arg, saved_arg = m->o.experiment_arg, rc;
	ssize_t n;

	if ((rc = make_dir(m->o.emit, f)))
		return rc;
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) < 0) {
		fprintf(stderr, "entrylab matrix: --emit: cannot tell where this entrylab is "
				"(/proc/self/exe: %s); mount /proc\n", strerror(errno));
		return EL_EXIT_VMM;
	}
	exe[n] = '\0';
	if (!path_safe(exe)) {
		fprintf(stderr, "entrylab matrix: --emit: %s: the scripts would have to quote "
				"this path; install entrylab under a plain path\n", exe);
		return EL_EXIT_USAGE;
	}
	snprintf(f->entrylab, sizeof(f->entrylab), "%s", exe);
	snprintf(f->version, sizeof(f->version), "%s", ENTRYLAB_VERSION);
	if (!realpath(m->path, orig))
		snprintf(orig, sizeof(orig), "%s", m->path);
	snprintf(f->origin, sizeof(f->origin), "%s", orig);
	if (copy_experiment(m, f) || sub_dir(f, FLEET_PARTS) || sub_dir(f, "logs"))
		return EL_EXIT_VMM;
	/* plan.json: a matrix plan of the copy, replayable (the nested runner resumes it) */
	matrix_dir_name(m, &d); /* the id */
	snprintf(d.dir, sizeof(d.dir), "%s", f->dir);
	snprintf(d.runs, sizeof(d.runs), "%s/%s", f->dir, MATRIX_RUNS_FILE);
	snprintf(d.plan, sizeof(d.plan), "%s/%s", f->dir, MATRIX_PLAN_FILE);
	if ((size_t)snprintf(copy, sizeof(copy), "%s/%s", f->dir, FLEET_COPY) >= sizeof(copy))
		return EL_EXIT_USAGE;
	pargc = plan_argv(argc, argv, &exp_arg, pargv);
	snprintf(m->path, sizeof(m->path), "%s", copy);
	m->o.experiment_arg = exp_arg;
	rc = matrix_plan_save(m, &d, command, pargc, pargv, fleet_json(f, m));
	m->o.experiment_arg = saved_arg;
	if (rc)
		return EL_EXIT_VMM;
	if ((f->engine == FLEET_SLURM ? slurm_scripts(m, f) : parallel_scripts(m, f)))
		return EL_EXIT_VMM;
	printf("entrylab matrix %s: %u tasks (%u classes x %u variants x %u runs) for %s in %s/\n",
	       m->exp.name, f->nt, f->nc, m->nv, m->repeat, fleet_engine_name(f->engine), f->dir);
	for (unsigned c = 0; c < f->nc; c++)
		printf("  class %-12s tasks %u-%u%s%s%s%s\n", f->c[c].name, f->c[c].first,
		       f->c[c].first + f->c[c].n - 1,
		       f->engine == FLEET_SLURM && f->c[c].constraint[0] ? ", --constraint=" : "",
		       f->engine == FLEET_SLURM ? f->c[c].constraint : "",
		       f->c[c].expect[0] ? ", expect " : "", f->c[c].expect);
	printf("submit: %s/submit.sh\n", f->dir);
	printf("then:   entrylab matrix --collect %s\n", f->dir);
	return 0;
}
