/*
 * The only ways the kernel touches user memory: every user pointer is
 * checked (below USER_HALF_END, no wrap) and every access may fault without
 * harm (exception table fixup), so a bad pointer is -EFAULT, never a crash.
 */
#ifndef EL_UACCESS_H
#define EL_UACCESS_H

#include "kernel.h"

/* 0 or -EFAULT. */
int copy_to_user(uint64_t udst, const void *src, size_t n);
int copy_from_user(void *dst, uint64_t usrc, size_t n);
/* Copies a NUL-terminated string of at most max-1 chars: length, or -EFAULT / -ENAMETOOLONG. */
long strncpy_from_user(char *dst, uint64_t usrc, size_t max);

#endif
