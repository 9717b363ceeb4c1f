/* usercheck, time: the vDSO against the syscalls and libc, and against the host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "array_size.h"
#include "lib/vdso.h"
#include "usercheck.h"

typedef int (*cg_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef int (*res_fn)(clockid_t, struct timespec *);

static const char *const vdso_names[] = { "__vdso_clock_gettime", "__vdso_gettimeofday",
					  "__vdso_time", "__vdso_getcpu", "__vdso_clock_getres" };

static long long ns_of(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000 + t->tv_nsec;
}

static long long sys_ns(clockid_t clk)
{
	struct timespec t = { 0, 0 };

	uc_sys(SYS_clock_gettime, clk, (long)&t, 0);
	return ns_of(&t);
}

static long long libc_ns(clockid_t clk)
{
	struct timespec t = { 0, 0 };

	clock_gettime(clk, &t);
	return ns_of(&t);
}

static long long vdso_ns(cg_fn fn, clockid_t clk)
{
	struct timespec t = { 0, 0 };

	fn(clk, &t);
	return ns_of(&t);
}

static void check_vdso_image(struct uc_env *env)
{
	bool have = el_vdso_base() != 0;
	unsigned missing = 0;

	if (env->vdso < 0)
		el_pass("time.vdso_present");
	else
		el_expect("time.vdso_present", have == env->vdso,
			  "AT_SYSINFO_EHDR is %s, expected %s", have ? "present" : "absent",
			  env->vdso ? "present" : "absent");
	if (!have) {
		el_skip("time.vdso_symbols", "no vDSO");
		return;
	}
	for (unsigned i = 0; i < EL_ARRAY_SIZE(vdso_names); i++)
		if (!el_vdso_sym(vdso_names[i])) {
			missing++;
			printf("  missing vDSO symbol %s\n", vdso_names[i]);
		}
	el_expect("time.vdso_symbols", missing == 0, "%u of the 5 __vdso_* symbols missing",
		  missing);
}

/* vDSO, syscall and libc interleaved: CLOCK_MONOTONIC must never go backwards. */
static void check_monotonic(cg_fn vfn)
{
	long long prev = 0, t[4];
	int bad = -1;

	for (int i = 0; i < 2000 && bad < 0; i++) {
		t[0] = vfn ? vdso_ns(vfn, CLOCK_MONOTONIC) : sys_ns(CLOCK_MONOTONIC);
		t[1] = sys_ns(CLOCK_MONOTONIC);
		t[2] = libc_ns(CLOCK_MONOTONIC);
		t[3] = vfn ? vdso_ns(vfn, CLOCK_MONOTONIC) : sys_ns(CLOCK_MONOTONIC);
		for (int k = 0; k < 4; k++) {
			if (t[k] < prev || t[k] <= 0)
				bad = i;
			prev = t[k];
		}
	}
	el_expect("time.monotonic_order", bad < 0,
		  "round %d: vdso %lld, syscall %lld, libc %lld, vdso %lld ns", bad, t[0], t[1],
		  t[2], t[3]);
}

