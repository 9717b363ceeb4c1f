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
 * when vdso=off.  Also starts the process's CPU-time clocks
 * (time_process_start()).  [vdso] goes where usermap_special() chooses,
 * [vvar] at the fixed VVAR_PAGES pages right below it (entrylab/vvar.h).
 */
uint64_t vdso_map_process(void);

/*
 * Effective value (knobs.h) of the items vdso_init() set up: vsyscall,
 * vdso, vdso_tsc, vdso_clamp.  EL_CONFIG_UNSET for other items or before
 * vdso_init().
 */
uint8_t vdso_config(unsigned item);

/* The image processes get (vdso_image.h), NULL with vdso=off or before vdso_init(). */
struct vdso_image;
const struct vdso_image *vdso_image_mapped(void);

/* For /proc/self/maps: whether a [vsyscall] line exists, and its permissions ("r-xp"). */
bool vsyscall_mapped(void);
const char *vsyscall_maps_perms(void);

#endif
