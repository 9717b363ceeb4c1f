/*
 * The vdso32 page: entrylab's own one-page stand-in for Linux's 32-bit vDSO,
 * with what the compat fast entries need (arch/x86_64/entry/entry_compat.S):
 *   __kernel_vsyscall   (offset VDSO32_VSYSCALL) the i386 system call as
 *                       Linux's: push ECX, EDX, EBP; then SYSENTER (EBP =
 *                       ESP) on Intel, SYSCALL (EBP = ECX) on AMD, chosen
 *                       at boot as Linux's alternatives do; int $0x80
 *                       where neither applies;
 *   int80_landing_pad   (offset VDSO32_LANDING_PAD) right after that
 *                       int $0x80: pop EBP, EDX, ECX, RET.  Every compat
 *                       SYSCALL and SYSENTER returns here, whoever issued
 *                       it (Linux: regs->ip = landing pad), and a restarted
 *                       call goes back 2 bytes to the int $0x80.
 * It is not an ELF image (no AT_SYSINFO_EHDR for it): processes find
 * __kernel_vsyscall through AT_SYSINFO (the ELF32 loader) or know it.
 * Mapped by vdso32_map(): for 64-bit processes through arch_prctl(
 * ARCH_MAP_VDSO_32), as on Linux; mm->vdso32_base says where (0: none; the
 * fast entries then return to address 0 + the pad, a SIGSEGV).
 */
#ifndef EL_VDSO32_H
#define EL_VDSO32_H

#define VDSO32_VSYSCALL 0
#define VDSO32_SEQ 3          /* the 4-byte sequence patched at boot */
#define VDSO32_INT80 7
#define VDSO32_LANDING_PAD 9  /* after `int $0x80` (cd 80) */

#ifndef __ASSEMBLER__
#include "kernel.h"

struct mm;

/* At boot (syscall_init.c): the entry __kernel_vsyscall takes on this CPU. */
#define VDSO32_USE_INT80 0
#define VDSO32_USE_SYSENTER 1
#define VDSO32_USE_SYSCALL 2
void vdso32_init(int use);

/*
 * Maps the page at addr (0: the kernel's choice) into current's mm: its size
 * (Linux's prctl_map_vdso() answers the image's size) or -errno.
 */
long vdso32_map(uint64_t addr);
#endif

#endif
