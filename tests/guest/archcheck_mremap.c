/*
 * archcheck mremap: Linux's mremap on anonymous memory.
 *   - grow with MREMAP_MAYMOVE keeps the contents, the new part is zero and
 *     writable; shrink keeps the head and unmaps the tail;
 *   - MREMAP_FIXED moves to the address asked for, replacing what was there,
 *     and the old range is gone;
 *   - growing in place works when the space after is free, and without
 *     MAYMOVE is ENOMEM when it is not;
 *   - a misaligned address, a zero size, FIXED without MAYMOVE: EINVAL.
 * "Gone" is asked of mprotect, which answers ENOMEM for unmapped ranges.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "archcheck.h"

#define PAGE 4096ul

static void *anon(size_t n, int prot)
{
	return mmap(NULL, n, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static int unmapped(void *p, size_t n)
{
	return mprotect(p, n, PROT_READ) == -1 && errno == ENOMEM;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i / PAGE * 31 + i + seed);
}

static int same(const uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(i / PAGE * 31 + i + seed))
			return 0;
	return 1;
}

static int zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void grow_shrink(void)
{
	uint8_t *p = anon(2 * PAGE, PROT_READ | PROT_WRITE), *q, *s;

	fill(p, 2 * PAGE, 1);
	q = mremap(p, 2 * PAGE, 8 * PAGE, MREMAP_MAYMOVE);
	if (!el_expect("mremap.grow", q != MAP_FAILED, "%s", strerror(errno)))
		return;
	el_expect("mremap.grow_keeps_contents", same(q, 2 * PAGE, 1) && zero(q + 2 * PAGE, 6 * PAGE),
		  "head changed or the new pages are not zero");
	q[8 * PAGE - 1] = 5;
	s = mremap(q, 8 * PAGE, PAGE, 0);
	el_expect("mremap.shrink", s == q && same(s, PAGE, 1) && unmapped(q + PAGE, 7 * PAGE),
		  "mremap gave %p (want %p), head %s, tail %s", (void *)s, (void *)q,
		  s == q && same(s, PAGE, 1) ? "kept" : "changed",
		  unmapped(q + PAGE, 7 * PAGE) ? "unmapped" : "still mapped");
	munmap(s, PAGE);
}

static void move_fixed(void)
{
	uint8_t *p = anon(3 * PAGE, PROT_READ | PROT_WRITE);
	uint8_t *target = anon(3 * PAGE, PROT_READ), *q;

	fill(p, 3 * PAGE, 2);
	q = mremap(p, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	el_expect("mremap.fixed_moves_there", q == target && same(q, 3 * PAGE, 2),
		  "mremap gave %p (want %p)", (void *)q, (void *)target);
	el_expect("mremap.fixed_old_range_gone", unmapped(p, 3 * PAGE), "the old range is mapped");
	q[0] = 1; /* writable like the original, not like what it replaced */
	munmap(target, 3 * PAGE);
}

static void in_place(void)
{
	uint8_t *p = anon(4 * PAGE, PROT_READ | PROT_WRITE), *q;

	munmap(p + PAGE, 3 * PAGE);
	fill(p, PAGE, 3);
	q = mremap(p, PAGE, 4 * PAGE, 0);
	el_expect("mremap.grow_in_place", q == p && same(p, PAGE, 3) && zero(p + PAGE, 3 * PAGE),
		  "mremap gave %p (want %p)", (void *)q, (void *)p);
	munmap(p, 4 * PAGE);

	p = anon(2 * PAGE, PROT_READ | PROT_WRITE);
	mprotect(p + PAGE, PAGE, PROT_READ); /* a different mapping right after */
	q = mremap(p, PAGE, 2 * PAGE, 0);
	el_expect("mremap.blocked_without_maymove_enomem", q == MAP_FAILED && errno == ENOMEM,
		  "mremap gave %p (%s)", (void *)q, strerror(errno));
	munmap(p, 2 * PAGE);
}

static void errors(void)
{
	uint8_t *p = anon(2 * PAGE, PROT_READ | PROT_WRITE), *q;

	q = mremap(p + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
	el_expect("mremap.misaligned_einval", q == MAP_FAILED && errno == EINVAL, "%p (%s)",
		  (void *)q, strerror(errno));
	q = mremap(p, PAGE, 0, MREMAP_MAYMOVE);
	el_expect("mremap.zero_size_einval", q == MAP_FAILED && errno == EINVAL, "%p (%s)",
		  (void *)q, strerror(errno));
	q = mremap(p, PAGE, PAGE, MREMAP_FIXED, p + PAGE);
	el_expect("mremap.fixed_without_maymove_einval", q == MAP_FAILED && errno == EINVAL,
		  "%p (%s)", (void *)q, strerror(errno));
	munmap(p, 2 * PAGE);
}

void ac_mremap(void)
{
	grow_shrink();
	move_fixed();
	in_place();
	errors();
}
