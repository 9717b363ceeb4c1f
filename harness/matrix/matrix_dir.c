/*
 * The matrix directory (matrix_run.h): results/<experiment>/<UTC time>/
 * by default (results/<experiment>-trace/... under --trace), or the
 * directory of -o FILE; created, and its records file opened, before the
 * first boot.  Also the command line that reproduces the matrix.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "matrix_run.h"
#include "status.h"

static void set_paths(struct matrix_dir *d, const char *dir, const char *runs)
{
	size_t n;

	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	n = strlen(d->dir);
	while (n > 1 && d->dir[n - 1] == '/')
		d->dir[--n] = '\0';
	if (runs[0] == '/' || !strcmp(d->dir, "."))
		snprintf(d->runs, sizeof(d->runs), "%s", runs);
	else
		snprintf(d->runs, sizeof(d->runs), "%s/%s", d->dir, runs);
	snprintf(d->plan, sizeof(d->plan), "%s/%s", d->dir, MATRIX_PLAN_FILE);
}

void matrix_dir_name(struct matrix *m, struct matrix_dir *d)
{
	char when[32], dir[4096];
	time_t now = time(NULL);
	struct tm tm;

	memset(d, 0, sizeof(*d));
	d->out.fd = -1;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(m->id, sizeof(m->id), "%s-%d", when, (int)getpid());
	if (m->o.output) {
		const char *slash = strrchr(m->o.output, '/');

		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == m->o.output)
			snprintf(dir, sizeof(dir), "/");
		else
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - m->o.output), m->o.output);
		set_paths(d, dir, slash ? slash + 1 : m->o.output);
		return;
	}
	snprintf(dir, sizeof(dir), "results/%s%s/%s", m->exp.name, m->o.trace ? "-trace" : "",
		 when);
	set_paths(d, dir, MATRIX_RUNS_FILE);
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	fprintf(stderr, "entrylab matrix: cannot create %s: %s; make results/ writable or give "
			"-o FILE\n", path, strerror(errno));
	return -1;
}

int matrix_dir_create(struct matrix *m, struct matrix_dir *d)
{
	char base[4096], name[4200];

	matrix_dir_name(m, d);
	if (!m->o.output) {
		/* results/, results/<experiment>/, then a time no other matrix took. */
		snprintf(base, sizeof(base), "%s", d->dir);
		*strrchr(base, '/') = '\0';
		if (make_dir("results") || make_dir(base))
			return EL_EXIT_USAGE;
		snprintf(name, sizeof(name), "%s", d->dir);
		for (int k = 2; mkdir(name, 0755) < 0; k++) {
			if (errno != EEXIST || k > 99) {
				fprintf(stderr, "entrylab matrix: cannot create %s: %s; make "
						"results/ writable or give -o FILE\n", name,
					strerror(errno));
				return EL_EXIT_USAGE;
			}
			snprintf(name, sizeof(name), "%s-%d", d->dir, k);
		}
		set_paths(d, name, MATRIX_RUNS_FILE);
	}
	return record_out_open(&d->out, "matrix", d->runs);
}

int matrix_dir_reopen(struct matrix_dir *d, const char *dir, const char *runs_file)
{
	memset(d, 0, sizeof(*d));
	d->out.fd = -1;
	set_paths(d, dir, runs_file);
	return record_out_open(&d->out, "matrix", d->runs);
}

void matrix_shell_word(FILE *f, const char *w)
{
	if (*w && !w[strcspn(w, " \t\n'\"\\$`;&|<>()*?!#~{}[]")]) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		fputs(*w == '\'' ? "'\\''" : (char[]){*w, 0}, f);
	fputc('\'', f);
}

char *matrix_command(int argc, char *const *argv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fputs("entrylab", f);
	for (int i = 0; i < argc; i++) {
		fputc(' ', f);
		matrix_shell_word(f, argv[i]);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
