/*
 * Reading the clocks from the vvar pages: one algorithm for the vDSO and the
 * kernel's own clock (so a vDSO read and a syscall always agree), testable
 * on the host.
 *
 * The two points where the vDSO variants differ are parameters
 * of the read: how the TSC is read (fences, RDTSCP) and how the delta to
 * cycle_last is clamped (a predictable branch or a cmov).  Each world passes
 * the functions it wants; they are always_inline, so every vDSO image holds
 * exactly one variant, with no run-time selection in the measured path.
 */
#ifndef EL_VCLOCK_H
#define EL_VCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "entrylab/pvclock.h"
#include "entrylab/vvar.h"

#define VCLOCK_INLINE static inline __attribute__((always_inline))
#define VCLOCK_READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define vclock_barrier() __asm__ __volatile__("" ::: "memory")

/* Numbered as knobs.h's EL_TSC_* and EL_CLAMP_* (the kernel checks). */
#define VCLOCK_TSC_LFENCE 0  /* LFENCE; RDTSC: ordered after earlier loads */
#define VCLOCK_TSC_LFENCE2 1 /* LFENCE; RDTSC; LFENCE: later loads wait, too */
#define VCLOCK_TSC_RDTSCP 2  /* RDTSCP: waits for earlier instructions */
#define VCLOCK_TSC_NONE 3    /* bare RDTSC: may run ahead of earlier loads */
#define VCLOCK_CLAMP_BRANCH 0
#define VCLOCK_CLAMP_CMOV 1

typedef uint64_t vclock_counter_fn(void);
typedef uint64_t vclock_delta_fn(uint64_t cycles, uint64_t last);

struct vclock_ts {
	uint64_t sec;
	uint64_t nsec;
};

/* ---- counter reads ------------------------------------------------------- */

