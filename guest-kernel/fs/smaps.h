/*
 * What /proc/PID/smaps says about one area (smaps.c): the page counts from
 * its page tables and its VmFlags, for smaps_format().
 */
#ifndef EL_FS_SMAPS_H
#define EL_FS_SMAPS_H

#include "fs/smaps_format.h"
#include "mm/mm.h"

void smaps_count_area(struct mm *mm, const struct vma *v, struct smaps_counts *c);
/* [vsyscall] (not an area): its size and the flags of its permissions. */
void smaps_count_vsyscall(uint32_t maps_prot, struct smaps_counts *c);

#endif
