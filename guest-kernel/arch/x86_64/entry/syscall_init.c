/*
 * SYSCALL/SYSRET set-up, as Linux's syscall_init():
 *   STAR    SYSCALL loads CS = KERNEL_CS (SS = KERNEL_DS); SYSRET loads
 *           CS = USER32_CS + 16 = USER_CS and SS = USER32_CS + 8 = USER_DS
 *   LSTAR   entry_SYSCALL_64 (entry_SYSCALL_64_pti with pti=on: after
 *           pti_configure());  CSTAR  entry_SYSCALL_compat (entry_compat.S:
 *           the i386 ABI; only AMD and Hygon take SYSCALL in compat mode)
 *   SFMASK  every flag a syscall must not run with: TF, IF, DF, AC, NT, RF,
 *           IOPL, ID and the arithmetic flags
 *   SYSENTER_CS/ESP/EIP = KERNEL_CS, the entry stack top, entry_SYSENTER_compat
 *           on the vendors whose SYSENTER works in long mode (Intel, Centaur,
 *           Zhaoxin: Linux's X86_FEATURE_SYSENTER32); elsewhere SYSENTER is
 *           #UD in long mode whatever the MSRs hold: they stay 0
 *   the vdso32 page's __kernel_vsyscall follows the same choice (vdso32_init())
 *   EFER.SCE on.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/entry/syscall_init.h"
#include "arch/x86_64/x86.h"
#include "mm/pti.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/percpu.h"
#include "lib/string.h"
#include "vdso/vdso32.h"

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

/* Which fast compat entry the vendor has in long mode (Linux: SYSENTER32, SYSCALL32). */
static int compat_fast_entry(void)
{
	const char *v = boot_cpu.vendor;

	if (!strcmp(v, "GenuineIntel") || !strcmp(v, "CentaurHauls") || !strcmp(v, "  Shanghai  "))
		return VDSO32_USE_SYSENTER;
	if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine"))
		return VDSO32_USE_SYSCALL;
	return VDSO32_USE_INT80;
}

void syscall_init(void)
{
	int fast = compat_fast_entry();
	bool sysenter = fast == VDSO32_USE_SYSENTER;

	wrmsr(MSR_STAR, (uint64_t)USER32_CS << 48 | (uint64_t)KERNEL_CS << 32);
	/* One SYSCALL entry per isolation mode (entry_syscall.S): no flag test on the way. */
	wrmsr(MSR_LSTAR, (uint64_t)(pti.on ? entry_SYSCALL_64_pti : entry_SYSCALL_64));
	wrmsr(MSR_CSTAR, (uint64_t)entry_SYSCALL_compat);
	wrmsr(MSR_SFMASK, SYSCALL_MASK);
	/* Best effort: a CPU without the MSRs has no SYSENTER to take. */
	wrmsr_safe(MSR_SYSENTER_CS, sysenter ? KERNEL_CS : 0);
	wrmsr_safe(MSR_SYSENTER_ESP, sysenter ? cpu0.entry_stack_top : 0);
	wrmsr_safe(MSR_SYSENTER_EIP, sysenter ? (uint64_t)entry_SYSENTER_compat : 0);
	vdso32_init(fast);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}
