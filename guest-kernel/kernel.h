/*
 * Small language helpers every kernel file may use.
 */
#ifndef EL_KERNEL_H
#define EL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array_size.h"

/* common/array_size.h: a pointer given for an array fails to build */
#define ARRAY_SIZE(a) EL_ARRAY_SIZE(a)
#define BIT(n) (1ull << (n))
#define ALIGN_DOWN(x, a) ((x) & ~((uint64_t)(a) - 1))
#define ALIGN_UP(x, a) ALIGN_DOWN((x) + (uint64_t)(a) - 1, (a))

#define __noreturn __attribute__((noreturn))
#define __aligned(n) __attribute__((aligned(n)))
#define __section(s) __attribute__((section(s)))
#define __packed __attribute__((packed))
#define __printf(f, a) __attribute__((format(printf, f, a)))
#define __used __attribute__((used))

/* Zero-initialised data the entry path touches: mapped into user page tables under PTI. */
#define __entry_bss __section(".bss..entry")
#define __page_aligned_bss __section(".bss..page_aligned") __aligned(4096)

#define barrier() __asm__ __volatile__("" ::: "memory")

#endif
