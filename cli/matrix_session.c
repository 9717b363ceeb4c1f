/*
 * One `entrylab matrix` on the host, start to end (cmd_matrix.h): the
 * directory and its records file before the first boot, plan.json, the
 * runs, then the report read back from the records file, printed, saved
 * with report_save(), and the directory named.  SIGINT/SIGTERM stop it
 * cleanly (matrix_signal.c): what is on disk is kept and reported, and the
 * last line says how to resume.  Under the nested runner the host sends
 * the VM `matrix --resume DIR --done-runs LIST` with DIR's plan and the
 * experiment file as files (the records stay here: the list says which runs
 * have one), so the inner entrylab runs exactly the planned runs not done
 * yet, under this matrix's id.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"
#include "cmd_matrix.h"
#include "nested.h"
#include "program.h"
#include "record_out.h"
#include "report_save.h"
#include "status.h"

/*
 * The variants' file = files (experiment_check made them absolute), once
 * each, after files[0..*n).  The nested runner carries regular files only
 * (to the same paths), so a directory is refused here, as `run` refuses
 * a --file directory there.  0 or EL_EXIT_USAGE (printed).
 */
static int nested_file_lines(const struct matrix *m, const char **files, unsigned *n)
{
	for (unsigned i = 0; i < m->nv; i++) {
		const struct el_run_request *r = &m->v[i].req;

		for (unsigned f = 0; f < r->nr_files; f++) {
			const char *host = r->files[f].host;
			struct stat st;
			bool seen = false;

			if (stat(host, &st) == 0 && !S_ISREG(st.st_mode)) {
				fprintf(stderr, "entrylab matrix: %s: variant '%s': file = %s is a "
						"directory, and the nested runner carries regular "
						"files only; give its files one file = line each, or "
						"run where /dev/kvm is\n", m->path,
					m->exp.variants[m->v[i].index].name, host);
				return EL_EXIT_USAGE;
			}
			for (unsigned j = 0; j < *n; j++)
				seen = seen || !strcmp(files[j], host);
			if (!seen)
				files[(*n)++] = host;
		}
	}
	return 0;
}

/* The whole matrix as one command in one nested VM: `entrylab matrix --resume DIR`. */
static int run_nested(struct matrix *m, struct matrix_dir *d, const char *why,
		      double boot_timeout_s)
{
	char file[PATH_MAX], kernel[PATH_MAX], err[600], *done = matrix_done_list(m);
	char *argv[8] = {"entrylab", "matrix", "--resume", d->dir, "--done-runs", done};
	/* plan, file, the kernels (one per variant, the default) and the file = files */
	const char **files = calloc(3 + EXP_MAX_VARIANTS * (1 + EL_FILES_MAX), sizeof(*files));
	unsigned nfiles = 2;
	struct matrix_progress p;
	int argc = 6, rc;

	if (!done || !files) {
		free(done);
		free(files);
		return EL_EXIT_VMM;
	}
	files[0] = file;
	files[1] = d->plan;
	if (!realpath(m->path, file))
		snprintf(file, sizeof(file), "%s", m->path);
	/* The variants' kernel files, once each (experiment_check made them absolute). */
	for (unsigned i = 0; i < m->nv; i++) {
		const char *k = m->v[i].req.kernel;
		bool seen = false;

		for (unsigned j = 2; k && j < nfiles; j++)
			seen = seen || !strcmp(files[j], k);
		if (k && !seen)
			files[nfiles++] = k;
	}
	if ((rc = nested_file_lines(m, files, &nfiles))) {
		free(done);
		free(files);
		return rc;
	}
	/*
	 * Linux variants without kernel = boot the default kernel: the one
	 * resolved here is sent and named to the inner matrix by
	 * $ENTRYLAB_LINUX_KERNEL (vmm/program.h), so it boots that very file.
	 */
	for (unsigned i = 0; i < m->nv; i++) {
		if (m->v[i].req.guest != EL_GUEST_LINUX || m->v[i].req.kernel)
			continue;
		if ((rc = linux_kernel_default(kernel, sizeof(kernel), err, sizeof(err)))) {
			fprintf(stderr, "entrylab matrix: %s\n", err);
			free(done);
			free(files);
			return rc;
		}
		files[nfiles++] = kernel;
		setenv(EL_LINUX_KERNEL_ENV, kernel, 1);
		break;
	}
	if (m->o.verbose)
		argv[argc++] = "-v";
	argv[argc] = NULL;
	matrix_progress_init(&p, m);
	rc = nested_run(&(struct nested_request){
		.argc = argc, .argv = argv, .output = &d->out, .files = files, .why = why,
		.verbose = m->o.verbose, .timeout_s = boot_timeout_s,
		.cold = m->o.cold,
		.boots = m->nv * m->repeat, .on_record = matrix_progress_line, .ctx = &p,
		.stop = matrix_signal_flag(),
	});
	free(done);
	free(files);
	return rc;
}

/* The kinds of file report_save() writes. */
static bool report_file(const char *name)
{
	static const char *const ext[] = {".md", ".csv", ".svg"};
	size_t n = strlen(name);

	for (size_t i = 0; i < EL_ARRAY_SIZE(ext); i++)
		if (n > strlen(ext[i]) && !strcmp(name + n - strlen(ext[i]), ext[i]))
			return true;
	return false;
}

/*
 * "a, b, c": what this matrix wrote into its directory: the records, the
 * plan, and the report files written since it started (a -o directory may
 * hold other files).
 */
