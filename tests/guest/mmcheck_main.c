/*
 * mmcheck: address spaces as Linux x86-64 has them (see mmcheck.h).
 *   mmcheck              every group
 *   mmcheck GROUP...     only these
 *   mmcheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmcheck.h"

static const struct el_group groups[] = {
	{"remap", "mremap: shrink, grow in place, move, FIXED, DONTUNMAP, errors", mc_remap},
	{"vdso", "mremap of [vdso] and [vvar]: whole only, the kernel follows", mc_vdso},
	{"vm", "process_vm_readv/writev: iovecs, partial transfers, errors", mc_vm},
	{"fork", "fork: private copies, MAP_SHARED shared, mapped files", mc_fork},
	{"proc", "/proc/self/smaps and status", mc_proc},
};

long mc_sys(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(nr, a, b, c, d, e, f);

	return r == -1 ? -errno : r;
}

void *mc_map(size_t pages)
{
	void *p = mmap(NULL, pages * MC_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED) {
		printf("mmcheck: mmap of %zu pages failed: %s\n", pages, strerror(errno));
		exit(3);
	}
	return p;
}

/*
 * /proc/self/maps, read with open/read into a static buffer: stdio would
 * allocate, and an allocation may land in the very hole a check looks at.
 */
static char maps_text[64 * 1024];

static bool read_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	size_t n = 0;
	ssize_t got;

	if (fd < 0)
		return false;
	while (n < sizeof(maps_text) - 1 &&
	       (got = read(fd, maps_text + n, sizeof(maps_text) - 1 - n)) > 0)
		n += (size_t)got;
	close(fd);
	maps_text[n] = 0;
	return n > 0;
}

void *mc_map_alone(size_t pages)
{
	unsigned char *g = mmap(NULL, (pages + 2) * MC_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	if (g == MAP_FAILED || mprotect(g + MC_PAGE, pages * MC_PAGE, PROT_READ | PROT_WRITE)) {
		printf("mmcheck: no guarded mapping of %zu pages: %s\n", pages, strerror(errno));
		exit(3);
	}
	return g + MC_PAGE;
}

/* Calls fn for each maps line until it returns true. */
static bool each_map(bool (*fn)(const char *line, unsigned long s, unsigned long e, void *ctx),
		     void *ctx)
{
	const char *line;

	if (!read_maps())
		return false;
	for (line = maps_text; *line; line = strchr(line, '\n') + 1) {
		unsigned long s, e;

		if (!strchr(line, '\n'))
			break;
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && fn(line, s, e, ctx))
			return true;
	}
	return false;
}

struct find_ctx {
	const char *name;
	unsigned long addr, start, end;
	char *perms;
};

static bool match_name(const char *line, unsigned long s, unsigned long e, void *ctx)
{
	struct find_ctx *c = ctx;
	const char *n = strchr(line, '\n');
	size_t len = strlen(c->name);

	/* The last word of the line is the name. */
	while (n > line && n[-1] != ' ')
		n--;
	n--;
	if (!n || strncmp(n + 1, c->name, len) || n[1 + len] != '\n')
		return false;
	c->start = s;
	c->end = e;
	return true;
}

bool mc_find_map(const char *name, unsigned long *start, unsigned long *end)
{
	struct find_ctx c = {.name = name};

	if (!each_map(match_name, &c))
		return false;
	*start = c.start;
	*end = c.end;
	return true;
}

static bool match_addr(const char *line, unsigned long s, unsigned long e, void *ctx)
{
	struct find_ctx *c = ctx;
	const char *p = strchr(line, ' ');

	if (c->addr < s || c->addr >= e || !p)
		return false;
	memcpy(c->perms, p + 1, 4);
	c->perms[4] = 0;
	return true;
}

bool mc_mapped(unsigned long addr, char perms[5])
{
	struct find_ctx c = {.addr = addr, .perms = perms};

	return each_map(match_addr, &c);
}

int mc_in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		syscall(SYS_exit, fn(arg)); /* no atexit, no stdio flush of the parent's buffers */
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("mmcheck", groups, _IOLBF, argc, argv);
}
