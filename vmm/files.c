/*
 * --file (files.h): the argument's two paths checked, then each file or
 * tree walked in name order (so archives are reproducible) into the cpio.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "el_limits.h"
#include "files.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* 0 if path is usable as GUESTPATH; else -1 with why in err. */
static int guest_check(const char *path, char *err, size_t errlen)
{
	const char *p = path;

	if (path[0] != '/')
		return ERR("GUESTPATH '%s' is not absolute; give it from the root, e.g. =/bin/tool",
			   path);
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return ERR("GUESTPATH '%s' has a '%.*s' component; give the path without "
				   "'.' and '..'", path, (int)n, p);
		p += n;
	}
	if (!path[strspn(path, "/")])
		return ERR("GUESTPATH '%s' is the root; give a file's path below it, e.g. =/data",
			   path);
	if (!strncmp(path + strspn(path, "/"), "init", 4) &&
	    (path[strspn(path, "/") + 4] == '\0' || path[strspn(path, "/") + 4] == '/'))
		return ERR("GUESTPATH '%s' collides with /init, the program the guest boots; "
			   "give another path (the program itself is --exec)", path);
	return 0;
}

/* Repeated slashes made one, a trailing one dropped: "//bin//x/" is "/bin/x". */
static void guest_normalize(char *path)
{
	char *w = path;

	for (const char *r = path; *r; r++)
		if (!(*r == '/' && w > path && w[-1] == '/'))
			*w++ = *r;
	if (w > path + 1 && w[-1] == '/')
		w--;
	*w = '\0';
}

int files_parse(const char *arg, struct el_file *f, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '='), *base;
	size_t hlen = eq ? (size_t)(eq - arg) : strlen(arg);
	int n;

	memset(f, 0, sizeof(*f));
	if (!hlen)
		return ERR("--file '%s' names no host file; give --file HOSTPATH[=GUESTPATH]", arg);
	if (hlen >= sizeof(f->host))
		return ERR("--file: HOSTPATH is %zu bytes, longer than %d; give a shorter path "
			   "(a relative one, or a symlink)", hlen, EL_FILE_PATH_MAX - 1);
	memcpy(f->host, arg, hlen);
	if (eq) {
		n = snprintf(f->guest, sizeof(f->guest), "%s", eq + 1);
	} else {
		while (hlen > 1 && f->host[hlen - 1] == '/')
			f->host[--hlen] = '\0'; /* dir/ is dir */
		base = strrchr(f->host, '/');
		base = base ? base + 1 : f->host;
		n = snprintf(f->guest, sizeof(f->guest), "/%s", base);
	}
	if (n < 0 || (size_t)n >= sizeof(f->guest))
		return ERR("--file '%s': GUESTPATH longer than %d bytes; give a shorter one", arg,
			   EL_FILE_PATH_MAX - 1);
	if (guest_check(f->guest, err, errlen)) {
		char why[300];

		snprintf(why, sizeof(why), "%s", err);
		return ERR("--file '%s': %s", arg, why);
	}
	guest_normalize(f->guest);
	return 0;
}

struct walk {
	struct el_cpio *c;
	struct el_file *f;
	uint32_t entries; /* all files so far */
	uint64_t bytes;
	char *err;
	size_t errlen;
};

/* One more entry of size bytes, within the bounds; 0 or -1 (err set). */
static int walk_count(struct walk *w, const char *host, uint64_t bytes)
{
	char *err = w->err;
	size_t errlen = w->errlen;

	if (w->entries >= EL_FILES_ENTRIES_MAX)
		return ERR("--file %s: more than %u files and directories in all (at %s); pack "
			   "fewer, or a smaller tree", w->f->host, EL_FILES_ENTRIES_MAX, host);
	if (bytes > EL_FILES_BYTES_MAX - w->bytes)
		return ERR("--file %s: the files come to more than %llu MiB in all (at %s, %llu "
			   "bytes); pack fewer or smaller files", w->f->host,
			   EL_FILES_BYTES_MAX >> 20, host, (unsigned long long)bytes);
	w->entries++;
	w->bytes += bytes;
	w->f->entries++;
	w->f->bytes += bytes;
	return 0;
}

