/*
 * The user's data segment registers as the kernel sees them.  Entries from
 * user mode change neither DS, ES, FS nor GS (64-bit mode ignores DS/ES for
 * addressing and the kernel never loads them), so while the kernel runs
 * they still hold the current task's selectors; only the GS base is
 * exchanged (SWAPGS).
 *
 * Loading a user selector can fault (#GP, #NP) when its descriptor has
 * gone (modify_ldt) or never was; as Linux's loadsegment(), the loads here
 * then load the null selector instead.  A fault on the GS load happens with
 * the user GS base active, between two SWAPGS: harmless, since the kernel's
 * C code never addresses through GS (current is cpu0.current) and the
 * paranoid entry tells the GS state from the MSR.
 */
#ifndef EL_ARCH_SEGREGS_H
#define EL_ARCH_SEGREGS_H

#include "arch/x86_64/cpu.h"
#include "kernel.h"

#define DEFINE_SEG_ACCESS(seg)                                                             \
	static inline uint16_t seg_read_##seg(void)                                        \
	{                                                                                  \
		uint16_t s;                                                                \
		__asm__ __volatile__("movw %%" #seg ", %0" : "=r"(s));                     \
		return s;                                                                  \
	}                                                                                  \
	static inline int seg_load_##seg##_safe(uint16_t s)                                \
	{                                                                                  \
		int vec = 0;                                                               \
		__asm__ __volatile__(ASM_SAFE("movl %k[s], %%" #seg)                       \
				     : "+S"(vec)                                           \
				     : [s] "r"((uint32_t)s)                                \
				     : "memory");                                          \
		return vec;                                                                \
	}

DEFINE_SEG_ACCESS(ds)
DEFINE_SEG_ACCESS(es)
DEFINE_SEG_ACCESS(fs)
DEFINE_SEG_ACCESS(gs)
#undef DEFINE_SEG_ACCESS

/* GS as user mode will see it: the selector load sets the user's base, not the kernel's. */
static inline int seg_load_user_gs_safe(uint16_t s)
{
	int vec = 0;

	__asm__ __volatile__("swapgs\n\t" ASM_SAFE("movl %k[s], %%gs") "swapgs"
			     : "+S"(vec)
			     : [s] "r"((uint32_t)s)
			     : "memory");
	return vec;
}

/* Each loads s, or the null selector when s faults; returns what was loaded. */
static inline uint16_t seg_load_ds(uint16_t s)
{
	if (seg_load_ds_safe(s)) {
		seg_load_ds_safe(0);
		return 0;
	}
	return s;
}

static inline uint16_t seg_load_es(uint16_t s)
{
	if (seg_load_es_safe(s)) {
		seg_load_es_safe(0);
		return 0;
	}
	return s;
}

static inline uint16_t seg_load_fs(uint16_t s)
{
	if (seg_load_fs_safe(s)) {
		seg_load_fs_safe(0);
		return 0;
	}
	return s;
}

static inline uint16_t seg_load_user_gs(uint16_t s)
{
	if (seg_load_user_gs_safe(s)) {
		seg_load_user_gs_safe(0);
		return 0;
	}
	return s;
}

#endif
