/*
 * usercheck, /proc/self/maps: every line in Linux's format
 *   start-end perms offset major:minor inode [padding name]
 * (lower-case hex, addresses and offset at least 8 digits, device numbers at
 * least 2), sorted, and the special mappings where Linux puts them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/vdso.h"
#include "usercheck.h"

#define PAGE 4096ul
#define VSYSCALL_START 0xffffffffff600000ul

struct map {
	unsigned long start, end, offset, inode;
	unsigned major, minor;
	char perms[5];
	const char *name; /* "" for anonymous */
};

/* Lower-case hex with at least `min` digits. */
static const char *hex(const char *p, unsigned min, unsigned long *v)
{
	unsigned n = 0;

	for (*v = 0; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++, n++)
		*v = *v << 4 | (unsigned long)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
	return n >= min && n <= 16 ? p : NULL;
}

static const char *dec(const char *p, unsigned long *v)
{
	const char *s = p;

	for (*v = 0; *p >= '0' && *p <= '9'; p++)
		*v = *v * 10 + (unsigned long)(*p - '0');
	return p > s ? p : NULL;
}

static bool parse(const char *p, struct map *m)
{
	static const char allowed[4][3] = { "r-", "w-", "x-", "ps" };
	unsigned long maj, min;

	if (!(p = hex(p, 8, &m->start)) || *p++ != '-' || !(p = hex(p, 8, &m->end)) || *p++ != ' ')
		return false;
	for (int i = 0; i < 4; i++, p++)
		if (!*p || !strchr(allowed[i], *p))
			return false;
	memcpy(m->perms, p - 4, 4);
	m->perms[4] = 0;
	if (*p++ != ' ' || !(p = hex(p, 8, &m->offset)) || *p++ != ' ' || !(p = hex(p, 2, &maj)) ||
	    *p++ != ':' || !(p = hex(p, 2, &min)) || *p++ != ' ' || !(p = dec(p, &m->inode)))
		return false;
	m->major = (unsigned)maj;
	m->minor = (unsigned)min;
	while (*p == ' ')
		p++;
	m->name = p;
	return m->start < m->end && !(m->start & (PAGE - 1)) && !(m->end & (PAGE - 1));
}

static char *read_maps(void)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int fd = open("/proc/self/maps", O_RDONLY);
	ssize_t got;

	if (fd < 0 || !buf) {
		free(buf);
		return NULL;
	}
	while (buf && (got = read(fd, buf + len, cap - len - 1)) > 0) {
		len += got;
		if (cap - len < 4096)
			buf = realloc(buf, cap *= 2);
	}
	close(fd);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* The parsed lines, or NULL with a FAIL printed. */
static struct map *parse_all(char *text, unsigned *count)
{
	unsigned n = 0, cap = 64;
	struct map *maps = malloc(cap * sizeof(*maps));

	for (char *line = strtok(text, "\n"); line && maps; line = strtok(NULL, "\n")) {
		if (n == cap)
			maps = realloc(maps, (cap *= 2) * sizeof(*maps));
		if (maps && !parse(line, &maps[n])) {
			el_fail("maps.format", "line %u does not parse: '%s'", n + 1, line);
			free(maps);
			return NULL;
		}
		if (maps && n && maps[n].start < maps[n - 1].end) {
			el_fail("maps.format", "line %u overlaps or is out of order: '%s'", n + 1,
				line);
			free(maps);
			return NULL;
		}
		n++;
	}
	*count = n;
	return maps;
}

static const struct map *find_name(const struct map *m, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(m[i].name, name) == 0)
			return &m[i];
	return NULL;
}

static const struct map *find_addr(const struct map *m, unsigned n, unsigned long a)
{
	for (unsigned i = 0; i < n; i++)
		if (m[i].start <= a && a < m[i].end)
			return &m[i];
	return NULL;
}

