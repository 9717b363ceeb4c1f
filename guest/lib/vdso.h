/*
 * Find a vDSO symbol ourselves, so a benchmark can call the exact entry
 * point it measures (musl routes time() and gettimeofday() through
 * __vdso_clock_gettime, never through __vdso_time or __vdso_gettimeofday).
 */
#ifndef EL_GUEST_VDSO_H
#define EL_GUEST_VDSO_H

#include <stdint.h>

/* Base of the vDSO image (AT_SYSINFO_EHDR), 0 when the kernel maps none. */
uintptr_t el_vdso_base(void);

/*
 * Address of the defined dynamic symbol `name` in the vDSO, or NULL when
 * there is no vDSO, it does not export the name, or its ELF is malformed.
 * Looks the name up through DT_HASH or, without it, DT_GNU_HASH's extent.
 */
void *el_vdso_sym(const char *name);

#endif
