/* usercheck, memory: malloc (brk and mmap), anonymous mappings, the zero page. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "usercheck.h"

#define PAGE 4096ul

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void check_malloc(void)
{
	enum { N = 2000 };
	static unsigned char *small[N];
	const size_t big = 4ul << 20;
	unsigned char *p;
	bool ok = true;

	for (int i = 0; i < N; i++) {
		small[i] = malloc(1 + i % 300);
		if (!small[i])
			break;
		memset(small[i], i & 0xff, 1 + i % 300);
	}
	for (int i = 0; i < N; i++) {
		ok = ok && small[i] && small[i][0] == (i & 0xff) && small[i][i % 300] == (i & 0xff);
		free(small[i]);
	}
	el_expect("mem.malloc_small", ok, "%d small blocks: lost or overlapping", N);

	p = malloc(big);
	ok = p != NULL;
	if (p) {
		for (size_t i = 0; i < big; i += 512)
			p[i] = (unsigned char)(i >> 9);
		for (size_t i = 0; i < big && ok; i += 512)
			ok = p[i] == (unsigned char)(i >> 9);
	}
	free(p);
	el_expect("mem.malloc_large", ok, "malloc(4 MiB) (musl maps it): null or corrupted");
}

static void check_brk(void)
{
	long cur = uc_sys(SYS_brk, 0, 0, 0), grown, back;
	bool ok;

	grown = uc_sys(SYS_brk, cur + 3 * PAGE, 0, 0);
	ok = cur > 0 && grown == cur + (long)(3 * PAGE);
	if (ok) {
		/* The new break need not be page aligned; touch whole pages below it. */
		volatile unsigned char *p = (unsigned char *)cur;

		ok = p[0] == 0 && p[2 * PAGE] == 0;
		p[0] = 1;
		p[2 * PAGE] = 2;
		ok = ok && p[0] == 1 && p[2 * PAGE] == 2;
	}
	back = uc_sys(SYS_brk, cur, 0, 0);
	el_expect("mem.brk", ok && back == cur,
		  "brk(0)=%#lx, brk(+12K)=%#lx, brk(back)=%#lx, or the new memory is not zeroed",
		  cur, grown, back);
}

static void check_anon(void)
{
	const size_t len = 16 * PAGE;
	unsigned char *rw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
	unsigned char *ro = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	unsigned char *fx;
	bool ok;

	if (!el_expect("mem.mmap_anon", rw != MAP_FAILED && ro != MAP_FAILED && sh != MAP_FAILED,
		       "mmap of private rw, private ro, shared rw: %s", strerror(errno)))
		return;
	el_expect("mem.zero_page_read", all_zero(rw, len) && all_zero(ro, len) && all_zero(sh, len),
		  "untouched anonymous memory does not read as zero");
	rw[5 * PAGE + 8] = 0xa5;
	sh[3 * PAGE] = 0x5a;
	ok = rw[5 * PAGE + 8] == 0xa5 && all_zero(rw + 4 * PAGE, PAGE) &&
	     all_zero(rw + 6 * PAGE, PAGE) && sh[3 * PAGE] == 0x5a && all_zero(sh, 3 * PAGE);
	el_expect("mem.write_fault", ok, "a written byte did not stick, or spilled to neighbours");

	ok = mprotect(rw, len, PROT_READ) == 0 && rw[5 * PAGE + 8] == 0xa5 &&
	     mprotect(rw, len, PROT_READ | PROT_WRITE) == 0;
	el_expect("mem.mprotect", ok, "mprotect rw->r->rw: %s", strerror(errno));

	/* MAP_FIXED over a written page replaces it with a fresh zero page. */
	fx = mmap(rw + 5 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ok = fx == rw + 5 * PAGE && all_zero(fx, PAGE);
	el_expect("mem.map_fixed", ok, "MAP_FIXED remap: %s", fx == MAP_FAILED ? strerror(errno) :
		  "wrong address or old contents");

	ok = munmap(rw + 8 * PAGE, PAGE) == 0 && rw[7 * PAGE] == 0 && rw[9 * PAGE] == 0;
	el_expect("mem.munmap_hole", ok, "munmap of one page in the middle: %s", strerror(errno));
	ok = munmap(rw, len) == 0 && munmap(ro, len) == 0 && munmap(sh, len) == 0;
	el_expect("mem.munmap", ok, "munmap: %s", strerror(errno));

	ok = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	     errno == EINVAL && munmap((char *)ro + 1, PAGE) == -1 && errno == EINVAL;
	el_expect("mem.einval", ok, "mmap of length 0 or unaligned munmap: %s", strerror(errno));
}

void uc_memory(struct uc_env *env)
{
	(void)env;
	check_malloc();
	check_brk();
	check_anon();
}

int uc_fault_after_munmap(void)
{
	volatile unsigned long *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("FAIL: mem.fault_after_munmap: mmap: %s\n", strerror(errno));
		return 1;
	}
	*p = 42;
	munmap((void *)p, PAGE);
	printf("usercheck: reading %p after munmap: the process must end with SIGSEGV "
	       "(status 139)\n", (void *)p);
	fflush(stdout);
	(void)*p;
	printf("FAIL: mem.fault_after_munmap: read %p after munmap and survived\n", (void *)p);
	return 1;
}
