/*
 * newc cpio writer (cpio.h): a growing buffer of 110-byte ASCII headers,
 * names and data, each padded to 4 bytes as the format requires.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"

#define CPIO_HDR_LEN 110
#define CPIO_MAX_NAME 4096

static int cpio_fail(struct el_cpio *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	return -1;
}

void el_cpio_init(struct el_cpio *c)
{
	memset(c, 0, sizeof(*c));
	c->next_ino = 1;
}

void el_cpio_free(struct el_cpio *c)
{
	for (size_t i = 0; i < c->nr_dirs; i++)
		free(c->dirs[i]);
	free(c->dirs);
	free(c->buf);
	el_cpio_init(c);
}

static int cpio_reserve(struct el_cpio *c, size_t more)
{
	size_t cap = c->cap ? c->cap : 4096;
	unsigned char *buf;

	if (more > SIZE_MAX / 2 - c->len)
		return cpio_fail(c, "cpio archive too large");
	while (cap < c->len + more)
		cap *= 2;
	if (cap == c->cap)
		return 0;
	buf = realloc(c->buf, cap);
	if (!buf)
		return cpio_fail(c, "out of memory building a %zu-byte cpio archive", cap);
	c->buf = buf;
	c->cap = cap;
	return 0;
}

static void cpio_put(struct el_cpio *c, const void *data, size_t len)
{
	memcpy(c->buf + c->len, data, len);
	c->len += len;
	while (c->len & 3)
		c->buf[c->len++] = 0;
}

/* Strips leading slashes; refuses empty names and "." / ".." components. */
static const char *cpio_name(struct el_cpio *c, const char *path)
{
	const char *name = path, *p;

	while (*name == '/')
		name++;
	if (!*name || strlen(name) >= CPIO_MAX_NAME) {
		cpio_fail(c, "cpio entry '%s': name empty or too long", path);
		return NULL;
	}
	for (p = name; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			cpio_fail(c, "cpio entry '%s': empty, '.' or '..' path component", path);
			return NULL;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return name;
}

static int cpio_entry(struct el_cpio *c, const char *name, unsigned int mode, const void *data,
		      size_t len)
{
	size_t namesize = strlen(name) + 1;
	char hdr[CPIO_HDR_LEN + 1];

	if (c->error[0])
		return -1;
	if (len > 0xffffffffu)
		return cpio_fail(c, "cpio entry '%s': %zu bytes is more than newc can hold", name,
				 len);
	if (cpio_reserve(c, CPIO_HDR_LEN + namesize + len + 8))
		return -1;
	/* ino mode uid gid nlink mtime filesize devmaj devmin rdevmaj rdevmin namesize check */
	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->next_ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned int)len, 0u,
		 0u, 0u, 0u, (unsigned int)namesize, 0u);
	memcpy(c->buf + c->len, hdr, CPIO_HDR_LEN);
	c->len += CPIO_HDR_LEN;
	cpio_put(c, name, namesize);
	if (len)
		cpio_put(c, data, len);
	return 0;
}

static int cpio_have_dir(const struct el_cpio *c, const char *name, size_t n)
{
	for (size_t i = 0; i < c->nr_dirs; i++)
		if (strlen(c->dirs[i]) == n && !memcmp(c->dirs[i], name, n))
			return 1;
	return 0;
}

static int cpio_dir(struct el_cpio *c, const char *name, size_t n, unsigned int mode)
{
	char **dirs;
	char *copy;

	if (cpio_have_dir(c, name, n))
		return 0;
	copy = strndup(name, n);
	dirs = realloc(c->dirs, (c->nr_dirs + 1) * sizeof(*dirs));
	if (!copy || !dirs) {
		free(copy);
		if (dirs)
			c->dirs = dirs;
		return cpio_fail(c, "out of memory adding directory '%.*s'", (int)n, name);
	}
	c->dirs = dirs;
	c->dirs[c->nr_dirs++] = copy;
	return cpio_entry(c, copy, S_IFDIR | (mode & 07777), NULL, 0);
}

int el_cpio_add_parents(struct el_cpio *c, const char *path)
{
	const char *name = cpio_name(c, path), *slash;

	if (!name)
		return -1;
	for (slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/'))
		if (cpio_dir(c, name, (size_t)(slash - name), 0755))
			return -1;
	return 0;
}

int el_cpio_add_dir(struct el_cpio *c, const char *path, unsigned int mode)
{
	const char *name = cpio_name(c, path);

	if (!name)
		return -1;
	return cpio_dir(c, name, strlen(name), mode);
}

int el_cpio_add_file(struct el_cpio *c, const char *path, unsigned int mode, const void *data,
		     size_t len)
{
	const char *name = cpio_name(c, path);

	if (!name)
		return -1;
	return cpio_entry(c, name, S_IFREG | (mode & 07777), data, len);
}

int el_cpio_add_symlink(struct el_cpio *c, const char *path, const char *target)
{
	const char *name = cpio_name(c, path);

	if (!name)
		return -1;
	if (!*target)
		return cpio_fail(c, "cpio symlink '%s': empty target", path);
	return cpio_entry(c, name, S_IFLNK | 0777, target, strlen(target));
}

int el_cpio_add_host_file(struct el_cpio *c, const char *path, unsigned int mode,
			  const char *host_path)
{
	struct stat st;
	unsigned char *data;
	size_t got = 0;
	int fd, rc;

	if (c->error[0])
		return -1;
	fd = open(host_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = cpio_fail(c, "cannot read %s: %s", host_path,
			       fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return rc;
	}
	data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!data) {
		close(fd);
		return cpio_fail(c, "out of memory reading %s", host_path);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);

		if (n <= 0) {
			rc = cpio_fail(c, "reading %s: %s", host_path,
				       n < 0 ? strerror(errno) : "file shrank while read");
			free(data);
			close(fd);
			return rc;
		}
		got += (size_t)n;
	}
	close(fd);
	rc = el_cpio_add_file(c, path, mode, data, got);
	free(data);
	return rc;
}

int el_cpio_finish(struct el_cpio *c)
{
	return cpio_entry(c, "TRAILER!!!", 0, NULL, 0);
}
