/*
 * mmcheck proc: /proc/self/smaps (an entry per maps line, Linux's fields in
 * Linux's order and units, the counts of anonymous, untouched and shared
 * memory) and /proc/self/status (the identity lines).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array_size.h"
#include "mmcheck.h"

#define P MC_PAGE

static char text[256 * 1024];

static size_t slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, got;

	if (!f)
		return 0;
	/* Small reads, as stdio and the selftests do: the text must be one across them. */
	while (n < sizeof(text) - 1 && (got = fread(text + n, 1, 100, f)) > 0)
		n += got;
	fclose(f);
	text[n] = 0;
	return n;
}

/* The smaps entry of the area starting at start (up to the next maps line), or NULL. */
static const char *entry(unsigned long start, size_t *len)
{
	char head[32];
	const char *p, *q;

	snprintf(head, sizeof(head), "%08lx-", start);
	for (p = text; p && strncmp(p, head, strlen(head)); p = strchr(p, '\n'), p = p ? p + 1 : 0)
		;
	if (!p)
		return NULL;
	for (q = strchr(p, '\n'); q && q[1]; q = strchr(q + 1, '\n'))
		if (strchr("0123456789abcdef", q[1]) && strchr(q + 1, '-') &&
		    strchr(q + 1, '-') < strchr(q + 1, ' '))
			break;
	*len = q ? (size_t)(q + 1 - p) : strlen(p);
	return p;
}

/* The kB value of field name ("Rss") in an entry, -1 if absent or badly formatted. */
static long field(const char *e, size_t len, const char *name)
{
	char key[40];
	const char *p;
	long v;

	snprintf(key, sizeof(key), "\n%s:", name);
	p = memmem(e, len, key, strlen(key));
	if (!p || strlen(key) > 17)
		return -1;
	/* Linux: the name padded to 16 columns, the number right-aligned in 8, " kB". */
	if (sscanf(p + 1 + 16, "%8ld", &v) != 1 || strncmp(p + 25, " kB\n", 4))
		return -2;
	return v;
}

static void fields_in_order(void)
{
	static const char *const names[] = {"Size", "KernelPageSize", "MMUPageSize", "Rss", "Pss",
		"Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty", "Referenced",
		"Anonymous", "Swap", "Locked", "VmFlags"};
	unsigned entries = 0, bad = 0, maps_lines = 0;
	const char *p;
	char first_bad[64] = "";

	for (p = text; *p; p = strchr(p, '\n') + 1) {
		const char *e = p, *q;

		if (!strchr("0123456789abcdef", *p) || !strchr(p, '\n'))
			continue;
		if (!strchr(p, '-') || strchr(p, '-') > strchr(p, ' '))
			continue;
		entries++;
		for (unsigned i = 0; i < EL_ARRAY_SIZE(names); i++) {
			char key[40];

			snprintf(key, sizeof(key), "\n%s:", names[i]);
			q = strstr(e, key);
			if (!q) {
				if (!bad++)
					snprintf(first_bad, sizeof(first_bad), "%.17s: no %s", p,
						 names[i]);
				break;
			}
			e = q + 1;
		}
	}
	slurp("/proc/self/maps");
	for (p = text; (p = strchr(p, '\n')); p++)
		maps_lines++;
	el_expect("proc: every smaps entry has Linux's fields in order", entries && !bad, "%s",
		  first_bad);
	el_expect("proc: one smaps entry per maps line", entries == maps_lines,
		  "%u entries, %u maps lines", entries, maps_lines);
}

