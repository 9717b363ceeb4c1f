/*
 * archcheck proc: process_vm_readv on ourselves, /proc/self/maps, smaps.
 *   - process_vm_readv(getpid()) gathers into two local buffers from one
 *     remote range; a bad second remote range gives a partial count, a bad
 *     first one EFAULT; flags != 0 is EINVAL; a pid nobody has ESRCH;
 *   - maps: [vdso] starts at AT_SYSINFO_EHDR, [stack] holds a local
 *     variable, an executable mapping holds this function;
 *   - smaps: every mapping has Size: (= its length) and Rss: (<= Size) in kB;
 *     a fresh 16 KiB anonymous mapping with two pages touched has Rss 8 kB.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "archcheck.h"

static char text_buf[1 << 17];

/* The whole of a /proc file (NUL-terminated, in text_buf); its length or -1. */
static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long len = 0, n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, text_buf + len, sizeof(text_buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	text_buf[len] = '\0';
	return len;
}

static void vm_readv(void)
{
	static const char src[32] = "0123456789abcdefghijklmnopqrstu";
	char a[8], b[24];
	struct iovec local[2] = {{a, sizeof(a)}, {b, sizeof(b)}};
	struct iovec remote[2] = {{(void *)src, sizeof(src)}, {NULL, 16}};
	struct iovec half[2] = {{(void *)src, 16}, {NULL, 16}};
	ssize_t n;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	n = process_vm_readv(getpid(), local, 2, remote, 1, 0);
	el_expect("vm_readv.gather", n == 32 && !memcmp(a, src, 8) && !memcmp(b, src + 8, 24),
		  "returned %zd (%s)", n, n < 0 ? strerror(errno) : "contents differ");
	n = process_vm_readv(getpid(), local, 2, half, 2, 0);
	el_expect("vm_readv.partial", n == 16, "good then bad remote range: %zd (%s)", n,
		  n < 0 ? strerror(errno) : "want 16");
	n = process_vm_readv(getpid(), local, 2, remote + 1, 1, 0);
	el_expect("vm_readv.bad_remote_efault", n == -1 && errno == EFAULT, "%zd (%s)", n,
		  strerror(errno));
	n = process_vm_readv(getpid(), local, 2, remote, 1, 1);
	el_expect("vm_readv.flags_einval", n == -1 && errno == EINVAL, "%zd (%s)", n,
		  strerror(errno));
	n = process_vm_readv(0x3fffffff, local, 2, remote, 1, 0);
	el_expect("vm_readv.no_such_pid_esrch", n == -1 && errno == ESRCH, "%zd (%s)", n,
		  strerror(errno));
}

/* The maps/smaps line describing addr: its start, end, perms and name; 0 if none. */
static int find_map(const char *text, uintptr_t addr, uintptr_t *s, uintptr_t *e, char perms[5],
		    const char **name)
{
	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		unsigned long a, b;
		char p[5];
		int off = 0;

		if (sscanf(l, "%lx-%lx %4s %*s %*s %*s%n", &a, &b, p, &off) != 3)
			continue;
		if (addr >= a && addr < b) {
			*s = a;
			*e = b;
			memcpy(perms, p, 5);
			for (*name = l + off; **name == ' '; (*name)++)
				;
			return 1;
		}
	}
	return 0;
}

static int named(const char *name, const char *want)
{
	return !strncmp(name, want, strlen(want)) &&
	       (name[strlen(want)] == '\n' || name[strlen(want)] == '\0');
}

static void maps(void)
{
	uintptr_t vdso = getauxval(AT_SYSINFO_EHDR), s, e;
	volatile int local = 0;
	const char *name;
	char perms[5];

	if (!el_expect("maps.readable", slurp("/proc/self/maps") > 0, "%s", strerror(errno)))
		return;
	if (vdso)
		el_expect("maps.vdso_at_auxv",
			  find_map(text_buf, vdso, &s, &e, perms, &name) && s == vdso &&
				  named(name, "[vdso]"),
			  "no [vdso] line starting at %#lx", (unsigned long)vdso);
	else
		el_skip("maps.vdso_at_auxv", "no AT_SYSINFO_EHDR (vdso=off)");
	el_expect("maps.stack_holds_a_local",
		  find_map(text_buf, (uintptr_t)&local, &s, &e, perms, &name) &&
			  named(name, "[stack]") && perms[0] == 'r' && perms[1] == 'w',
		  "the mapping of %p is not an rw [stack]", (void *)&local);
	el_expect("maps.text_holds_this_code",
		  find_map(text_buf, (uintptr_t)maps, &s, &e, perms, &name) && perms[2] == 'x',
		  "no executable mapping holds %p", (void *)maps);
	(void)local;
}

/* Sizes of every smaps entry; the Rss of the one containing addr (-1: not found). */
static long smaps_check(uintptr_t addr, int *all_ok, char *why, size_t whylen)
{
	long rss_of = -1;
	unsigned long start = 0, end = 0;
	long size = -1, rss = -1;
	int in_entry = 0;

	*all_ok = 1;
	for (char *l = text_buf; *l;) {
		char *nl = strchr(l, '\n');
		unsigned long a, b;
		long v;
		char perms[5];

		if (nl)
			*nl = '\0';
		if (sscanf(l, "%lx-%lx %4s", &a, &b, perms) == 3) {
			if (in_entry && (size * 1024 != (long)(end - start) || rss < 0 || rss > size)) {
				*all_ok = 0;
				snprintf(why, whylen, "%lx-%lx: Size %ld kB Rss %ld kB", start, end, size,
					 rss);
			}
			if (in_entry && addr >= start && addr < end)
				rss_of = rss;
			start = a;
			end = b;
			size = rss = -1;
			in_entry = 1;
		} else if (sscanf(l, "Size: %ld kB", &v) == 1) {
			size = v;
		} else if (sscanf(l, "Rss: %ld kB", &v) == 1) {
			rss = v;
		}
		l = nl ? nl + 1 : l + strlen(l);
	}
	if (in_entry && addr >= start && addr < end)
		rss_of = rss;
	if (in_entry && (size * 1024 != (long)(end - start) || rss < 0 || rss > size)) {
		*all_ok = 0;
		snprintf(why, whylen, "%lx-%lx: Size %ld kB Rss %ld kB", start, end, size, rss);
	}
	return rss_of;
}

static void smaps(void)
{
	uint8_t *p = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char why[160] = "";
	int all_ok;
	long rss;

	mprotect(p, 16384, PROT_READ | PROT_WRITE | PROT_EXEC); /* its own entry, unmerged */
	p[0] = 1;
	p[8192] = 1;
	if (!el_expect("smaps.readable", slurp("/proc/self/smaps") > 0, "%s", strerror(errno)))
		return;
	rss = smaps_check((uintptr_t)p, &all_ok, why, sizeof(why));
	el_expect("smaps.size_and_rss_per_mapping", all_ok, "%s", why);
	el_expect("smaps.rss_counts_touched_pages", rss == 8, "Rss of a 16 KiB mapping with 2 pages "
		  "touched: %ld kB (want 8)", rss);
	munmap(p, 16384);
}

void ac_proc(void)
{
	vm_readv();
	maps();
	smaps();
}