static void list_files(const struct matrix_dir *d, time_t since, char *buf, size_t len)
{
	const char *runs = strrchr(d->runs, '/') ? strrchr(d->runs, '/') + 1 : d->runs;
	struct dirent **names;
	/* (an empty records file of a matrix stopped before its first record is removed) */
	size_t o = (size_t)snprintf(buf, len, "%s%s%s", access(d->runs, F_OK) ? "" : runs,
				    access(d->runs, F_OK) ? "" : ", ", MATRIX_PLAN_FILE);
	int n = scandir(d->dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[8400];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", d->dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && report_file(names[i]->d_name) &&
		    strcmp(names[i]->d_name, runs) && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && st.st_mtime >= since && o < len)
			o += (size_t)snprintf(buf + o, len - o, ", %s", names[i]->d_name);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* The report of what is on disk: printed, saved into the directory, the directory named. */
static int finish(struct matrix *m, struct matrix_dir *d, const char *command, time_t since,
		  int sig)
{
	struct report_row rows[EXP_MAX_VARIANTS];
	struct report_meta meta = {0};
	char err[600], files[1024];
	struct report r;
	int rc = 0;

	/* experiment, seed, description, headline and the seed table's rows */
	experiment_report_meta(&m->exp, rows, &meta);
	meta.command = command;
	meta.runs_file = strrchr(d->runs, '/') ? strrchr(d->runs, '/') + 1 : d->runs;
	meta.scale = m->o.scale_seed ? "seed" : "default";
	meta.interrupted = sig != 0;
	report_init(&r);
	if (matrix_report_load(m, d->runs, &r, &meta.kept, &meta.planned)) {
		report_free(&r);
		return EL_EXIT_VMM;
	}
	cmd_matrix_print(m, &r, d->runs);
	fflush(stdout);
	if (report_save(&r, d->dir, &meta, err, sizeof(err))) {
		fprintf(stderr, "entrylab matrix: the report was not saved: %s\n", err);
		rc = EL_EXIT_VMM;
	}
	report_free(&r);
	list_files(d, since, files, sizeof(files));
	if (d->out.failed)
		fprintf(stderr, "entrylab matrix: stopped: records could not be written to %s; "
				"%s/ holds only the runs before that (%s)\n", d->runs, d->dir, files);
	else
		fprintf(stderr, "results in %s/ (%s)\n", d->dir, files);
	if (sig)
		fprintf(stderr, "interrupted: %u of %u runs kept in %s; entrylab matrix --resume %s "
				"continues\n", meta.kept, meta.planned, d->dir, d->dir);
	return rc;
}

/*
 * The runs into d's records file, natively or in one nested VM, with
 * SIGINT/SIGTERM handlers installed (left installed: the caller restores
 * them); the file closed.  *sig: the signal that stopped it, or 0.
 */
static int run_records(struct matrix *m, struct matrix_dir *d, const char *nested_why,
		       double boot_timeout_s, int *sig)
{
	int rc;

	matrix_signal_install();
	rc = nested_why ? run_nested(m, d, nested_why, boot_timeout_s) : matrix_exec(m, &d->out);
	*sig = matrix_signal_stopped();
	if (record_out_close(&d->out) && (!rc || *sig))
		rc = EL_EXIT_VMM;
	else if (*sig)
		rc = 128 + *sig;
	return rc;
}

int matrix_session_host(struct matrix *m, const struct matrix_saved *s, const char *command,
			int argc, char **argv, const char *nested_why, double boot_timeout_s)
{
	time_t since = time(NULL);
	struct matrix_dir d;
	int rc, frc, sig;

	if (s) {
		rc = matrix_dir_reopen(&d, m->o.resume, s->runs_file);
		if (!rc && matrix_done_load(m, d.runs))
			rc = EL_EXIT_VMM;
	} else {
		rc = matrix_dir_create(m, &d);
		if (!rc && matrix_plan_save(m, &d, command, argc, argv, NULL))
			rc = EL_EXIT_USAGE;
	}
	if (rc) {
		record_out_close(&d.out);
		return rc;
	}
	rc = run_records(m, &d, nested_why, boot_timeout_s, &sig);
	frc = finish(m, &d, s ? s->command : command, since, sig);
	matrix_signal_restore();
	return rc ? rc : frc;
}

int matrix_session_inner(struct matrix *m, const struct matrix_saved *s)
{
	char runs[8400];
	struct record_out out;
	int rc;

	if (s) {
		if (m->o.done_runs) {
			if (matrix_done_parse(m, m->o.done_runs))
				return EL_EXIT_USAGE;
		} else {
			/* `--resume DIR` typed inside a VM of one's own: DIR's records are here */
			if (s->runs_file[0] == '/')
				snprintf(runs, sizeof(runs), "%s", s->runs_file);
			else
				snprintf(runs, sizeof(runs), "%s/%s", m->o.resume, s->runs_file);
			if (matrix_done_load(m, runs))
				return EL_EXIT_VMM;
		}
	} else {
		struct matrix_dir d;

		matrix_dir_name(m, &d); /* only for the id: the host keeps the directory */
	}
	if ((rc = record_out_open(&out, "matrix", nested_inner_output())))
		return rc;
	rc = matrix_exec(m, &out);
	if (record_out_close(&out))
		rc = EL_EXIT_VMM;
	return rc;
}

int matrix_session_task(struct matrix *m, const char *dir, const char *records,
			const char *nested_why, double boot_timeout_s)
{
	struct matrix_dir d;
	int rc, sig;

	memset(&d, 0, sizeof(d));
	snprintf(d.dir, sizeof(d.dir), "%s", dir);
	snprintf(d.plan, sizeof(d.plan), "%s/%s", dir, MATRIX_PLAN_FILE);
	snprintf(d.runs, sizeof(d.runs), "%s", records);
	if ((rc = record_out_open(&d.out, "matrix", records)))
		return rc;
	rc = run_records(m, &d, nested_why, boot_timeout_s, &sig);
	matrix_signal_restore();
	return rc;
}
