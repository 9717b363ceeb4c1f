/*
 * Small kernel objects (file-system nodes, names, open files): power-of-two
 * size classes from 32 bytes to a page, carved from frames.  The caller
 * passes the size again to kfree (no per-object header).
 */
#ifndef EL_MM_KMALLOC_H
#define EL_MM_KMALLOC_H

#include "kernel.h"

/* Zeroed memory of at least size bytes (size <= PAGE_SIZE), or NULL. */
void *kzalloc(size_t size);
void kfree(void *p, size_t size);

#endif
