/*
 * The real vDSO images, run on the host: each built image (build/guest-kernel/
 * vdso/vdso-<tsc>-<clamp>.so) is mapped with a fake [vvar] right below it,
 * as the guest kernel maps them, its functions are found through DT_HASH as
 * musl finds them, and called: clock reads against the host's TSC, the
 * syscall fallbacks against the host kernel, getcpu both ways.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "array_size.h"
#include "guest-kernel/time/vclock.h"

#define PAGE 4096ul

struct ts64 {
	int64_t sec;
	long nsec;
};

typedef int cgt_fn(int, struct ts64 *);
typedef int gtod_fn(struct ts64 *, int *);
typedef long time_fn(long *);
typedef int getcpu_fn(unsigned *, unsigned *, void *);

struct mapped {
	uint8_t *area; /* [vvar data][pvclock][image] */
	size_t len;
	uint8_t *base;
	struct vvar_data *vd;
	struct pvclock_vcpu_time_info *pv;
};

static const char *const variants[] = {"lfence-branch", "lfence-cmov", "lfence2-branch",
				       "lfence2-cmov", "rdtscp-branch", "rdtscp-cmov",
				       "none-branch", "none-cmov"};

static bool cpu_has_rdtscp(void)
{
	uint32_t a = 0x80000001, b, c = 0, d;

	__asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return d & (1u << 27);
}

static bool cpu_has_rdpid(void)
{
	uint32_t a = 7, b, c = 0, d;

	__asm__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return c & (1u << 22);
}

/* Maps the image of a variant below its fake vvar pages; false when it was not built. */
static bool map_image(const char *variant, struct mapped *m)
{
	char path[512];
	FILE *f;
	long size;

	snprintf(path, sizeof(path), "%s/guest-kernel/vdso/vdso-%s.so", EL_BINARY_DIR, variant);
	f = fopen(path, "rb");
	if (!f)
		return false;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	m->len = VVAR_PAGES * PAGE + ((size_t)size + PAGE - 1) / PAGE * PAGE;
	m->area = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(m->area, MAP_FAILED);
	m->base = m->area + VVAR_PAGES * PAGE;
	cr_assert_eq(fread(m->base, 1, (size_t)size, f), (size_t)size, "%s", path);
	fclose(f);
	cr_assert_eq(mprotect(m->base, m->len - VVAR_PAGES * PAGE, PROT_READ | PROT_EXEC), 0);
	m->vd = (struct vvar_data *)(m->base + VVAR_DATA_OFFSET);
	m->pv = (struct pvclock_vcpu_time_info *)(m->base + VVAR_PVCLOCK_OFFSET);
	return true;
}

/* The symbol's address, found as musl finds it: PT_DYNAMIC, then DT_HASH's chain count. */
static void *sym(const struct mapped *m, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)m->base;
	const Elf64_Phdr *ph = (const void *)(m->base + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	const Elf64_Sym *syms = NULL;
	const uint32_t *hash = NULL;
	const char *str = NULL;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(m->base + ph[i].p_offset);
	cr_assert_not_null(dyn);
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			syms = (const void *)(m->base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const char *)(m->base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const void *)(m->base + dyn->d_un.d_ptr);
	}
	cr_assert(syms && str && hash);
	for (uint32_t i = 1; i < hash[1]; i++)
		if (syms[i].st_shndx != SHN_UNDEF && !strcmp(str + syms[i].st_name, name))
			return m->base + syms[i].st_value;
	cr_assert_fail("%s is not exported", name);
	return NULL;
}

static uint64_t tsc(void)
{
	return vclock_rdtsc_lfence();
}

/* The TSC comparisons below assume one CPU's TSC: stay on the CPU we are on. */
static void pin_here(void)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	cr_assert_eq(sched_setaffinity(0, sizeof(one), &one), 0);
}

static void unmap(struct mapped *m)
{
	munmap(m->area, m->len);
}

static bool variant_runs_here(const char *v)
{
	return strncmp(v, "rdtscp", 6) || cpu_has_rdtscp();
}

