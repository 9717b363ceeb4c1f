/* Guest images embedded into the entrylab binary at build time (cmake/embed.cmake). */
#ifndef EL_BLOBS_H
#define EL_BLOBS_H

extern const unsigned char entrylab_kernel[], entrylab_kernel_end[];
/* entrylab's /init for `--guest linux` (guest/linux/, include/entrylab/linux_init.h). */
extern const unsigned char entrylab_linux_init[], entrylab_linux_init_end[];

#endif
