/*
 * The FPU image (fpu.h).
 *
 * XSAVE when CR4.OSXSAVE is set (cpu_setup.c sets it where CPUID.1:ECX
 * offers XSAVE): XCR0 = el_xcr0_choose(CPUID.0xD.0 EDX:EAX)
 * (include/entrylab/xcr0.h: x87, SSE, AVX, the AVX-512 trio; no PKRU, no
 * AMX), the rule the VMM also applies to preset the vCPU's XCR0.  The image
 * size is read after XSETBV (not from the boot CPUID cache), from the
 * component leaves as well as CPUID.0xD.0 EBX (xsave_size).  Otherwise
 * FXSAVE.
 *
 * XCR0 must survive VM exits.  A KVM nested under QEMU before 8.2 (our
 * nested runner) never sees XSETBV, keeps its reset XCR0 of 1 and loads
 * that on every entry (docs/architecture.md, "XSAVE in the nested
 * runner"): the VMM presets the XCR0 we choose, and fpu_recheck still falls
 * back to FXSAVE (clearing CR4.OSXSAVE) if XCR0 changed after boot anyway.
 *
 * Images come from kzalloc (its size classes are powers of two, naturally
 * aligned, so 64-byte aligned) up to a page, from the frame allocator
 * beyond.  Every new image is a copy of the initial one, never zeroes: an
 * MXCSR of 0 would unmask every SIMD exception.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/x86.h"
#include "entrylab/xcr0.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"

#define LEAF_XSTATE 0xd
#define FCW_DEFAULT 0x37f
#define MXCSR_DEFAULT 0x1f80
#define MXCSR_MASK_DEFAULT 0xffbf /* what FXSAVE's zero MXCSR_MASK means (SDM 10.5.1.2) */

static struct {
	bool xsave;
	uint64_t xcr0;
	uint32_t size;       /* bytes of an image in the format in use */
	uint32_t alloc_size; /* bytes allocated per image: the boot-time size (fpu_recheck may shrink size) */
	uint32_t mxcsr_mask;
	void *init_image;
} fpu = {.size = FXSAVE_SIZE, .alloc_size = FXSAVE_SIZE};

/* A 64-byte aligned scratch for the boot-time FXSAVE that reads MXCSR_MASK. */
static uint8_t fxsave_probe[FXSAVE_SIZE] __aligned(64);

static int xsetbv_safe(uint32_t index, uint64_t value)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("xsetbv")
			     : "+S"(vec)
			     : "c"(index), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			     : "memory");
	return vec;
}

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/*
 * The standard-format size for xcr0: the end of its highest component
 * (CPUID.0xD.i: EAX size, EBX offset), and at least what CPUID.0xD.0 EBX
 * says.  KVM computes EBX from its own copy of XCR0: measured 576 for XCR0 7
 * (832 needed) where that copy is stale (nested runner without the VMM's
 * preset), so EBX alone is not trusted.
 */
static uint32_t xsave_size(uint64_t xcr0)
{
	uint32_t ebx = cpuid(LEAF_XSTATE, 0).ebx, size = FXSAVE_SIZE + XSAVE_HEADER_SIZE;
	unsigned i;

	for (i = 2; i < 64; i++) {
		struct cpuid_regs r;

		if (!(xcr0 & BIT(i)))
			continue;
		r = cpuid(LEAF_XSTATE, i);
		if (r.ebx + r.eax > size)
			size = r.ebx + r.eax;
	}
	if (ebx != size)
		kprintf("fpu: CPUID.0xD.0 EBX says %u bytes for XCR0 %lx, its components end "
			"at %u\n", ebx, xcr0, size);
	return ebx > size ? ebx : size;
}

static void xsave_setup(void)
{
	struct cpuid_regs r;
	uint64_t x;
	int vec;

	if (!(read_cr4() & CR4_OSXSAVE))
		return;
	if (cpuid(0, 0).eax < LEAF_XSTATE) {
		kprintf("fpu: CR4.OSXSAVE is set but CPUID has no leaf 0xd; using FXSAVE\n");
		return;
	}
	r = cpuid(LEAF_XSTATE, 0);
	x = el_xcr0_choose(r.eax | (uint64_t)r.edx << 32);
	if (!x) {
		kprintf("fpu: CPUID.0xD.0 offers no x87+SSE XSAVE state (%x:%x); using FXSAVE\n",
			r.edx, r.eax);
		return;
	}
	vec = xsetbv_safe(0, x);
	if (vec) {
		kprintf("fpu: XSETBV XCR0=%lx raised vector %d; using FXSAVE\n", x, vec);
		return;
	}
	/*
	 * Read it back: a hypervisor may take XSETBV and keep another XCR0,
	 * and XSAVE saves only what XCR0 enables: SSE state would be lost
	 * across switches.
	 */
	if (xgetbv0() != x) {
		kprintf("fpu: XSETBV XCR0=%lx reads back %lx; using FXSAVE\n", x, xgetbv0());
		return;
	}
	fpu.xsave = true;
	fpu.xcr0 = x;
	fpu.size = xsave_size(x);
}

static unsigned image_order(void)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < fpu.alloc_size)
		order++;
	return order;
}

static void *image_alloc(void)
{
	uint64_t pa;

	if (fpu.alloc_size <= PAGE_SIZE)
		return kzalloc(fpu.alloc_size);
	pa = frame_alloc_order(image_order());
	if (!pa)
		return 0;
	memset(phys_to_virt(pa), 0, PAGE_SIZE << image_order());
	return phys_to_virt(pa);
}

