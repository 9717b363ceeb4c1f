/*
 * archcheck vdso: mremap of the vDSO, as Linux allows it.  The [vdso]
 * mapping and the data mappings right before it ([vvar], [vvar_vclock]:
 * the code reaches them RIP-relative) move together to a new place, keeping
 * their distances.  Then:
 *   - /proc/self/maps names [vdso] at the new address (the kernel follows);
 *   - __vdso_clock_gettime, called at its new address, agrees with the
 *     clock_gettime system call;
 *   - a page fault and a signal handler still return (a kernel whose return
 *     path goes through a vDSO trampoline must use the moved one).
 * musl keeps the old address of clock_gettime: nothing in this program may
 * call libc's clock functions after this group, so it runs last.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "archcheck.h"
#include "lib/sys.h"
#include "lib/vdso.h"

#define MAX_PARTS 4

struct part {
	uintptr_t start, end;
	char name[24];
};

static char maps_buf[1 << 16];

static int read_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	long len = 0, n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, maps_buf + len, sizeof(maps_buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	maps_buf[len] = '\0';
	return 0;
}

/* The special mappings ending at the vDSO: [vvar...] lines contiguous with [vdso], in order. */
static int vdso_parts(uintptr_t base, struct part *parts)
{
	struct part all[64];
	int n = 0, v = -1, first;

	for (char *l = maps_buf; *l && n < 64;) {
		unsigned long a, b;
		char name[64] = "";

		if (sscanf(l, "%lx-%lx %*s %*s %*s %*s %63s", &a, &b, name) >= 2 && name[0] == '[') {
			all[n].start = a;
			all[n].end = b;
			snprintf(all[n].name, sizeof(all[n].name), "%s", name);
			if (a == base && !strcmp(name, "[vdso]"))
				v = n;
			n++;
		}
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l);
	}
	if (v < 0)
		return 0;
	first = v;
	while (first > 0 && v - first < MAX_PARTS - 1 && all[first - 1].end == all[first].start &&
	       !strncmp(all[first - 1].name, "[vvar", 5))
		first--;
	for (int i = first; i <= v; i++)
		parts[i - first] = all[i];
	return v - first + 1;
}

static volatile int usr1_runs;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_runs++;
}

void ac_vdso_move(void)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR), lo, hi, dest;
	struct part parts[MAX_PARTS];
	void *sym = el_vdso_sym("__vdso_clock_gettime");
	int (*moved)(clockid_t, struct timespec *);
	struct timespec v1 = {0}, v2 = {0}, sys = {0};
	int n, ok = 1;
	char *hole;

	if (!base || !sym) {
		el_skip("vdso.move", "no vDSO (vdso=off?) or no __vdso_clock_gettime in it");
		return;
	}
	if (read_maps() || !(n = vdso_parts(base, parts))) {
		el_fail("vdso.find", "no [vdso] line at AT_SYSINFO_EHDR %#lx", (unsigned long)base);
		return;
	}
	lo = parts[0].start;
	hi = parts[n - 1].end;
	hole = mmap(NULL, hi - lo, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dest = (uintptr_t)hole;
	for (int i = 0; i < n && ok; i++) {
		size_t len = parts[i].end - parts[i].start;
		void *to = (void *)(dest + (parts[i].start - lo));
		void *r = mremap((void *)parts[i].start, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to);

		if (r != to) {
			el_fail("vdso.mremap", "moving %s (%#lx bytes) to %p: %s", parts[i].name,
				(unsigned long)len, to, r == MAP_FAILED ? strerror(errno) : "moved elsewhere");
			ok = 0;
		}
	}
	if (!ok)
		return;
	el_pass("vdso.mremap");
	read_maps();
	n = vdso_parts(dest + (base - lo), parts);
	el_expect("vdso.maps_follow", n > 0, "no [vdso] line at the new address %#lx",
		  (unsigned long)(dest + (base - lo)));
	moved = (int (*)(clockid_t, struct timespec *))(dest + ((uintptr_t)sym - lo));
	moved(CLOCK_MONOTONIC, &v1);
	el_syscall2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&sys);
	moved(CLOCK_MONOTONIC, &v2);
	el_expect("vdso.moved_clock_gettime_runs",
		  (v1.tv_sec > 0 || v1.tv_nsec > 0) && (v2.tv_sec > v1.tv_sec ||
				    (v2.tv_sec == v1.tv_sec && v2.tv_nsec >= v1.tv_nsec)) &&
			  sys.tv_sec >= v1.tv_sec && sys.tv_sec <= v2.tv_sec + 1,
		  "moved vDSO: %lld.%09ld then %lld.%09ld; the syscall said %lld.%09ld",
		  (long long)v1.tv_sec, v1.tv_nsec, (long long)v2.tv_sec, v2.tv_nsec,
		  (long long)sys.tv_sec, sys.tv_nsec);
	{
		volatile char *fresh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		fresh[0] = 1; /* a page fault and its return */
		signal(SIGUSR1, on_usr1);
		raise(SIGUSR1);
		signal(SIGUSR1, SIG_DFL);
		el_expect("vdso.fault_and_signal_return_after_move", fresh[0] == 1 && usr1_runs == 1,
			  "handler ran %d times", usr1_runs);
		munmap((void *)fresh, 4096);
	}
}