static void check_realtime(struct uc_env *env, cg_fn vfn)
{
	gtod_fn gfn = (gtod_fn)el_vdso_sym("__vdso_gettimeofday");
	time_fn tfn = (time_fn)el_vdso_sym("__vdso_time");
	long long s = sys_ns(CLOCK_REALTIME), l = libc_ns(CLOCK_REALTIME);
	long long v = vfn ? vdso_ns(vfn, CLOCK_REALTIME) : s;
	struct timeval tv_s = { 0, 0 }, tv_v = { 0, 0 };
	long long ts, tv_time;
	bool ok;

	ok = llabs(s - l) < 1000000000 && llabs(s - v) < 1000000000 && s > 0;
	el_expect("time.realtime_agree", ok, "syscall %lld, libc %lld, vdso %lld ns", s, l, v);

	uc_sys(SYS_gettimeofday, (long)&tv_s, 0, 0);
	if (gfn)
		gfn(&tv_v, NULL);
	else
		tv_v = tv_s;
	ok = llabs(tv_s.tv_sec - s / 1000000000) <= 1 && llabs(tv_v.tv_sec - tv_s.tv_sec) <= 1;
	el_expect("time.gettimeofday_agree", ok, "syscall %lld s, vdso %lld s, clock %lld s",
		  (long long)tv_s.tv_sec, (long long)tv_v.tv_sec, s / 1000000000);

	ts = uc_sys(SYS_time, 0, 0, 0);
	tv_time = tfn ? tfn(NULL) : ts;
	ok = llabs(ts - s / 1000000000) <= 1 && llabs(tv_time - ts) <= 1 &&
	     llabs((long long)time(NULL) - ts) <= 1;
	el_expect("time.time_agree", ok, "syscall %lld, vdso %lld, clock %lld", ts, tv_time,
		  s / 1000000000);

	if (env->host_time < 0) {
		el_skip("time.host", "no --host-time given");
		return;
	}
	/*
	 * Order, not a duration: not before the host launched us (less the
	 * tolerance for the host's and the guest's clock granularity).  How long
	 * after is the host's to check against its own clock when we are done
	 * (the line below): a busy or emulated host may take long to boot us.
	 */
	el_expect("time.host", s / 1000000000 >= env->host_time - env->host_tol,
		  "CLOCK_REALTIME %lld s, before the host launched us at %lld s (tolerance %lld s)",
		  s / 1000000000, env->host_time, env->host_tol);
	printf("usercheck: time.host: CLOCK_REALTIME %lld s\n", s / 1000000000);
}

static void check_res_and_errors(cg_fn vfn)
{
	res_fn rfn = (res_fn)el_vdso_sym("__vdso_clock_getres");
	struct timespec r1 = { -1, -1 }, r2 = { -1, -1 }, t;
	long sret, lret, vret;
	bool ok;

	uc_sys(SYS_clock_getres, CLOCK_MONOTONIC, (long)&r1, 0);
	if (rfn)
		rfn(CLOCK_MONOTONIC, &r2);
	else
		r2 = r1;
	ok = r1.tv_sec == 0 && r1.tv_nsec > 0 && r1.tv_nsec <= 10000000 && r2.tv_sec == r1.tv_sec &&
	     r2.tv_nsec == r1.tv_nsec;
	el_expect("time.clock_getres", ok, "syscall %lld.%09ld, vdso %lld.%09ld",
		  (long long)r1.tv_sec, r1.tv_nsec, (long long)r2.tv_sec, r2.tv_nsec);

	/* An unknown clock: the vDSO falls back to the syscall, which says EINVAL. */
	sret = uc_sys(SYS_clock_gettime, 12345, (long)&t, 0);
	lret = clock_gettime(12345, &t) == -1 ? -errno : 0;
	vret = vfn ? vfn(12345, &t) : sret;
	ok = sret == -EINVAL && lret == -EINVAL && vret == -EINVAL;
	el_expect("time.invalid_clock", ok, "syscall %ld, libc %ld, vdso %ld (want %d)", sret, lret,
		  vret, -EINVAL);
}

static void check_sleep(void)
{
	struct timespec d = { 0, 2000000 };
	long long t0 = libc_ns(CLOCK_MONOTONIC), t1;
	int r = nanosleep(&d, NULL);

	t1 = libc_ns(CLOCK_MONOTONIC);
	/*
	 * Order, not duration: it returns 0 and not before its time.  How late it
	 * may wake is not the program's to bound (emulation, CPU hogs); a lost
	 * wakeup hangs the run instead, which its timeout reports, and the
	 * record's guest.timer says how late the timer interrupts came.
	 */
	el_expect("time.nanosleep", r == 0 && t1 - t0 >= 2000000,
		  "nanosleep(2 ms) returned %d after %lld ns", r, t1 - t0);
}

void uc_time(struct uc_env *env)
{
	cg_fn vfn = (cg_fn)el_vdso_sym("__vdso_clock_gettime");

	check_vdso_image(env);
	check_monotonic(vfn);
	check_realtime(env, vfn);
	check_res_and_errors(vfn);
	check_sleep();
}
