/*
 * The FPU image (fpu.h).  FXSAVE only for now; XSAVE comes with CR4.OSXSAVE.
 */
#include "arch/x86_64/fpu.h"
#include "mm/kmalloc.h"

#define FXSAVE_SIZE 512
#define MXCSR_DEFAULT 0x1f80

void fpu_init(void)
{
}

uint32_t fpu_state_size(void)
{
	return FXSAVE_SIZE;
}

bool fpu_uses_xsave(void)
{
	return false;
}

uint64_t fpu_xfeatures(void)
{
	return 0;
}

void *fpu_state_alloc(void)
{
	/* kzalloc's classes are powers of two, naturally aligned within a frame. */
	return kzalloc(FXSAVE_SIZE);
}

void fpu_state_free(void *img)
{
	kfree(img, FXSAVE_SIZE);
}

void fpu_save(void *img)
{
	__asm__ __volatile__("fxsaveq (%0)" : : "r"(img) : "memory");
}

void fpu_restore(void *img)
{
	__asm__ __volatile__("fxrstorq (%0)" : : "r"(img) : "memory");
}

void fpu_init_state(void)
{
	uint32_t mxcsr = MXCSR_DEFAULT;

	__asm__ __volatile__("fninit\n\tldmxcsr %0" : : "m"(mxcsr));
}
