/*
 * SYSCALL/SYSRET set-up, as Linux's syscall_init():
 *   STAR    SYSCALL loads CS = KERNEL_CS (SS = KERNEL_DS); SYSRET loads
 *           CS = USER32_CS + 16 = USER_CS and SS = USER32_CS + 8 = USER_DS
 *   LSTAR   entry_SYSCALL_64 (entry_SYSCALL_64_pti with pti=on: after
 *           pti_configure());  CSTAR  entry_SYSCALL_compat (-ENOSYS)
 *   SFMASK  every flag a syscall must not run with: TF, IF, DF, AC, NT, RF,
 *           IOPL, ID and the arithmetic flags
 *   SYSENTER_CS = 0: SYSENTER faults (there is no 32-bit ABI)
 *   EFER.SCE on.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/entry/syscall_init.h"
#include "arch/x86_64/x86.h"
#include "mm/pti.h"

#define MSR_CSTAR 0xc0000083
#define MSR_SYSENTER_CS 0x174
#define MSR_SYSENTER_ESP 0x175
#define MSR_SYSENTER_EIP 0x176

#define RFLAGS_ARITH 0x8d5ull /* CF PF AF ZF SF OF */
#define RFLAGS_IOPL 0x3000ull
#define RFLAGS_ID 0x200000ull
#define SYSCALL_MASK (RFLAGS_ARITH | RFLAGS_TF | RFLAGS_IF | RFLAGS_DF | RFLAGS_IOPL | \
		      RFLAGS_NT | RFLAGS_RF | RFLAGS_AC | RFLAGS_ID)
_Static_assert(SYSCALL_MASK == 0x257fd5, "SFMASK as Linux");

void syscall_init(void)
{
	wrmsr(MSR_STAR, (uint64_t)USER32_CS << 48 | (uint64_t)KERNEL_CS << 32);
	/* One SYSCALL entry per isolation mode (entry_syscall.S): no flag test on the way. */
	wrmsr(MSR_LSTAR, (uint64_t)(pti.on ? entry_SYSCALL_64_pti : entry_SYSCALL_64));
	wrmsr(MSR_CSTAR, (uint64_t)entry_SYSCALL_compat);
	wrmsr(MSR_SFMASK, SYSCALL_MASK);
	/* Some CPUs lack the SYSENTER MSRs in long mode: best effort. */
	wrmsr_safe(MSR_SYSENTER_CS, 0);
	wrmsr_safe(MSR_SYSENTER_ESP, 0);
	wrmsr_safe(MSR_SYSENTER_EIP, 0);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}