VCLOCK_INLINE uint64_t vclock_rdtsc_lfence(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

VCLOCK_INLINE uint64_t vclock_rdtsc_lfence2(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

VCLOCK_INLINE uint64_t vclock_rdtscp(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	(void)aux;
	return (uint64_t)hi << 32 | lo;
}

VCLOCK_INLINE uint64_t vclock_rdtsc_none(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* ---- the cycle_last clamp: cycles at or before last count as no time ---- */

VCLOCK_INLINE uint64_t vclock_delta_branch(uint64_t cycles, uint64_t last)
{
	if (__builtin_expect(cycles > last, 1))
		return cycles - last;
	/* A side effect on the rare path: GCC cannot if-convert it into a cmov. */
	__asm__ __volatile__("");
	return 0;
}

VCLOCK_INLINE uint64_t vclock_delta_cmov(uint64_t cycles, uint64_t last)
{
	uint64_t delta = cycles - last, zero = 0;

	__asm__("cmp %[last], %[cycles]\n\tcmovbe %[zero], %[delta]"
		: [delta] "+r"(delta)
		: [cycles] "r"(cycles), [last] "r"(last), [zero] "r"(zero)
		: "cc");
	return delta;
}

/* VCLOCK_TSC: ticks to ns.  128-bit product: no tick keeps the delta small. */
VCLOCK_INLINE uint64_t vclock_tsc_scale(uint64_t delta, uint64_t mult)
{
	return (uint64_t)(((unsigned __int128)delta * mult) >> VCLOCK_TSC_SHIFT);
}

/* ---- seqcounts ------------------------------------------------------------ */

VCLOCK_INLINE uint32_t vclock_read_begin(const struct vvar_data *vd)
{
	uint32_t seq;

	while ((seq = VCLOCK_READ_ONCE(vd->seq)) & 1)
		__asm__ __volatile__("pause");
	vclock_barrier(); /* x86 keeps loads in order: only the compiler must not move them */
	return seq;
}

VCLOCK_INLINE bool vclock_read_retry(const struct vvar_data *vd, uint32_t seq)
{
	vclock_barrier();
	return VCLOCK_READ_ONCE(vd->seq) != seq;
}

/*
 * ns since kvmclock 0 from KVM's page, under its version seqcount.  False
 * when KVM no longer promises a stable TSC: the caller falls back.
 */
VCLOCK_INLINE bool vclock_pvclock_ns(const struct pvclock_vcpu_time_info *pv,
				     vclock_counter_fn *counter, vclock_delta_fn *delta,
				     uint64_t *ns)
{
	uint32_t version;
	uint64_t t;
	uint8_t flags;

	do {
		version = VCLOCK_READ_ONCE(pv->version);
		vclock_barrier();
		t = pv->system_time + pvclock_scale(delta(counter(), pv->tsc_timestamp),
						    pv->tsc_to_system_mul, pv->tsc_shift);
		flags = pv->flags;
		vclock_barrier();
	} while ((version & 1) || VCLOCK_READ_ONCE(pv->version) != version);
	*ns = t;
	return flags & PVCLOCK_TSC_STABLE_BIT;
}

/*
 * Clock clk (any id with a base) from the counter: base[clk] plus the time
 * since the base's reference point.  False when the clock source gives no
 * time (VCLOCK_NONE, unstable pvclock).
 */
VCLOCK_INLINE bool vclock_read_hres(const struct vvar_data *vd,
				    const struct pvclock_vcpu_time_info *pv, uint32_t clk,
				    vclock_counter_fn *counter, vclock_delta_fn *delta,
				    struct vclock_ts *ts)
{
	const struct vclock_base *b = &vd->base[clk];
	uint64_t sec, ns;
	uint32_t seq;

	do {
		seq = vclock_read_begin(vd);
		if (__builtin_expect(vd->clock_mode == VCLOCK_TSC, 1)) {
			ns = vclock_tsc_scale(delta(counter(), vd->cycle_last), vd->mult);
		} else if (vd->clock_mode == VCLOCK_PVCLOCK) {
			if (!vclock_pvclock_ns(pv, counter, delta, &ns))
				return false;
		} else {
			return false;
		}
		ns += b->nsec;
		sec = b->sec;
	} while (vclock_read_retry(vd, seq));
	/* Division by a constant: a multiply, no DIV, and no loop for large ns. */
	ts->sec = sec + ns / NSEC_PER_SEC;
	ts->nsec = ns % NSEC_PER_SEC;
	return true;
}

/*
 * The fast path: clock clk (REALTIME or MONOTONIC: any id with a base) from
 * the TSC clock source in one pass of the seqcount, straight-line.  False
 * when that does not give the answer at once: the kernel is rewriting the
 * page (odd or changed seq), the clock source is not VCLOCK_TSC.  The
 * caller then takes the general path (vclock_gettime), out of line, which
 * waits, retries and handles every clock source.
 */
VCLOCK_INLINE bool vclock_read_fast(const struct vvar_data *vd, uint32_t clk,
				    vclock_counter_fn *counter, vclock_delta_fn *delta,
				    struct vclock_ts *ts)
{
	const struct vclock_base *b = &vd->base[clk];
	uint32_t seq = VCLOCK_READ_ONCE(vd->seq);
	uint64_t sec, ns;

	vclock_barrier();
	if (__builtin_expect((seq & 1) | (vd->clock_mode != VCLOCK_TSC), 0))
		return false;
	ns = vclock_tsc_scale(delta(counter(), vd->cycle_last), vd->mult) + b->nsec;
	sec = b->sec;
	if (__builtin_expect(vclock_read_retry(vd, seq), 0))
		return false;
	ts->sec = sec + ns / NSEC_PER_SEC;
	ts->nsec = ns % NSEC_PER_SEC;
	return true;
}

/*
 * What clock_gettime() can answer from the vvar pages: the HRES clocks, and
 * the COARSE ones as the HRES value rounded down to the tick grid.  False:
 * the caller asks the kernel (CPU-time clocks, invalid ids, no clock source).
 */
VCLOCK_INLINE bool vclock_gettime(const struct vvar_data *vd,
				  const struct pvclock_vcpu_time_info *pv, uint32_t clk,
				  vclock_counter_fn *counter, vclock_delta_fn *delta,
				  struct vclock_ts *ts)
{
	uint32_t msk;

	if (clk >= EL_CLOCK_IDS)
		return false;
	msk = 1u << clk;
	if (__builtin_expect(msk & VCLOCK_HRES_MASK, 1))
		return vclock_read_hres(vd, pv, clk, counter, delta, ts);
	if (msk & VCLOCK_COARSE_MASK) {
		if (!vclock_read_hres(vd, pv, clk, counter, delta, ts))
			return false;
		ts->nsec -= ts->nsec % VCLOCK_COARSE_NS;
		return true;
	}
	return false;
}

/* clock_getres() for the clocks vclock_gettime() answers. */
VCLOCK_INLINE bool vclock_getres(uint32_t clk, struct vclock_ts *res)
{
	uint32_t msk;

	if (clk >= EL_CLOCK_IDS)
		return false;
	msk = 1u << clk;
	res->sec = 0;
	if (msk & VCLOCK_HRES_MASK)
		res->nsec = 1;
	else if (msk & VCLOCK_COARSE_MASK)
		res->nsec = VCLOCK_COARSE_NS;
	else
		return false;
	return true;
}

#endif
