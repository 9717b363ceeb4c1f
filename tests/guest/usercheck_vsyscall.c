/*
 * usercheck, vsyscall: the legacy page answers like the vDSO.  With
 * --vsyscall=native, emulate or xonly, each entry point is called and its
 * result compared with the vDSO's (the syscall's without a vDSO) taken just
 * before and after; in native and emulate the page must also be readable
 * and hold the gettimeofday stub.  Under none or any nothing is called: a
 * call would end the process, which the KVM tests check separately.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "array_size.h"
#include "lib/vdso.h"
#include "usercheck.h"

#define VSYSCALL_BASE 0xffffffffff600000ul

typedef long (*gtod_fn)(struct timeval *, struct timezone *);
typedef long (*time_fn)(long *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

/* The vDSO's entry, or the raw syscall without one. */
static long ref_gtod(struct timeval *tv, struct timezone *tz)
{
	gtod_fn fn = (gtod_fn)el_vdso_sym("__vdso_gettimeofday");

	return fn ? fn(tv, tz) : uc_sys(SYS_gettimeofday, (long)tv, (long)tz, 0);
}

static long ref_time(void)
{
	time_fn fn = (time_fn)el_vdso_sym("__vdso_time");

	return fn ? fn(NULL) : uc_sys(SYS_time, 0, 0, 0);
}

static long ref_getcpu(unsigned *cpu, unsigned *node)
{
	getcpu_fn fn = (getcpu_fn)el_vdso_sym("__vdso_getcpu");

	return fn ? fn(cpu, node, NULL) : uc_sys(SYS_getcpu, (long)cpu, (long)node, 0);
}

static long long us_of(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

static void check_gettimeofday(void)
{
	gtod_fn volatile fn = (gtod_fn)VSYSCALL_BASE;
	struct timeval before, tv = { 0, 0 }, after;
	struct timezone ref_tz = { 0, 0 }, tz = { -1, -1 };
	long r;

	ref_gtod(&before, &ref_tz);
	r = fn(&tv, &tz);
	ref_gtod(&after, NULL);
	el_expect("vsyscall.gettimeofday",
		  r == 0 && us_of(&before) <= us_of(&tv) && us_of(&tv) <= us_of(&after) &&
			  tz.tz_minuteswest == ref_tz.tz_minuteswest &&
			  tz.tz_dsttime == ref_tz.tz_dsttime,
		  "returned %ld, %lld us not within the vDSO's [%lld, %lld], tz %d/%d (vDSO %d/%d)",
		  r, us_of(&tv), us_of(&before), us_of(&after), tz.tz_minuteswest, tz.tz_dsttime,
		  ref_tz.tz_minuteswest, ref_tz.tz_dsttime);
}

static void check_time(void)
{
	time_fn volatile fn = (time_fn)(VSYSCALL_BASE + 0x400);
	long before, t, stored = -1, after;

	before = ref_time();
	t = fn(&stored);
	after = ref_time();
	el_expect("vsyscall.time", before <= t && t <= after && stored == t,
		  "returned %ld (stored %ld), not within the vDSO's [%ld, %ld]", t, stored, before,
		  after);
}

static void check_getcpu(void)
{
	getcpu_fn volatile fn = (getcpu_fn)(VSYSCALL_BASE + 0x800);
	unsigned cpu = ~0u, node = ~0u, ref_cpu = ~0u, ref_node = ~0u;
	long r, ref;

	ref = ref_getcpu(&ref_cpu, &ref_node);
	r = fn(&cpu, &node, NULL);
	el_expect("vsyscall.getcpu", r == 0 && ref == 0 && cpu == ref_cpu && node == ref_node,
		  "returned %ld cpu %u node %u, the vDSO %ld cpu %u node %u", r, cpu, node, ref,
		  ref_cpu, ref_node);
}

/* native and emulate map the page readable: its first bytes are `mov $96, %rax` (48 c7 c0 60). */
static void check_read(const char *mode)
{
	static const unsigned char stub[] = { 0x48, 0xc7, 0xc0, 0x60 };
	unsigned char got[sizeof(stub)];

	if (strcmp(mode, "native") && strcmp(mode, "emulate")) {
		el_skip("vsyscall.read", "vsyscall=%s: the page is not readable", mode);
		return;
	}
	for (unsigned i = 0; i < sizeof(got); i++)
		got[i] = ((const volatile unsigned char *)VSYSCALL_BASE)[i];
	el_expect("vsyscall.read", !memcmp(got, stub, sizeof(stub)),
		  "the page starts %02x %02x %02x %02x, not the gettimeofday stub", got[0], got[1],
		  got[2], got[3]);
}

void uc_vsyscall(struct uc_env *env)
{
	static const char *const names[] = { "vsyscall.gettimeofday", "vsyscall.time",
					     "vsyscall.getcpu", "vsyscall.read" };

	if (!strcmp(env->vsyscall, "none") || !strcmp(env->vsyscall, "any")) {
		for (unsigned i = 0; i < EL_ARRAY_SIZE(names); i++)
			el_skip(names[i], "--vsyscall=%s: calling the page is not expected to work",
				env->vsyscall);
		return;
	}
	check_gettimeofday();
	check_time();
	check_getcpu();
	check_read(env->vsyscall);
}
