/*
 * The user FPU/SSE (and, with XSAVE, AVX ...) state image: its format and
 * size are chosen once at boot (fpu_init): XSAVE where CPUID offers it and
 * CR4.OSXSAVE is set, else FXSAVE's 512 bytes.
 */
#ifndef EL_ARCH_FPU_H
#define EL_ARCH_FPU_H

#include "kernel.h"

/* Chooses the format (after cpu_setup); sets CR4.OSXSAVE and XCR0 when XSAVE is used. */
void fpu_init(void);
/* Bytes of an image (>= 512), and whether it is an XSAVE image (with a header at 512). */
uint32_t fpu_state_size(void);
bool fpu_uses_xsave(void);
/* The XCR0 in use (0 without XSAVE). */
uint64_t fpu_xfeatures(void);

/* An image, 64-byte aligned, zeroed; NULL when out of memory. */
void *fpu_state_alloc(void);
void fpu_state_free(void *img);

/* The CPU's user state into img / from img (img 64-byte aligned, kernel memory). */
void fpu_save(void *img);
void fpu_restore(void *img);
/* The CPU's state reset to the defaults of a new program (FNINIT, MXCSR 0x1f80). */
void fpu_init_state(void);

#endif
