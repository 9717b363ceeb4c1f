/*
 * entrylab's region markers for your own program: put el_region_begin()
 * and el_region_end() around the part of a static x86-64 Linux program you
 * want measured, and `entrylab run --exec`, `trace` and `matrix` measure
 * exactly that instead of the whole program.
 *
 *     #include "marker.h"    this file alone, copied next to your source; or
 *                            -I entrylab/include and #include <entrylab/marker.h>
 *                            (never -I include/entrylab: its features.h would
 *                            shadow libc's)
 *
 *     el_region_begin(rounds);     iterations: what one figure is "per" (0: none)
 *     for (i = 0; i < rounds; i++)
 *             work();
 *     el_region_end();
 *
 * Dependency-free: the C compiler and libc, nothing to link (C99 or later,
 * GCC or Clang: inline asm and attributes).  Any number of translation
 * units may include it; they share one state.  Build static (musl-gcc
 * -static) as entrylab runs static programs.  Marker ABI EL_MARKER_ABI
 * below; what it covers is listed there.
 *
 * What a marker is: one SYSCALL instruction of number EL_MARKER_SYS,
 * inlined where you call it, so nothing but the marker's own kernel entry
 * lies between the counters and your code.  Each also records its address
 * in the ELF section EL_MARKER_SITES_SECTION (not loaded: it costs the
 * running program nothing), so the host sees the program is marked and the
 * tracer finds the markers by address.  What the markers themselves cost
 * entrylab measures on empty regions of this same code at boot (the
 * records' markers, "the markers' cost"), so it holds for yours too.
 *   - entrylab's own kernel counts the region itself and answers 0.
 *   - Linux answers -ENOSYS.  Under entrylab's /init (`--guest linux`) the
 *     out-of-line slow path below then does the region through the region
 *     page and perf group /init hands the program (named in the
 *     environment; the page is mapped before main by a constructor).
 *   - Anywhere else (your own Linux shell) the program says once on stderr
 *     that it runs unmarked, and runs.
 * A marker never fails your program.  Call begin and end in pairs, end
 * after begin; the last pair is the region.  Within a `--region whole`
 * run, markers still run (and are counted) but mark nothing.
 */
#ifndef ENTRYLAB_MARKER_H
#define ENTRYLAB_MARKER_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/*
 * The marker ABI, version EL_MARKER_ABI.  It covers every number below,
 * the site record, the region page's layout and the environment's names;
 * entrylab's own headers (abi.h, linux_init.h) hold the same facts and
 * guest/lib/region.h asserts at compile time that both agree.  A change
 * to any of them is a new version of this file.
 */
#define EL_MARKER_ABI 1

#define EL_MARKER_SYS           1000 /* abi.h EL_SYS_REGION */
#define EL_MARKER_BEGIN         1    /* rdi; rsi = iterations */
#define EL_MARKER_END           2
#define EL_MARKER_QUERY         0 /* no-op: anything but -ENOSYS means entrylab's kernel */
#define EL_MARKER_SITES_SECTION "el_region_sites" /* records { u64 addr; u64 op; } */

/* Linux under entrylab's /init (linux_init.h, "The region page"). */
#define EL_MARKER_ENV_REGION   "EL_REGION_FD" /* the page: a memfd descriptor */
#define EL_MARKER_ENV_PERF     "EL_PERF_FD"   /* the perf group leader, if any */
#define EL_MARKER_PAGE_SIZE    4096u
#define EL_MARKER_PAGE_MAGIC   0x4e474552u /* "REGN" */
#define EL_MARKER_FD_MAX       (1u << 20)  /* above any RLIMIT_NOFILE Linux allows */
#define EL_MARKER_NR_IOCTL     16          /* x86-64 */
#define EL_MARKER_PERF_RESET   0x2403ul    /* linux/perf_event.h PERF_EVENT_IOC_RESET */
#define EL_MARKER_PERF_ENABLE  0x2400ul    /* PERF_EVENT_IOC_ENABLE */
#define EL_MARKER_PERF_DISABLE 0x2401ul    /* PERF_EVENT_IOC_DISABLE */
#define EL_MARKER_PERF_GROUP   1ul         /* PERF_IOC_FLAG_GROUP */

