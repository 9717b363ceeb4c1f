/*
 * Finding experiment files: a path as given, or a name looked up in the
 * shipped directory, so `entrylab matrix pti-global` works from anywhere.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "experiment.h"

#ifndef EL_EXPERIMENTS_DIR
#define EL_EXPERIMENTS_DIR "harness/experiments"
#endif

const char *experiment_dir(void)
{
	const char *d = getenv("ENTRYLAB_EXPERIMENTS");

	return d && *d ? d : EL_EXPERIMENTS_DIR;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int experiment_list_files(char ***paths)
{
	const char *dir = experiment_dir();
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	int n = 0;

	*paths = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char **nv;

		if (len < 5 || strcmp(de->d_name + len - 4, ".ini") || de->d_name[0] == '.')
			continue;
		nv = realloc(v, sizeof(*v) * (size_t)(n + 1));
		if (!nv || asprintf(&nv[n], "%s/%s", dir, de->d_name) < 0) {
			v = nv ? nv : v;
			break;
		}
		v = nv;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), by_name);
	*paths = v;
	return n;
}

void experiment_list_free(char **paths, int n)
{
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* The file in the directory whose [experiment] name is what (parse errors do not matter here). */
static bool find_by_name(const char *what, char *path, size_t len)
{
	char **files, *junk = NULL;
	size_t junk_len = 0;
	FILE *quiet = open_memstream(&junk, &junk_len);
	bool found = false;
	int n = experiment_list_files(&files);

	for (int i = 0; quiet && i < n && !found; i++) {
		struct el_experiment e = {0};

		experiment_parse(files[i], &e, quiet);
		if (e.kv[EK_NAME].text && !strcmp(e.kv[EK_NAME].text, what)) {
			snprintf(path, len, "%s", files[i]);
			found = true;
		}
		experiment_free(&e);
	}
	if (quiet)
		fclose(quiet);
	free(junk);
	experiment_list_free(files, n);
	return found;
}

int experiment_resolve(const char *what, char *path, size_t len)
{
	const char *dir = experiment_dir();

	if (is_file(what)) {
		snprintf(path, len, "%s", what);
		return 0;
	}
	if (!strchr(what, '/')) {
		snprintf(path, len, "%s/%s.ini", dir, what);
		if (is_file(path) || find_by_name(what, path, len))
			return 0;
	}
	fprintf(stderr,
		"entrylab: no experiment '%s': no such file%s%s%s; `entrylab list "
		"experiments` names the shipped ones (set ENTRYLAB_EXPERIMENTS to look "
		"elsewhere)\n",
		what, strchr(what, '/') ? "" : ", and no experiment of that name in ",
		strchr(what, '/') ? "" : dir, "");
	return -1;
}