static void anonymous_counts(void)
{
	unsigned char *a = mc_map_alone(4), *z = mc_map_alone(2);
	volatile unsigned char sink;
	const char *e;
	size_t len = 0;

	a[0] = 1;
	a[P] = 1;
	sink = z[0];
	sink = z[P];
	(void)sink;
	slurp("/proc/self/smaps");
	e = entry((unsigned long)a, &len);
	el_expect("proc: smaps of anonymous memory: Size, Rss, Pss, Private_Dirty, Anonymous",
		  e && field(e, len, "Size") == 16 && field(e, len, "Rss") == 8 &&
		  field(e, len, "Pss") == 8 && field(e, len, "Private_Dirty") == 8 &&
		  field(e, len, "Anonymous") == 8 && field(e, len, "Shared_Dirty") == 0 &&
		  field(e, len, "Swap") == 0, "%.*s", (int)len, e ? e : "no entry");
	el_expect("proc: smaps VmFlags of private read-write memory",
		  e && memmem(e, len, "\nVmFlags: rd wr mr mw me ", 25) &&
		  memmem(e, len, " ac ", 4), "%.*s", (int)len, e ? e : "no entry");
	e = entry((unsigned long)z, &len);
	el_expect("proc: pages only read (the zero page) are not resident",
		  e && field(e, len, "Size") == 8 && field(e, len, "Rss") == 0, "%.*s", (int)len,
		  e ? e : "no entry");
	munmap(a - P, 6 * P);
	munmap(z - P, 4 * P);
}

static int wait_go(void *arg)
{
	volatile unsigned char *s = arg;

	/* Linux maps a shared page in the child only once it touches it. */
	if (s[0] != 1)
		return 1;
	s[P + 1] = 1;
	while (!s[P])
		sched_yield();
	return 0;
}

static void shared_counts(void)
{
	unsigned char *s = mmap(NULL, 2 * P, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				-1, 0);
	const char *e;
	size_t len = 0;
	int status = -1;
	pid_t pid;

	if (s == MAP_FAILED)
		return;
	s[0] = 1;
	fflush(stdout);
	pid = fork();
	if (!pid)
		syscall(SYS_exit, wait_go(s));
	while (pid > 0 && !*(volatile unsigned char *)(s + P + 1))
		sched_yield();
	slurp("/proc/self/smaps");
	s[P] = 1;
	waitpid(pid, &status, 0);
	e = entry((unsigned long)s, &len);
	el_expect("proc: a MAP_SHARED page two processes map: Shared_Dirty, half its Pss",
		  e && field(e, len, "Shared_Dirty") >= 4 && field(e, len, "Private_Dirty") == 0 &&
		  field(e, len, "Anonymous") == 0 && field(e, len, "Pss") < field(e, len, "Rss") &&
		  memmem(e, len, " sh ", 4), "%.*s", (int)len, e ? e : "no entry");
	munmap(s, 2 * P);
}

static void status(void)
{
	/* Linux names a task after the file execve was given (AT_EXECFN), not argv[0]. */
	const char *fn = (const char *)getauxval(AT_EXECFN), *base = fn ? strrchr(fn, '/') : 0;
	bool ok = slurp("/proc/self/status") > 0;
	char want[64];

	snprintf(want, sizeof(want), "Name:\t%.15s\n",
		 base ? base + 1 : fn ? fn : program_invocation_short_name);
	el_expect("proc: status names the program", ok && !strncmp(text, want, strlen(want)),
		  "want %s", want);
	snprintf(want, sizeof(want), "\nPid:\t%d\nPPid:\t%d\n", getpid(), getppid());
	el_expect("proc: status Pid and PPid", ok && strstr(text, want), "want %s", want + 1);
	snprintf(want, sizeof(want), "\nTgid:\t%d\n", getpid());
	el_expect("proc: status Tgid and Threads", ok && strstr(text, want) &&
		  strstr(text, "\nThreads:\t1\n"), "%s", text);
}

static void vdso_entry(void)
{
	unsigned long s, e;
	const char *p;
	size_t len = 0;

	if (!mc_find_map("[vdso]", &s, &e)) {
		el_skip("proc: smaps [vdso]", "no [vdso]");
		return;
	}
	slurp("/proc/self/smaps");
	p = entry(s, &len);
	el_expect("proc: smaps [vdso] entry with VmFlags (test_mremap_vdso reads it)",
		  p && memmem(p, len, "[vdso]\n", 7) && memmem(p, len, "\nVmFlags: rd ex ", 16),
		  "%.*s", (int)len, p ? p : "no entry");
}

void mc_proc(void)
{
	slurp("/proc/self/smaps");
	fields_in_order();
	anonymous_counts();
	shared_counts();
	vdso_entry();
	status();
}
