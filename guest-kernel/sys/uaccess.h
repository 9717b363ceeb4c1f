/*
 * The only ways the kernel touches user memory: every user pointer is
 * checked (below TASK_SIZE_MAX, no wrap) and every access may fault without
 * harm (exception table fixup), so a bad pointer is -EFAULT, never a crash.
 * Faults on valid but not yet populated user memory are resolved by demand
 * paging first, so these work on fresh mmap/brk/stack memory.
 */
#ifndef EL_UACCESS_H
#define EL_UACCESS_H

#include "kernel.h"

/* At boot after cpu_setup(): notes whether CR4.SMAP needs STAC/CLAC around user accesses. */
void uaccess_init(void);

/* 0 or -EFAULT. */
int copy_to_user(uint64_t udst, const void *src, size_t n);
int copy_from_user(void *dst, uint64_t usrc, size_t n);
/* Zero-fills user memory: 0 or -EFAULT. */
int clear_user(uint64_t udst, size_t n);
/* Copies a NUL-terminated string of at most max-1 chars: length, or -EFAULT / -ENAMETOOLONG. */
long strncpy_from_user(char *dst, uint64_t usrc, size_t max);

#endif