/* TSC mode with 1 tick = 1 ns: the result must lie between two TSC reads around the call. */
Test(vdso_image, tsc_mode_every_variant)
{
	pin_here();
	for (size_t i = 0; i < EL_ARRAY_SIZE(variants); i++) {
		struct mapped m;
		struct ts64 ts;
		uint64_t before, after, got;
		cgt_fn *cgt;

		if (!map_image(variants[i], &m))
			cr_skip_test("vDSO images not built under %s", EL_BINARY_DIR);
		if (!variant_runs_here(variants[i])) {
			unmap(&m);
			continue;
		}
		cgt = (cgt_fn *)sym(&m, "__vdso_clock_gettime");
		m.vd->clock_mode = VCLOCK_TSC;
		m.vd->mult = 1ull << VCLOCK_TSC_SHIFT;
		m.vd->cycle_last = tsc();
		m.vd->base[EL_CLOCK_MONOTONIC] = (struct vclock_base){1000, 0};
		before = tsc();
		cr_assert_eq(cgt(CLOCK_MONOTONIC, &ts), 0, "%s", variants[i]);
		after = tsc();
		got = (uint64_t)(ts.sec - 1000) * 1000000000u + (uint64_t)ts.nsec;
		cr_assert(got >= before - m.vd->cycle_last && got <= after - m.vd->cycle_last,
			  "%s: %lu not in [%lu, %lu]", variants[i], got,
			  before - m.vd->cycle_last, after - m.vd->cycle_last);
		/* A counter behind cycle_last gives the base, never less. */
		m.vd->cycle_last = after + (1ull << 40);
		cr_assert_eq(cgt(CLOCK_MONOTONIC, &ts), 0);
		cr_assert(ts.sec == 1000 && ts.nsec == 0, "%s clamps", variants[i]);
		unmap(&m);
	}
}

Test(vdso_image, pvclock_mode)
{
	struct mapped m;
	struct ts64 ts;
	uint64_t before, after, got;
	cgt_fn *cgt;

	if (!map_image("lfence-branch", &m))
		cr_skip_test("vDSO images not built under %s", EL_BINARY_DIR);
	cgt = (cgt_fn *)sym(&m, "clock_gettime");
	pin_here();
	m.vd->clock_mode = VCLOCK_PVCLOCK;
	m.pv->version = 4;
	m.pv->tsc_to_system_mul = 1u << 31;
	m.pv->tsc_shift = 1; /* 1 tick = 1 ns */
	m.pv->system_time = 5000000000ull;
	m.pv->flags = PVCLOCK_TSC_STABLE_BIT;
	m.pv->tsc_timestamp = tsc();
	m.vd->base[EL_CLOCK_REALTIME] = (struct vclock_base){4000000000, 0}; /* 2096 */
	before = tsc();
	cr_assert_eq(cgt(CLOCK_REALTIME, &ts), 0);
	after = tsc();
	cr_assert_eq(ts.sec, 4000000005);
	got = (uint64_t)ts.nsec;
	cr_assert(got >= before - m.pv->tsc_timestamp && got <= after - m.pv->tsc_timestamp);
	/* Without the stable bit the vDSO asks the (host) kernel. */
	m.pv->flags = 0;
	cr_assert_eq(cgt(CLOCK_REALTIME, &ts), 0);
	cr_assert_gt(ts.sec, 1700000000);
	cr_assert_lt(ts.sec, 4000000000, "the host's clock, not the fake page's");
	unmap(&m);
}

