/*
 * The vDSO images embedded in the kernel (vdso_images.S): one per variant,
 * TSC read (knobs.h EL_TSC_*) x cycle_last clamp (EL_CLAMP_*).
 */
#ifndef EL_VDSO_IMAGE_H
#define EL_VDSO_IMAGE_H

#include "entrylab/knobs.h"
#include "kernel.h"

#define VDSO_TSC_VARIANTS 4   /* lfence, lfence2, rdtscp, none */
#define VDSO_CLAMP_VARIANTS 2 /* branch, cmov */

struct vdso_image {
	const char *name; /* "lfence-branch"; symbols in build/guest-kernel/vdso/vdso-<name>.dbg */
	const uint8_t *start, *end; /* page aligned; end padded to a page boundary */
};

const struct vdso_image *vdso_image_get(unsigned tsc, unsigned clamp);

/* NULL when the image is a sound vDSO (ELF64 DSO, one R+X PT_LOAD, no relocations), else why. */
const char *vdso_image_check(const struct vdso_image *img);

#endif
