/*
 * mmap's flags word as Linux x86-64 has it (include/uapi/asm-generic/mman*.h
 * and arch/x86's MAP_32BIT): read by mmap (sys_mman.c) and by the i386
 * mmap2 and old_mmap (sys/syscall_table32.c).
 */
#ifndef EL_MM_MMAN_H
#define EL_MM_MMAN_H

#define MAP_SHARED 0x01u
#define MAP_PRIVATE 0x02u
#define MAP_SHARED_VALIDATE 0x03u
#define MAP_TYPE 0x0fu
#define MAP_FIXED 0x10u
#define MAP_ANONYMOUS 0x20u
#define MAP_32BIT 0x40u /* x86-64: below 2 GiB, for code that keeps 32-bit pointers */
#define MAP_HUGETLB 0x40000u
#define MAP_FIXED_NOREPLACE 0x100000u

#endif
