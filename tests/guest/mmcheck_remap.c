/*
 * mmcheck remap: mremap(2) as Linux answers it.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmcheck.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define P MC_PAGE

static long remap(void *old, unsigned long old_len, unsigned long new_len, long flags,
		  void *new_addr)
{
	return mc_sys(SYS_mremap, (long)old, (long)old_len, (long)new_len, flags, (long)new_addr,
		      0);
}

static void fill(unsigned char *p, size_t pages, unsigned char seed)
{
	for (size_t i = 0; i < pages; i++)
		memset(p + i * P, seed + (int)i, P);
}

static bool holds(const unsigned char *p, size_t pages, unsigned char seed)
{
	for (size_t i = 0; i < pages; i++)
		for (size_t j = 0; j < P; j += 511)
			if (p[i * P + j] != (unsigned char)(seed + i))
				return false;
	return true;
}

static bool zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static bool unmapped(const void *p)
{
	char perms[5];

	return !mc_mapped((unsigned long)p, perms);
}

static void errors(void)
{
	unsigned char *a = mc_map(4);
	long r;

	munmap(a + 2 * P, 2 * P);
	el_expect("remap: unknown flags are EINVAL", remap(a, P, P, 8, 0) == -EINVAL, "%ld",
		  remap(a, P, P, 8, 0));
	el_expect("remap: unaligned address is EINVAL", remap(a + 1, P, P, 0, 0) == -EINVAL,
		  "%ld", remap(a + 1, P, P, 0, 0));
	el_expect("remap: zero new length is EINVAL", remap(a, P, 0, 0, 0) == -EINVAL, "%ld",
		  remap(a, P, 0, 0, 0));
	r = remap(a, P, P, MREMAP_FIXED, a + 8 * P);
	el_expect("remap: FIXED without MAYMOVE is EINVAL", r == -EINVAL, "%ld", r);
	r = remap(a, P, 2 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
	el_expect("remap: DONTUNMAP with a new size is EINVAL", r == -EINVAL, "%ld", r);
	r = remap(a, P, P, MREMAP_MAYMOVE | MREMAP_FIXED, a + 8 * P + 1);
	el_expect("remap: unaligned new address is EINVAL", r == -EINVAL, "%ld", r);
	r = remap(a + 2 * P, P, 2 * P, MREMAP_MAYMOVE, 0);
	el_expect("remap: no mapping at the address is EFAULT", r == -EFAULT, "%ld", r);
	r = remap(a, 3 * P, 4 * P, MREMAP_MAYMOVE, 0);
	el_expect("remap: an old range past its mapping is EFAULT", r == -EFAULT, "%ld", r);
	r = remap(a, 2 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_FIXED, a + P);
	el_expect("remap: overlapping FIXED target is EINVAL", r == -EINVAL, "%ld", r);
	r = remap(a, 0, P, MREMAP_MAYMOVE, 0);
	el_expect("remap: old length 0 of a private mapping is EINVAL", r == -EINVAL, "%ld", r);
	munmap(a, 2 * P);
}

static void shrink_and_grow(void)
{
	/* Five pages: the fifth stays ours for the blocker below (above may be [vvar]). */
	unsigned char *a = mc_map(5), *b;
	long r;

	fill(a, 5, 10);
	r = remap(a, 5 * P, 2 * P, 0, 0);
	el_expect("remap: shrink returns the address", r == (long)a, "%lx vs %p", r, (void *)a);
	el_expect("remap: shrink unmaps the tail", unmapped(a + 2 * P) && unmapped(a + 4 * P) &&
		  holds(a, 2, 10), "tail still mapped or head changed");
	r = remap(a, 2 * P, 4 * P, 0, 0);
	el_expect("remap: grow in place into a free gap", r == (long)a, "%ld", r);
	el_expect("remap: grown pages are zero, old ones kept",
		  r == (long)a && holds(a, 2, 10) && zero(a + 2 * P, 2 * P), "content differs");
	/* Something right after: growth in place is impossible. */
	b = mmap(a + 4 * P, P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	r = remap(a, 4 * P, 8 * P, 0, 0);
	el_expect("remap: blocked growth without MAYMOVE is ENOMEM",
		  b == a + 4 * P && r == -ENOMEM, "%ld (blocker %p, area %p)", r, (void *)b,
		  (void *)a);
	fill(a, 4, 40);
	r = remap(a, 4 * P, 8 * P, MREMAP_MAYMOVE, 0);
	el_expect("remap: blocked growth with MAYMOVE moves", r > 0 && r != (long)a, "%ld", r);
	if (r > 0 && r != (long)a) {
		unsigned char *n = (unsigned char *)r;

		el_expect("remap: the moved pages hold their data, the rest is zero",
			  holds(n, 4, 40) && zero(n + 4 * P, 4 * P), "content differs");
		el_expect("remap: the old range is gone", unmapped(a) && unmapped(a + 3 * P),
			  "still mapped");
		n[8 * P - 1] = 1;
		munmap(n, 8 * P);
	}
	munmap(b, P);
}

static void fixed_and_dontunmap(void)
{
	unsigned char *a = mc_map(3), *t = mc_map(5), *n;
	char perms[5];
	long r;

	fill(a, 3, 70);
	memset(t, 0xee, 5 * P);
	/* Move the middle page onto the middle of another mapping, which it replaces. */
	r = remap(a + P, P, P, MREMAP_MAYMOVE | MREMAP_FIXED, t + 2 * P);
	el_expect("remap: FIXED moves to the given address", r == (long)(t + 2 * P), "%ld", r);
	el_expect("remap: FIXED replaces what was there",
		  r > 0 && holds(t + 2 * P, 1, 71) && t[P] == 0xee && t[3 * P] == 0xee,
		  "content differs");
	el_expect("remap: a hole where the page was, neighbours kept",
		  unmapped(a + P) && holds(a, 1, 70) && holds(a + 2 * P, 1, 72), "not so");
	/* PROT_READ area moved: permissions go with it. */
	mprotect(a, P, PROT_READ);
	r = remap(a, P, P, MREMAP_MAYMOVE | MREMAP_FIXED, t + 4 * P);
	el_expect("remap: permissions move with the pages",
		  r > 0 && mc_mapped((unsigned long)(t + 4 * P), perms) && !strcmp(perms, "r--p") &&
		  holds(t + 4 * P, 1, 70), "perms %s", r > 0 ? perms : "?");
	munmap(t, 5 * P);
	munmap(a, 3 * P);
	/* DONTUNMAP: the old range stays mapped and reads zero (private anonymous). */
	a = mc_map(2);
	fill(a, 2, 90);
	r = remap(a, 2 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
	n = (unsigned char *)r;
	el_expect("remap: DONTUNMAP moves the pages",
		  r > 0 && n != a && holds(n, 2, 90), "%ld", r);
	el_expect("remap: DONTUNMAP keeps the old range, empty",
		  r > 0 && !unmapped(a) && zero(a, 2 * P), "not so");
	if (r > 0)
		munmap(n, 2 * P);
	munmap(a, 2 * P);
}

void mc_remap(void)
{
	errors();
	shrink_and_grow();
	fixed_and_dontunmap();
}