void fpu_state_free(void *img)
{
	if (!img)
		return;
	if (fpu.alloc_size <= PAGE_SIZE)
		kfree(img, fpu.alloc_size);
	else
		frame_free_order(virt_to_phys(img), image_order());
}

void fpu_init(void)
{
	uint8_t *init;
	uint32_t mask;

	xsave_setup();
	fpu.alloc_size = fpu.size;
	__asm__ __volatile__("fxsaveq %0" : "=m"(fxsave_probe));
	memcpy(&mask, fxsave_probe + FXSAVE_MXCSR_MASK_OFFSET, sizeof(mask));
	fpu.mxcsr_mask = mask ? mask : MXCSR_MASK_DEFAULT;
	/* The initial state: default FCW and MXCSR, every register and flag 0, XSTATE_BV 0. */
	init = image_alloc();
	if (!init)
		panic("fpu: no memory for the initial FPU image");
	init[0] = FCW_DEFAULT & 0xff;
	init[1] = FCW_DEFAULT >> 8;
	mask = MXCSR_DEFAULT;
	memcpy(init + FXSAVE_MXCSR_OFFSET, &mask, sizeof(mask));
	fpu.init_image = init;
	fpu_init_state();
	if (fpu.xsave)
		kprintf("fpu: XSAVE, XCR0 %lx, %u-byte images\n", fpu.xcr0, fpu.size);
	else
		kprintf("fpu: FXSAVE, %u-byte images\n", fpu.size);
}

uint32_t fpu_state_size(void)
{
	return fpu.size;
}

bool fpu_uses_xsave(void)
{
	return fpu.xsave;
}

uint64_t fpu_xfeatures(void)
{
	return fpu.xcr0;
}

uint64_t fpu_user_xfeatures(void)
{
	return fpu.xsave ? fpu.xcr0 : XFEATURE_X87 | XFEATURE_SSE;
}

uint32_t fpu_mxcsr_mask(void)
{
	return fpu.mxcsr_mask;
}

void *fpu_state_alloc(void)
{
	void *img = image_alloc();

	if (img && fpu.init_image)
		memcpy(img, fpu.init_image, fpu.size);
	return img;
}

void fpu_save(void *img)
{
	if (fpu.xsave)
		__asm__ __volatile__("xsave64 (%0)"
				     :
				     : "r"(img), "a"((uint32_t)fpu.xcr0),
				       "d"((uint32_t)(fpu.xcr0 >> 32))
				     : "memory");
	else
		__asm__ __volatile__("fxsaveq (%0)" : : "r"(img) : "memory");
}

/* The restore itself: 0 or the vector it raised (it then changed nothing). */
static int restore_insn(const void *img)
{
	int vec = 0;

	if (fpu.xsave)
		__asm__ __volatile__(ASM_SAFE("xrstor64 (%[i])")
				     : "+S"(vec)
				     : [i] "r"(img), "a"((uint32_t)fpu.xcr0),
				       "d"((uint32_t)(fpu.xcr0 >> 32))
				     : "memory");
	else
		__asm__ __volatile__(ASM_SAFE("fxrstorq (%[i])")
				     : "+S"(vec)
				     : [i] "r"(img)
				     : "memory");
	return vec;
}

void fpu_init_state(void)
{
	int vec = restore_insn(fpu.init_image);

	if (vec)
		panic("fpu: restoring the initial FPU image raised vector %d", vec);
}

int fpu_restore_safe(const void *img)
{
	int vec = restore_insn(img);

	if (vec)
		fpu_init_state();
	return vec;
}

void fpu_restore(const void *img)
{
	int vec = fpu_restore_safe(img);

	if (vec)
		kprintf("fpu: a saved FPU image raised vector %d on restore (MXCSR %x?): "
			"state reset to the initial one\n",
			vec, *(const uint32_t *)((const uint8_t *)img + FXSAVE_MXCSR_OFFSET));
}

int fpu_set_fxsave(void *img, const void *fx)
{
	uint32_t mxcsr;
	uint64_t bv;

	memcpy(&mxcsr, (const uint8_t *)fx + FXSAVE_MXCSR_OFFSET, sizeof(mxcsr));
	if (mxcsr & ~fpu.mxcsr_mask)
		return -1;
	memcpy(img, fx, FXSAVE_SIZE);
	if (fpu.xsave) {
		memcpy(&bv, (uint8_t *)img + XSAVE_HEADER_OFFSET, sizeof(bv));
		bv |= XFEATURE_X87 | XFEATURE_SSE;
		memcpy((uint8_t *)img + XSAVE_HEADER_OFFSET, &bv, sizeof(bv));
	}
	return 0;
}

void fpu_recheck(void)
{
	uint64_t now;

	if (!fpu.xsave || (now = xgetbv0()) == fpu.xcr0)
		return;
	/*
	 * XCR0 did not survive the VM exits since boot (a KVM nested under
	 * QEMU < 8.2 that was not given our XCR0 puts back 1): XSAVE would keep
	 * only what it now enables.  FXSAVE
	 * keeps x87 and SSE whatever XCR0 says; nothing has been saved yet.
	 */
	kprintf("fpu: XCR0 %lx reads %lx after VM exits (the hypervisor does not keep it); "
		"using FXSAVE and clearing CR4.OSXSAVE, so user mode sees no XSAVE either\n",
		fpu.xcr0, now);
	write_cr4(read_cr4() & ~CR4_OSXSAVE);
	fpu.xsave = false;
	fpu.size = FXSAVE_SIZE;
}
