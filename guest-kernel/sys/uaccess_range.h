/*
 * The user-pointer range rule, alone so the host unit tests can check it:
 * [addr, addr + n) must lie below TASK_SIZE_MAX without wrapping.  The top
 * user page stays unmapped as on Linux (so SYSRET never returns to a
 * non-canonical RIP after the last instruction of the user half).
 */
#ifndef EL_SYS_UACCESS_RANGE_H
#define EL_SYS_UACCESS_RANGE_H

#include <stddef.h>
#include <stdint.h>

#define TASK_SIZE_MAX 0x00007ffffffff000ull

static inline int user_range_ok(uint64_t addr, uint64_t n)
{
	return n <= TASK_SIZE_MAX && addr <= TASK_SIZE_MAX - n;
}

#endif