static void check_vsyscall(const struct map *m, unsigned n, const char *mode)
{
	const struct map *v = find_name(m, n, "[vsyscall]");
	const char *want = !strcmp(mode, "xonly") ? "--xp" : "r-xp";

	if (!strcmp(mode, "none") || (!v && !strcmp(mode, "any"))) {
		el_expect("maps.vsyscall", !v, "[vsyscall] mapped although vsyscall=none");
		return;
	}
	/* Linux shows the gate VMA r-xp in native and emulate modes; r--p is tolerated. */
	el_expect("maps.vsyscall",
		  v && v->start == VSYSCALL_START && v->end == VSYSCALL_START + PAGE &&
			  (!strcmp(v->perms, want) || !strcmp(mode, "any") ||
			   (!strcmp(mode, "emulate") && !strcmp(v->perms, "r--p"))),
		  "want ffffffffff600000-ffffffffff601000 %s for vsyscall=%s, got %s",
		  strcmp(mode, "any") ? want : "(any perms)", mode, v ? v->perms : "no [vsyscall]");
}

void uc_maps(struct uc_env *env)
{
	unsigned long vdso = el_vdso_base(), brk_end, probe_addr;
	char *keep = malloc(64), *text = NULL, *probe;
	const struct map *s, *h, *v, *vv, *t, *a, *a3, *hole;
	struct map *maps = NULL;
	unsigned n = 0;
	int local = 0;

	/* Three read-only pages with a hole in the middle of a longer mapping. */
	probe = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED || munmap(probe + PAGE, PAGE) != 0)
		probe = NULL;
	probe_addr = (unsigned long)probe;
	brk_end = (uc_sys(SYS_brk, 0, 0, 0) + PAGE - 1) & ~(PAGE - 1);
	text = read_maps();
	if (el_expect("maps.read", text != NULL, "open/read /proc/self/maps: %s", strerror(errno)))
		maps = parse_all(text, &n);
	if (maps) {
		el_pass("maps.format");
		s = find_name(maps, n, "[stack]");
		el_expect("maps.stack", s && s->start <= (unsigned long)&local &&
			  (unsigned long)&local < s->end && !strcmp(s->perms, "rw-p"),
			  "no [stack] rw-p holding a local variable");
		h = NULL;
		for (unsigned i = 0; i < n; i++)
			if (!strcmp(maps[i].name, "[heap]") && maps[i].end == brk_end)
				h = &maps[i];
		el_expect("maps.heap", keep && h && h->end == brk_end,
			  "no [heap] line ending at the break %#lx after malloc", brk_end);
		v = find_name(maps, n, "[vdso]");
		vv = find_name(maps, n, "[vvar]");
		if (vdso)
			el_expect("maps.vdso", v && v->start == vdso && !strcmp(v->perms, "r-xp") &&
				  vv && vv->perms[0] == 'r' && vv->perms[2] == '-',
				  "want [vdso] r-xp at AT_SYSINFO_EHDR %#lx, a readable [vvar]",
				  vdso);
		else
			el_expect("maps.vdso", !v, "[vdso] mapped but AT_SYSINFO_EHDR absent");
		check_vsyscall(maps, n, env->vsyscall);
		t = find_addr(maps, n, (unsigned long)&uc_maps);
		el_expect("maps.text", t && t->perms[0] == 'r' && t->perms[2] == 'x',
			  "the program's code at %p is not in an r-x line", (void *)&uc_maps);
		a = probe ? find_addr(maps, n, probe_addr) : NULL;
		hole = probe ? find_addr(maps, n, probe_addr + PAGE) : NULL;
		a3 = probe ? find_addr(maps, n, probe_addr + 3 * PAGE) : NULL;
		el_expect("maps.anon",
			  a && !hole && a3 && a->inode == 0 && !strcmp(a->perms, "r--p") &&
				  !strcmp(a3->perms, "r--p") &&
				  find_addr(maps, n, probe_addr + 2 * PAGE) == a3,
			  "mmap'd r--p pages with a munmap'd hole do not show as such");
	}
	if (probe) {
		munmap(probe, PAGE);
		munmap(probe + 2 * PAGE, 2 * PAGE);
	}
	free(maps);
	free(text);
	free(keep);
}
