/*
 * arch_prctl(2) as Linux 6.1 x86-64 answers it (do_arch_prctl_64, then
 * do_arch_prctl_common; the option is an int, the high half of RDI is
 * ignored):
 *   ARCH_SET_FS/GS        base below TASK_SIZE_MAX (else -EPERM); the
 *                         selector becomes 0 (Linux: "ARCH_SET_GS has always
 *                         overwritten the index and the base");
 *   ARCH_GET_FS/GS        the base the thread has now (the MSR: user code
 *                         may have changed it with WRFSBASE or a selector);
 *   ARCH_GET_CPUID        1: CPUID does not fault;
 *   ARCH_SET_CPUID        -ENODEV: CPUID faulting is not used, as on a CPU
 *                         without it;
 *   ARCH_GET_XCOMP_SUPP,  the user xstate features (x87|SSE without XSAVE);
 *   ARCH_GET_XCOMP_(GUEST_)PERM  the same: every enabled state is static;
 *   ARCH_REQ_XCOMP_(GUEST_)PERM  -EINVAL beyond XFEATURE_MAX, else
 *                         -EOPNOTSUPP: only AMX tile data needs a request,
 *                         and AMX is not enabled;
 *   ARCH_MAP_VDSO_64      CONFIG_CHECKPOINT_RESTORE's answer when the vDSO is
 *                         already mapped, -EEXIST; without one (vdso=off)
 *                         -EINVAL, as a kernel without the option;
 *   ARCH_MAP_VDSO_32      the vdso32 page (vdso/vdso32.h) at the address
 *                         asked for; -EEXIST while a vDSO of either kind is
 *                         mapped (Linux's map_vdso_once(): unmap [vdso]
 *                         first), else its address;
 *   anything else         -EINVAL.
 * The running thread's fields (thread.h) follow every change.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segregs.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "vdso/vdso32.h"

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define ARCH_GET_CPUID 0x1011
#define ARCH_SET_CPUID 0x1012
#define ARCH_GET_XCOMP_SUPP 0x1021
#define ARCH_GET_XCOMP_PERM 0x1022
#define ARCH_REQ_XCOMP_PERM 0x1023
#define ARCH_GET_XCOMP_GUEST_PERM 0x1024
#define ARCH_REQ_XCOMP_GUEST_PERM 0x1025
#define ARCH_MAP_VDSO_32 0x2002
#define ARCH_MAP_VDSO_64 0x2003

#define XFEATURE_MAX 19 /* Linux 6.1: up to XTILE_DATA (18) */

static long set_fs(uint64_t base)
{
	struct task *t = current;

	if (base >= TASK_SIZE_MAX)
		return -EPERM;
	seg_load_fs(0);
	wrmsr(MSR_FS_BASE, base);
	t->arch.fsindex = 0;
	t->arch.fsbase = base;
	return 0;
}

/* In the kernel the user's GS base is the one SWAPGS put aside. */
static long set_gs(uint64_t base)
{
	struct task *t = current;

	if (base >= TASK_SIZE_MAX)
		return -EPERM;
	seg_load_user_gs(0);
	wrmsr(MSR_KERNEL_GS_BASE, base);
	t->arch.gsindex = 0;
	t->arch.gsbase = base;
	return 0;
}

static long put_u64(uint64_t uaddr, uint64_t v)
{
	return copy_to_user(uaddr, &v, sizeof(v));
}

SYSCALL_DEFINE2(arch_prctl, int, option, uint64_t, arg2)
{
	switch (option) {
	case ARCH_SET_FS:
		return set_fs(arg2);
	case ARCH_SET_GS:
		return set_gs(arg2);
	case ARCH_GET_FS:
		return put_u64(arg2, rdmsr(MSR_FS_BASE));
	case ARCH_GET_GS:
		return put_u64(arg2, rdmsr(MSR_KERNEL_GS_BASE));
	case ARCH_GET_CPUID:
		return 1;
	case ARCH_SET_CPUID:
		return -ENODEV;
	case ARCH_GET_XCOMP_SUPP:
	case ARCH_GET_XCOMP_PERM:
	case ARCH_GET_XCOMP_GUEST_PERM:
		return put_u64(arg2, fpu_user_xfeatures());
	case ARCH_REQ_XCOMP_PERM:
	case ARCH_REQ_XCOMP_GUEST_PERM:
		return arg2 >= XFEATURE_MAX ? -EINVAL : -EOPNOTSUPP;
	case ARCH_MAP_VDSO_64:
		return current->mm->vdso_base ? -EEXIST : -EINVAL;
	case ARCH_MAP_VDSO_32:
		if (current->mm->vdso_base)
			return -EEXIST;
		return vdso32_map(arg2);
	default:
		return -EINVAL;
	}
}
