/*
 * The user FPU/SSE (and, with XSAVE, AVX, AVX-512) state image: its format
 * and size are chosen once at boot (fpu_init): XSAVE where CPUID offers it
 * and CR4.OSXSAVE could be set (cpu_setup.c's rules), else FXSAVE's 512
 * bytes.  The kernel itself never touches x87/SSE registers (-mno-sse), so
 * the registers hold the running thread's state from its entry to its
 * switch-out.
 *
 * An XSAVE image is the standard (non-compacted) format, as user mode sees
 * it in a signal frame: the 512-byte legacy area (FXSAVE's layout), the
 * 64-byte XSAVE header at 512 (XSTATE_BV at +0, XCOMP_BV at +8: always 0),
 * then each enabled component at the offset CPUID.0xD.i reports.
 */
#ifndef EL_ARCH_FPU_H
#define EL_ARCH_FPU_H

#include "kernel.h"

#define FXSAVE_SIZE 512
#define XSAVE_HEADER_OFFSET 512
#define XSAVE_HEADER_SIZE 64
#define FXSAVE_MXCSR_OFFSET 24      /* in the legacy area */
#define FXSAVE_MXCSR_MASK_OFFSET 28
#define FXSAVE_SW_RESERVED_OFFSET 464 /* 48 bytes software may use: Linux's fpx_sw_bytes */

/* XCR0 / XSTATE_BV bits this kernel may enable (the user states of Linux 6.1 but PKRU, AMX). */
#define XFEATURE_X87 BIT(0)
#define XFEATURE_SSE BIT(1)
#define XFEATURE_YMM BIT(2)
#define XFEATURE_OPMASK BIT(5)
#define XFEATURE_ZMM_HI256 BIT(6)
#define XFEATURE_HI16_ZMM BIT(7)

/* Chooses the format (after cpu_setup and frame_init); sets XCR0 when XSAVE is used. */
void fpu_init(void);
/*
 * Before the first user state is saved (init, after the boot report's VM
 * exits): falls back to FXSAVE if XCR0 no longer reads what fpu_init set.
 */
void fpu_recheck(void);
/* Bytes of an image (>= 512), and whether it is an XSAVE image (with a header at 512). */
uint32_t fpu_state_size(void);
bool fpu_uses_xsave(void);
/* The XCR0 in use (0 without XSAVE); the states an image holds (x87|SSE without XSAVE). */
uint64_t fpu_xfeatures(void);
uint64_t fpu_user_xfeatures(void);
/* MXCSR bits the CPU accepts (FXSAVE's MXCSR_MASK): others make FXRSTOR/XRSTOR #GP. */
uint32_t fpu_mxcsr_mask(void);

/* An image holding the initial state (as after exec), 64-byte aligned; NULL when out of memory. */
void *fpu_state_alloc(void);
void fpu_state_free(void *img);

/* The CPU's user state into img / from img (img 64-byte aligned, kernel memory). */
void fpu_save(void *img);
/*
 * XRSTOR/FXRSTOR can #GP on an image user mode or a tracer wrote (bad
 * MXCSR bits, XSTATE_BV outside XCR0, XCOMP_BV or reserved header bytes
 * set).  fpu_restore_safe returns 0, or the vector with the CPU state
 * reset to the initial one; fpu_restore reports such an image on the
 * console and does the same (a kernel image never faults).
 */
int fpu_restore_safe(const void *img);
void fpu_restore(const void *img);
/*
 * ptrace SETFPREGS: the 512-byte FXSAVE area fx into img; with XSAVE, x87
 * and SSE are marked in use so that XRSTOR loads them rather than their
 * initial state.  -1 (img unchanged) when MXCSR has bits outside
 * fpu_mxcsr_mask() (Linux: -EINVAL).
 */
int fpu_set_fxsave(void *img, const void *fx);
/* The CPU's state reset to the defaults of a new program (FCW 0x37f, MXCSR 0x1f80, all else 0). */
void fpu_init_state(void);

#endif
