/*
 * A Linux kernel's symbols for a trace where the kernel file has no symbol
 * table (Debian's vmlinux is stripped; a bzImage shows none): /proc/kallsyms'
 * text symbols as entrylab's /init sent them in KSYMS frames, and the cache
 * that spares the next trace of the same kernel file that transfer.
 *
 * Why a cache: COM1 under QEMU moves about 3 us per byte (a write(2) per
 * byte on QEMU's side; the same without -icount and without the plugin),
 * and Debian 6.1's text symbols are 1.9 MiB, 3.9 MiB as frame hex: ~12 s
 * per trace.  The cache file holds the same lines with each address as its
 * offset from _text, so it places the symbols wherever KASLR put the kernel
 * (INFO ktext at run time); it is keyed by the SHA-256 of the kernel file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frame.h"
#include "host_io.h"
#include "sha256.h"
#include "trace.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define CACHE_MAGIC "entrylab-ksyms 1\n"

/* One "ADDR T NAME" line (no newline): its fields; -1 if malformed. */
static int ksym_line(const char *p, const char *end, uint64_t *addr, const char **name,
		     size_t *nlen)
{
	const char *q = p;
	uint64_t v = 0;

	while (q < end && q - p < 16 && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'))) {
		v = v << 4 | (uint64_t)(*q <= '9' ? *q - '0' : *q - 'a' + 10);
		q++;
	}
	if (q == p || end - q < 4 || q[0] != ' ' || (q[1] != 't' && q[1] != 'T') || q[2] != ' ')
		return -1;
	q += 3;
	*name = q;
	/* A module's symbols carry "\t[module]"; ours has none loaded, but keep the name. */
	while (q < end && *q != '\t' && *q != ' ') {
		if ((unsigned char)*q < 0x21 || (unsigned char)*q > 0x7e)
			return -1;
		q++;
	}
	*nlen = (size_t)(q - *name);
	if ((q < end && *q != '\t') || !*nlen ||
	    *nlen >= sizeof(((struct el_trace_symcount *)0)->name))
		return -1;
	*addr = v;
	return 0;
}

int symtab_from_kallsyms(struct el_symtab *t, const char *text, size_t len, uint64_t shift,
			 char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	size_t lines = 0, strbytes = 0;
	unsigned lineno = 0;

	memset(t, 0, sizeof(*t));
	t->image = "kernel";
	for (const char *q = text; q < end; q++)
		lines += *q == '\n';
	t->syms = calloc(lines + 1, sizeof(*t->syms));
	t->strings = malloc(len + 1);
	if (!t->syms || !t->strings) {
		symtab_free(t);
		return ERR("out of memory for %zu kernel symbols", lines);
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t nlen;
		uint64_t addr;

		lineno++;
		if (!nl || ksym_line(p, nl, &addr, &name, &nlen)) {
			symtab_free(t);
			return ERR("kernel symbols line %u is not \"ADDR t|T NAME\"%s", lineno,
				   nl ? "" : " ended by a newline");
		}
		memcpy(t->strings + strbytes, name, nlen);
		t->strings[strbytes + nlen] = '\0';
		/* kallsyms has no sizes: every symbol extends to the next one. */
		t->syms[t->n++] = (struct el_sym){.addr = addr + shift,
						  .name = t->strings + strbytes,
						  .global = name[-2] == 'T' ? 2 : 0};
		strbytes += nlen + 1;
		p = nl + 1;
	}
	if (!t->n) {
		symtab_free(t);
		return ERR("no kernel symbols");
	}
	qsort(t->syms, t->n, sizeof(*t->syms), symtab_cmp);
	/* From the first symbol to a little past the last (its own length is unknown). */
	t->lo[0] = t->syms[0].addr;
	t->hi[0] = t->syms[t->n - 1].addr + EL_KSYMS_TAIL;
	t->nranges = 1;
	return 0;
}

uint64_t kallsyms_text_base(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t nlen;
		uint64_t addr;

		if (!nl)
			break;
		if (!ksym_line(p, nl, &addr, &name, &nlen) && nlen == 5 &&
		    !memcmp(name, "_text", 5))
			return addr;
		p = nl + 1;
	}
	return 0;
}

/* $ENTRYLAB_KSYMS_CACHE, else $XDG_CACHE_HOME/entrylab/ksyms, else ~/.cache/entrylab/ksyms. */
static int cache_dir(char *out, size_t len)
{
	const char *env = getenv("ENTRYLAB_KSYMS_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env)
		n = *env ? snprintf(out, len, "%s", env) : -1;
	else if (xdg && *xdg == '/')
		n = snprintf(out, len, "%s/entrylab/ksyms", xdg);
	else if (home && *home == '/')
		n = snprintf(out, len, "%s/.cache/entrylab/ksyms", home);
	else
		n = -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int ksyms_cache_path(const void *kernel, size_t len, char *out, size_t outlen)
{
	char dir[512], hex[65];
	int n;

	if (cache_dir(dir, sizeof(dir)))
		return -1;
	el_sha256_hex(kernel, len, hex);
	n = snprintf(out, outlen, "%s/%s.ksyms", dir, hex);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

char *ksyms_cache_read(const char *path, size_t *len)
{
	char why[300], *text = io_read_file(path, FRAME_KSYMS_MAX + sizeof(CACHE_MAGIC), len, why,
					   sizeof(why));
	size_t m = sizeof(CACHE_MAGIC) - 1;

	if (!text)
		return NULL;
	if (*len < m || memcmp(text, CACHE_MAGIC, m)) {
		free(text);
		return NULL;
	}
	memmove(text, text + m, *len - m + 1);
	*len -= m;
	return text;
}

/* mkdir -p for the cache directory (the last component included). */
static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

int ksyms_cache_write(const char *path, const char *ksyms, size_t len, uint64_t text_base,
		      char *err, size_t errlen)
{
	char dir[600], tmp[640];
	const char *p = ksyms, *end = ksyms + len;
	char *slash;
	FILE *f;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return ERR("cache path '%s' has no directory", path);
	*slash = '\0';
	if (mkdirs(dir))
		return ERR("cannot create %s: %s", dir, strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return ERR("cannot create a file in %s: %s", dir, strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return ERR("fdopen: %s", strerror(errno));
	}
	fputs(CACHE_MAGIC, f);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t nlen;
		uint64_t addr;

		if (!nl || ksym_line(p, nl, &addr, &name, &nlen))
			break;
		fprintf(f, "%llx %c %.*s\n", (unsigned long long)(addr - text_base), name[-2],
			(int)nlen, name);
		p = nl + 1;
	}
	if (p != end || fchmod(fileno(f), 0644) || fflush(f) || fsync(fileno(f))) {
		fclose(f);
		unlink(tmp);
		return ERR(p != end ? "the kernel symbols are malformed: not cached"
				    : "writing %s failed", tmp);
	}
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return ERR("cannot write %s: %s", path, strerror(errno));
	}
	return 0;
}
