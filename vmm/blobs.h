/* Guest images embedded into the entrylab binary at build time (cmake/embed.cmake). */
#ifndef EL_BLOBS_H
#define EL_BLOBS_H

extern const unsigned char entrylab_kernel[], entrylab_kernel_end[];

#endif