static int walk_cpio(struct walk *w)
{
	char *err = w->err;
	size_t errlen = w->errlen;

	if (w->c->error[0])
		return ERR("--file %s: %s", w->f->host, w->c->error);
	return 0;
}

static int walk_tree(struct walk *w, const char *host, const char *guest, int follow);

static int walk_dir(struct walk *w, const char *host, const char *guest, mode_t mode)
{
	char *err = w->err;
	size_t errlen = w->errlen;
	struct dirent **names;
	int n, rc = 0;

	if (walk_count(w, host, 0) || (el_cpio_add_dir(w->c, guest, mode & 07777), walk_cpio(w)))
		return -1;
	n = scandir(host, &names, NULL, alphasort);
	if (n < 0)
		return ERR("--file: cannot list %s: %s; make it readable", host, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *d = names[i]->d_name;
		char h[PATH_MAX], g[EL_FILE_PATH_MAX];

		if (rc || !strcmp(d, ".") || !strcmp(d, ".."))
			continue;
		if ((size_t)snprintf(h, sizeof(h), "%s/%s", host, d) >= sizeof(h))
			rc = ERR("--file: %s/%s: host path too long", host, d);
		else if ((size_t)snprintf(g, sizeof(g), "%s/%s", guest, d) >= sizeof(g))
			rc = ERR("--file %s: guest path %s/%s is longer than %d bytes; give a "
				 "shorter GUESTPATH", w->f->host, guest, d, EL_FILE_PATH_MAX - 1);
		else
			rc = walk_tree(w, h, g, 0);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* host into the archive at guest; follow: stat (the named file) rather than lstat. */
static int walk_tree(struct walk *w, const char *host, const char *guest, int follow)
{
	char *err = w->err;
	size_t errlen = w->errlen;
	struct stat st;

	if ((follow ? stat(host, &st) : lstat(host, &st)) < 0)
		return ERR("--file: cannot read %s: %s; give an existing, readable file", host,
			   strerror(errno));
	if (S_ISDIR(st.st_mode))
		return walk_dir(w, host, guest, st.st_mode);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t len = readlink(host, target, sizeof(target) - 1);

		if (len < 0)
			return ERR("--file: cannot read the link %s: %s", host, strerror(errno));
		target[len] = '\0';
		if (walk_count(w, host, (uint64_t)len))
			return -1;
		el_cpio_add_symlink(w->c, guest, target);
		return walk_cpio(w);
	}
	if (!S_ISREG(st.st_mode))
		return ERR("--file: %s is a device, fifo or socket; only regular files, "
			   "directories and symbolic links are packed: leave it out", host);
	if (walk_count(w, host, (uint64_t)st.st_size))
		return -1;
	el_cpio_add_host_file(w->c, guest, st.st_mode & 07777, host);
	return walk_cpio(w);
}

/* a is b, or a directory above it (whole components). */
static int path_within(const char *b, const char *a)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

int files_pack(struct el_cpio *c, struct el_file *files, unsigned n, const char *reserved,
	       char *err, size_t errlen)
{
	struct walk w = {c, NULL, 0, 0, err, errlen};

	if (n > EL_FILES_MAX)
		return ERR("%u --file options, more than %u; pack a directory instead of its files",
			   n, EL_FILES_MAX);
	for (unsigned i = 0; i < n; i++) {
		if (reserved && (path_within(files[i].guest, reserved) ||
				 path_within(reserved, files[i].guest)))
			return ERR("--file %s: GUESTPATH %s collides with %s, which the guest's "
				   "/init uses; give another path", files[i].host, files[i].guest,
				   reserved);
		for (unsigned j = 0; j < i; j++)
			if (path_within(files[i].guest, files[j].guest) ||
			    path_within(files[j].guest, files[i].guest))
				return ERR("--file %s and --file %s: GUESTPATHs %s and %s overlap; "
					   "give each its own path", files[j].host, files[i].host,
					   files[j].guest, files[i].guest);
	}
	for (unsigned i = 0; i < n; i++) {
		w.f = &files[i];
		files[i].bytes = files[i].entries = 0;
		if ((el_cpio_add_parents(c, files[i].guest), walk_cpio(&w)) ||
		    walk_tree(&w, files[i].host, files[i].guest, 1))
			return -1;
	}
	return 0;
}
