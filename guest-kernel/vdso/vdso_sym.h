/*
 * Finding a dynamic symbol in a vDSO image (an ELF64 shared object linked
 * at 0, as the kernel embeds it), as pure code (<stdint.h> only): the
 * kernel looks up the SYSRET trampoline at boot, the host unit tests run
 * the same lookup on the built images.
 */
#ifndef EL_VDSO_SYM_H
#define EL_VDSO_SYM_H

#include <stdint.h>

/*
 * The value (an offset into the image) of the defined function or object
 * symbol `name` in the image's .dynsym, through DT_HASH; 0 when it is
 * absent or the image is malformed (every offset is checked against size).
 */
uint64_t vdso_sym_find(const uint8_t *img, uint64_t size, const char *name);

#endif