/* The page as the program writes it (it never trusts or reads it back). */
struct el_marker_page {
	uint32_t magic;      /* EL_MARKER_PAGE_MAGIC once it wrote anything */
	uint32_t begins;     /* BEGIN markers seen */
	uint32_t ends;       /* END markers seen */
	uint32_t errors;     /* a perf ioctl failed: counters not counted */
	uint64_t tsc_begin;  /* RDTSC at the last BEGIN */
	uint64_t tsc_end;    /* RDTSC at the last END */
	uint64_t iterations; /* as the last BEGIN declared it */
};

/*
 * ---- Below: how it works; nothing here is for you to call. ----
 *
 * One state for the whole program: a weak hidden definition in every
 * translation unit, which the linker makes one object.  The slow path and
 * the constructor are weak hidden functions likewise: one copy each.
 */
struct el_marker_state {
	struct el_marker_page *page;  /* the region page, once mapped */
	int perf_fd;                  /* the group leader; meaningful once page is set, -1 none */
	int attach_tried;             /* the constructor ran (it runs once per unit) */
	int begin_failed, end_failed; /* a marker did not mark */
	int linux_used;               /* a marker took the region page */
	int said_unmarked, said_failed;
	int entrylab_known, entrylab; /* the EL_MARKER_QUERY answer, cached */
};

__attribute__((weak, visibility("hidden"))) struct el_marker_state el_marker_state;

void el_marker_slow(long ret, int op, uint64_t iterations);
int el_marker_attach(void);
void el_marker_warn_unmarked(void);
void el_marker_attach_before_main(void);

/*
 * The marker SYSCALL and its site record; op must be a constant (the "i"
 * constraint).  The "memory" clobber: no load or store crosses a marker.
 */
#define EL_MARKER_SITE_SYSCALL(ret, op, iterations)                                    \
	__asm__ volatile("1:\tsyscall\n\t"                                             \
			 ".pushsection " EL_MARKER_SITES_SECTION ",\"\",@progbits\n\t" \
			 ".balign 8\n\t"                                               \
			 ".quad 1b, %c[site_op]\n\t"                                   \
			 ".popsection"                                                 \
			 : "=a"(ret)                                                   \
			 : "0"((long)EL_MARKER_SYS), "D"((long)(op)),                  \
			   "S"((long)(iterations)), [site_op] "i"(op)                  \
			 : "rcx", "r11", "memory")

/* Begins the region; iterations is the count its figures are divided by (0: none). */
static inline __attribute__((always_inline)) void el_region_begin(uint64_t iterations)
{
	long ret;

	EL_MARKER_SITE_SYSCALL(ret, EL_MARKER_BEGIN, iterations);
	if (__builtin_expect(ret != 0, 0))
		el_marker_slow(ret, EL_MARKER_BEGIN, iterations);
}

/* Ends the region the last el_region_begin() began. */
static inline __attribute__((always_inline)) void el_region_end(void)
{
	long ret;

	EL_MARKER_SITE_SYSCALL(ret, EL_MARKER_END, 0);
	if (__builtin_expect(ret != 0, 0))
		el_marker_slow(ret, EL_MARKER_END, 0);
}

static inline uint64_t el_marker_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* The whole perf group at once; a raw SYSCALL, no wrapper between the counters and the loop. */
static inline int el_marker_perf_ioctl(int fd, unsigned long request)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)EL_MARKER_NR_IOCTL), "D"((long)fd), "S"((long)request),
			   "d"((long)EL_MARKER_PERF_GROUP)
			 : "rcx", "r11", "memory");
	return ret != 0;
}

