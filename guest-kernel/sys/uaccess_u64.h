/*
 * Inline user accesses for the few hot legacy paths (the vsyscall
 * emulation, the time writers it calls) where a call per access would be
 * most of the cost: one 8-byte load, and 8-byte stores to a range the
 * caller has checked.  Same rules as uaccess.h: each access may fault
 * without harm (exception table), SMAP's window is opened around it.
 */
#ifndef EL_SYS_UACCESS_U64_H
#define EL_SYS_UACCESS_U64_H

#include "arch/x86_64/cpu.h"
#include "sys/errno.h"
#include "sys/uaccess_range.h"

/* CR4.SMAP is on: user accesses need STAC/CLAC (uaccess_init). */
extern bool uaccess_smap;

static inline void user_open(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("stac" ::: "memory");
}

static inline void user_close(void)
{
	if (uaccess_smap)
		__asm__ __volatile__("clac" ::: "memory");
}

/* One 8-byte value from user memory: 0 or -EFAULT. */
static inline int get_user_u64(uint64_t *val, uint64_t usrc)
{
	int vec = 0; /* the fixup leaves the vector in RSI (cpu.h) */
	uint64_t v;  /* unset after a fault: then only -EFAULT counts */

	if (!user_range_ok(usrc, sizeof(v)))
		return -EFAULT;
	user_open();
	__asm__ __volatile__(ASM_SAFE("movq (%[p]), %[v]")
			     : "+S"(vec), [v] "=r"(v)
			     : [p] "r"(usrc)
			     : "memory");
	user_close();
	*val = v;
	return vec ? -EFAULT : 0;
}

/*
 * Stores to user memory whose range the caller has checked with
 * user_range_ok(): one 8-byte value, or two (at udst and udst + 8) in one
 * asm so that both are computed before the window opens.  0, or -EFAULT
 * when a store faulted (the rest is skipped).
 */
static inline int put_user_u64_checked(uint64_t udst, uint64_t v)
{
	int vec = 0;

	user_open();
	__asm__ __volatile__(ASM_SAFE("movq %[v], (%[p])")
			     : "+S"(vec)
			     : [v] "r"(v), [p] "r"(udst)
			     : "memory");
	user_close();
	return vec ? -EFAULT : 0;
}

static inline int put_user_2u64_checked(uint64_t udst, uint64_t v0, uint64_t v1)
{
	int vec = 0;

	user_open();
	__asm__ __volatile__("1: movq %[v0], (%[p])\n"
			     "2: movq %[v1], 8(%[p])\n"
			     "3:\n\t" EXTABLE_ENTRY(1b, 3b) EXTABLE_ENTRY(2b, 3b)
			     : "+S"(vec)
			     : [v0] "r"(v0), [v1] "r"(v1), [p] "r"(udst)
			     : "memory");
	user_close();
	return vec ? -EFAULT : 0;
}

#endif
