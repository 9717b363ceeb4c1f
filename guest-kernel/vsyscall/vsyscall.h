/*
 * The legacy vsyscall page at 0xffffffffff600000 (inside vdso/).
 */
#ifndef EL_VSYSCALL_H
#define EL_VSYSCALL_H

#include "kernel.h"

#define VSYSCALL_ADDR 0xffffffffff600000ull

/*
 * Sets up the page for the requested mode (knobs.h EL_VSYSCALL_*) and
 * returns the mode really in effect.  After paging_init(), before the first
 * address space is created from the kernel's top-level table.
 */
uint8_t vsyscall_init(uint8_t requested);

#endif
