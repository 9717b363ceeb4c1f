/*
 * The vDSO (a real ELF shared object built from vdso/, embedded in the
 * kernel) with its vvar data page(s), and the legacy vsyscall page.
 */
#ifndef EL_VDSO_H
#define EL_VDSO_H

#include "kernel.h"

/* Once at boot, after time_init(): fills the vvar page, installs the vsyscall page per mode. */
void vdso_init(void);

/*
 * Maps [vvar] and [vdso] into the current process (called by exec after the
 * address space exists).  Returns the vDSO base for AT_SYSINFO_EHDR, or 0
 * when vdso=off.
 */
uint64_t vdso_map_process(void);

#endif
