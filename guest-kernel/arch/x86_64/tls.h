/*
 * The GDT's thread-local storage entries (tls.c): set_thread_area and
 * get_thread_area, and clone's CLONE_SETTLS for 32-bit code.
 */
#ifndef EL_ARCH_TLS_H
#define EL_ARCH_TLS_H

#include "kernel.h"

struct task;

/*
 * clone(CLONE_SETTLS) from 32-bit code (Linux's do_set_thread_area with
 * can_allocate 0): u_info is a struct user_desc naming entry 12-14; the
 * child (not running) gets the descriptor.  0, -EFAULT or -EINVAL.
 */
long tls_set_clone(struct task *child, uint64_t u_info);

#endif
