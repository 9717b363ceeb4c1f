/*
 * mmcheck vdso: the special mappings under mremap and munmap, as Linux's
 * x86 vDSO code has them: they move only whole (a split is EINVAL), never
 * grow (EFAULT), and after [vdso] moves the process keeps running, through
 * page faults and system calls whose returns the kernel may send through
 * the vDSO (entry.ret=sysret: the trampoline follows the move).  Each move
 * happens in a forked child, which exits with a bit per failed check:
 * musl's cached vDSO pointers are stale after it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmcheck.h"

#define P MC_PAGE

enum {
	F_PARTIAL = 1,  /* a partial move was not EINVAL */
	F_WHOLE = 2,    /* the whole move failed */
	F_MAPS = 4,     /* /proc/self/maps does not show it at the new place */
	F_GROW = 8,     /* growing it was not EFAULT */
	F_FAULT = 16,   /* a page fault after the move went wrong */
	F_UNMAP = 32,   /* a partial munmap was not EINVAL */
};

struct area {
	const char *name;
	unsigned long start, end;
};

static long remap_to(unsigned long old, unsigned long len, unsigned long to)
{
	return mc_sys(SYS_mremap, (long)old, (long)len, (long)len, MREMAP_MAYMOVE | MREMAP_FIXED,
		      (long)to, 0);
}

static int move_area(void *arg)
{
	const struct area *a = arg;
	unsigned long len = a->end - a->start, s, e, size;
	unsigned char *dest, *fresh;
	int fails = 0;

	dest = mmap(NULL, len + P, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (dest == MAP_FAILED)
		return 255;
	if (len > P && mc_sys(SYS_munmap, (long)a->start, (long)P, 0, 0, 0, 0) != -EINVAL)
		fails |= F_UNMAP;
	for (size = P; size < len; size += P)
		if (remap_to(a->start, size, (unsigned long)dest) != -EINVAL)
			fails |= F_PARTIAL;
	if (remap_to(a->start, len, (unsigned long)dest) != (long)dest)
		return fails | F_WHOLE;
	if (!mc_find_map(a->name, &s, &e) || s != (unsigned long)dest || e != s + len)
		fails |= F_MAPS;
	if (mc_sys(SYS_mremap, (long)dest, (long)len, (long)(len + P), MREMAP_MAYMOVE, 0, 0) !=
	    -EFAULT)
		fails |= F_GROW;
	/* A page fault and its return, then system calls: the process lives on. */
	fresh = mmap(NULL, P, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		return fails | F_FAULT;
	fresh[100] = 7;
	if (fresh[100] != 7 || mc_sys(SYS_getpid, 0, 0, 0, 0, 0, 0) <= 0)
		fails |= F_FAULT;
	return fails;
}

/* The whole [vdso] unmapped: the process lives on through faults and syscalls. */
static int unmap_vdso(void *arg)
{
	const struct area *a = arg;
	unsigned char *fresh;
	unsigned long s, e;

	if (mc_sys(SYS_munmap, (long)a->start, (long)(a->end - a->start), 0, 0, 0, 0))
		return 1;
	if (mc_find_map("[vdso]", &s, &e))
		return 2;
	fresh = mmap(NULL, 4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		return 3;
	for (int i = 0; i < 4; i++)
		fresh[i * P] = (unsigned char)i;
	return fresh[3 * P] == 3 && mc_sys(SYS_getppid, 0, 0, 0, 0, 0, 0) > 0 ? 0 : 4;
}

static void report(const char *what, int r)
{
	static const char *const names[] = {"partial move is EINVAL", "whole move works",
					    "maps shows the new place", "growing is EFAULT",
					    "faults and syscalls after the move",
					    "partial munmap is EINVAL"};
	char name[96];

	if (r < 0 || r > 63) {
		snprintf(name, sizeof(name), "vdso: %s moved in a child", what);
		el_fail(name, "child ended with %d", r);
		return;
	}
	for (unsigned i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "vdso: %s: %s", what, names[i]);
		el_expect(name, !(r & (1 << i)), "failed");
	}
}

void mc_vdso(void)
{
	struct area vdso = {.name = "[vdso]"}, vvar = {.name = "[vvar]"};
	unsigned long auxv = getauxval(AT_SYSINFO_EHDR);
	int r;

	if (!mc_find_map("[vdso]", &vdso.start, &vdso.end)) {
		el_skip("vdso: moves", "no [vdso] mapping");
		return;
	}
	el_expect("vdso: AT_SYSINFO_EHDR is the [vdso] mapping", auxv == vdso.start,
		  "%lx vs %lx", auxv, vdso.start);
	report("[vdso]", mc_in_child(move_area, &vdso));
	r = mc_in_child(unmap_vdso, &vdso);
	el_expect("vdso: the whole [vdso] unmapped, faults and syscalls go on", r == 0,
		  "child status %d", r);
	if (!mc_find_map("[vvar]", &vvar.start, &vvar.end))
		el_skip("vdso: [vvar] moves", "no [vvar] mapping");
	else
		report("[vvar]", mc_in_child(move_area, &vvar));
}
