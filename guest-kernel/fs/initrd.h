/*
 * The initrd (PVH module 0, newc cpio) unpacked into the file tree.
 */
#ifndef EL_FS_INITRD_H
#define EL_FS_INITRD_H

#include "kernel.h"

/* Adds the archive's entries below /; false if there is no initrd or it is unreadable. */
bool initrd_unpack(void);

#endif