/* A descriptor number from the environment: -1 if absent, -2 if not one. */
static inline int el_marker_env_fd(const char *name)
{
	const char *s = getenv(name), *p;
	unsigned long v = 0;

	if (!s)
		return -1;
	for (p = s; *p >= '0' && *p <= '9' && v <= EL_MARKER_FD_MAX; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (p == s || *p || v > EL_MARKER_FD_MAX) {
		fprintf(stderr,
			"region markers: %s='%s' is not a descriptor number; entrylab's "
			"/init sets it (include/entrylab/linux_init.h)\n",
			name, s);
		return -2;
	}
	return (int)v;
}

/*
 * Maps the region page the environment names (and notes the perf group).
 * 0 when mapped (now or before), -1 when none is named or it cannot be
 * mapped (said on stderr).
 */
__attribute__((weak, visibility("hidden"))) int el_marker_attach(void)
{
	struct el_marker_state *st = &el_marker_state;
	int fd;
	void *p;

	if (st->page)
		return 0;
	fd = el_marker_env_fd(EL_MARKER_ENV_REGION);
	if (fd < 0)
		return -1;
	p = mmap(NULL, EL_MARKER_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("region markers: cannot map the region page named by " EL_MARKER_ENV_REGION
		       "; running unmarked");
		return -1;
	}
	fd = el_marker_env_fd(EL_MARKER_ENV_PERF);
	st->perf_fd = fd >= 0 ? fd : -1;
	st->page = (struct el_marker_page *)p;
	/*
	 * Written now, so the page is faulted in before main: else the first
	 * BEGIN's stores fault it in inside the region (a tracer counted 5,677
	 * kernel instructions of shmem fault, 2.8 per getpid at -n 2000).
	 */
	st->page->magic = EL_MARKER_PAGE_MAGIC;
	return 0;
}

/* Before main, so no mmap lies between a BEGIN marker and the loop. */
__attribute__((constructor, weak, visibility("hidden"))) void el_marker_attach_before_main(void)
{
	if (el_marker_state.attach_tried)
		return;
	el_marker_state.attach_tried = 1;
	if (getenv(EL_MARKER_ENV_REGION))
		el_marker_attach();
}

/* "running unmarked", once per program; nothing when the region page makes markers work. */
__attribute__((weak, visibility("hidden"))) void el_marker_warn_unmarked(void)
{
	if (!el_marker_state.said_unmarked && !el_marker_state.page)
		fprintf(stderr,
			"region markers: syscall %d is unknown here (not the entrylab "
			"kernel): running unmarked\n",
			EL_MARKER_SYS);
	el_marker_state.said_unmarked = 1;
}

/* Linux, BEGIN: resets and enables the group, records iterations, RDTSC last. */
static inline int el_marker_linux_begin(uint64_t iterations)
{
	struct el_marker_page *r = el_marker_state.page;
	int perf_fd = el_marker_state.perf_fd;

	if (!r)
		return -1;
	if (perf_fd >= 0 && (el_marker_perf_ioctl(perf_fd, EL_MARKER_PERF_RESET) ||
			     el_marker_perf_ioctl(perf_fd, EL_MARKER_PERF_ENABLE)))
		r->errors++;
	r->magic = EL_MARKER_PAGE_MAGIC;
	r->iterations = iterations;
	r->begins++;
	r->tsc_begin = el_marker_rdtsc();
	return 0;
}

/* Linux, END: RDTSC first, disables the group, counts the region. */
static inline int el_marker_linux_end(void)
{
	struct el_marker_page *r = el_marker_state.page;
	uint64_t tsc;

	if (!r)
		return -1;
	tsc = el_marker_rdtsc();
	if (el_marker_state.perf_fd >= 0 &&
	    el_marker_perf_ioctl(el_marker_state.perf_fd, EL_MARKER_PERF_DISABLE))
		r->errors++;
	r->magic = EL_MARKER_PAGE_MAGIC;
	r->tsc_end = tsc;
	r->ends++;
	return 0;
}

/* A marker's SYSCALL did not answer 0: a region on Linux, or the failure, said once. */
__attribute__((weak, visibility("hidden"), noinline)) void el_marker_slow(long ret, int op,
									  uint64_t iterations)
{
	struct el_marker_state *st = &el_marker_state;

	if (ret == -ENOSYS) {
		if ((op == EL_MARKER_BEGIN ? el_marker_linux_begin(iterations)
					   : el_marker_linux_end()) == 0) {
			st->linux_used = 1;
			return;
		}
	}
	if (op == EL_MARKER_BEGIN)
		st->begin_failed = 1;
	else
		st->end_failed = 1;
	if (ret == -ENOSYS) {
		el_marker_warn_unmarked();
	} else if (!st->said_failed) {
		st->said_failed = 1;
		fprintf(stderr,
			"region markers: %s failed with %ld: the region is not measured; "
			"see the guest kernel's console (-v)\n",
			op == EL_MARKER_BEGIN ? "begin" : "end", ret);
	}
}

#endif
