/*
 * Mapping kernel-provided pages into the current process (vDSO, vvar),
 * as named regions that /proc/self/maps shows ("[vdso]", "[vvar]").
 */
#ifndef EL_USERMAP_H
#define EL_USERMAP_H

#include "kernel.h"

#define UMAP_READ 0x1u
#define UMAP_WRITE 0x2u
#define UMAP_EXEC 0x4u

/*
 * Maps npages physically contiguous pages starting at phys at user address
 * uaddr (page aligned; 0 = let the kernel choose below the stack).  Returns
 * the user address or -errno.  The pages stay owned by the caller.
 */
long usermap_special(uint64_t uaddr, uint64_t phys, size_t npages, unsigned prot,
		     const char *name);

#endif