/* No clock source in the vvar page: every call is the host's syscall. */
Test(vdso_image, fallbacks_are_the_syscalls)
{
	struct mapped m;
	struct timespec h0, h1;
	struct ts64 ts;
	int tz[2] = {-1, -1};
	cgt_fn *cgt, *res;
	gtod_fn *gtod;
	time_fn *tm;

	if (!map_image("none-cmov", &m))
		cr_skip_test("vDSO images not built under %s", EL_BINARY_DIR);
	cgt = (cgt_fn *)sym(&m, "__vdso_clock_gettime");
	res = (cgt_fn *)sym(&m, "__vdso_clock_getres");
	gtod = (gtod_fn *)sym(&m, "__vdso_gettimeofday");
	tm = (time_fn *)sym(&m, "__vdso_time");
	m.vd->clock_mode = VCLOCK_NONE;

	clock_gettime(CLOCK_MONOTONIC, &h0);
	cr_assert_eq(cgt(CLOCK_MONOTONIC, &ts), 0);
	clock_gettime(CLOCK_MONOTONIC, &h1);
	cr_assert(ts.sec > h0.tv_sec || (ts.sec == h0.tv_sec && ts.nsec >= h0.tv_nsec));
	cr_assert(ts.sec < h1.tv_sec || (ts.sec == h1.tv_sec && ts.nsec <= h1.tv_nsec));
	cr_assert_eq(cgt(CLOCK_PROCESS_CPUTIME_ID, &ts), 0, "CPU-time clocks: always the syscall");
	cr_assert_eq(cgt(100, &ts), -EINVAL, "invalid ids: the syscall's -EINVAL, as Linux's vDSO");
	cr_assert_eq(cgt(-1, &ts), -EINVAL);
	cr_assert_eq(res(100, &ts), -EINVAL);
	cr_assert_eq(res(CLOCK_MONOTONIC_COARSE, &ts), 0);
	cr_assert(ts.sec == 0 && ts.nsec == VCLOCK_COARSE_NS, "getres never needs the clock");
	cr_assert_eq(res(CLOCK_MONOTONIC, NULL), 0);
	cr_assert_eq(gtod(&ts, tz), 0);
	cr_assert(ts.sec >= h0.tv_sec && ts.nsec < 1000000, "a timeval");
	cr_assert_gt(tm(NULL), 1700000000);
	unmap(&m);
}

Test(vdso_image, gettimeofday_time_and_coarse)
{
	struct mapped m;
	struct ts64 ts;
	int tz[2] = {-1, -1};
	long t = 0;

	if (!map_image("lfence-branch", &m))
		cr_skip_test("vDSO images not built under %s", EL_BINARY_DIR);
	m.vd->clock_mode = VCLOCK_TSC;
	m.vd->mult = 1ull << VCLOCK_TSC_SHIFT;
	m.vd->cycle_last = tsc();
	m.vd->base[EL_CLOCK_REALTIME] = (struct vclock_base){1764500000, 999999000};
	m.vd->base[EL_CLOCK_MONOTONIC_COARSE] = (struct vclock_base){7, 3999999};
	m.vd->tz_minuteswest = 60;
	m.vd->tz_dsttime = 1;
	cr_assert_eq(((gtod_fn *)sym(&m, "gettimeofday"))(&ts, tz), 0);
	cr_assert(ts.sec >= 1764500000 && ts.nsec < 1000000, "%ld.%06ld", ts.sec, ts.nsec);
	cr_assert(tz[0] == 60 && tz[1] == 1);
	cr_assert_eq(((gtod_fn *)sym(&m, "gettimeofday"))(NULL, NULL), 0);
	cr_assert_geq(((time_fn *)sym(&m, "time"))(&t), 1764500000);
	cr_assert_eq(t, ((time_fn *)sym(&m, "__vdso_time"))(NULL));
	cr_assert_eq(((cgt_fn *)sym(&m, "clock_gettime"))(CLOCK_MONOTONIC_COARSE, &ts), 0);
	cr_assert_eq(ts.nsec % VCLOCK_COARSE_NS, 0, "on the tick grid: %ld", ts.nsec);
	unmap(&m);
}

Test(vdso_image, getcpu)
{
	struct mapped m;
	unsigned cpu = 99, node = 99;
	getcpu_fn *gc;
	if (!map_image("rdtscp-cmov", &m))
		cr_skip_test("vDSO images not built under %s", EL_BINARY_DIR);
	gc = (getcpu_fn *)sym(&m, "getcpu");
	m.vd->getcpu_mode = VGETCPU_VVAR;
	m.vd->cpu = 3;
	m.vd->node = 1;
	cr_assert_eq(gc(&cpu, &node, NULL), 0);
	cr_assert(cpu == 3 && node == 1);
	cr_assert_eq(gc(NULL, NULL, NULL), 0);
	if (cpu_has_rdpid()) {
		/* Linux put node << 12 | cpu into TSC_AUX: pinned, the answer is our CPU. */
		int here;

		pin_here();
		here = sched_getcpu();
		m.vd->getcpu_mode = VGETCPU_RDPID;
		cr_assert_eq(gc(&cpu, &node, NULL), 0);
		cr_assert_eq((int)cpu, here);
	}
	unmap(&m);
}
