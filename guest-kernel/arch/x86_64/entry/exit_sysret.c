/*
 * SYSRET after exceptions and interrupts (exit_sysret.h).  A frame qualifies
 * when SYSRET plus the vDSO trampoline (vdso/vsysret.h) restore exactly what
 * IRET would:
 *   CS, SS     USER_CS and USER_DS: SYSRET loads those, nothing else;
 *   TF clear   SYSRET would restore it and trap after the trampoline's first
 *              instruction, not after the interrupted one;
 *   IF set     user mode always runs with IF=1 here (iopl(2) is emulated
 *              through the I/O bitmap, as Linux does: CLI/STI still fault):
 *              a clear IF is a frame we do not understand;
 *   RF         SYSRET cannot restore it (RFLAGS = R11 & 0x3c7fd7 | 2).  CPUs
 *              push RF=1 for every fault-class exception (KVM's event
 *              injection does the same; QEMU TCG does not), so requiring it
 *              clear would rule out page faults on hardware.  RF only
 *              suppresses an instruction breakpoint on the resumed
 *              instruction, and this kernel never arms one (DR7 is never
 *              written: ptrace accepts only zeroes for it): it is dropped without a trace,
 *              and counted (exit_sysret_print_stats);
 *   RIP        below TASK_SIZE_MAX (so canonical): the trampoline's RET must
 *              fault, if at all, where IRET would have;
 *   RSP        8-byte aligned (CR0.AM is clear, but the pops should not depend
 *              on it) and room for the 24 bytes below the red zone;
 *   the vDSO   mapped (vdso=on): the trampoline lives there;
 *   the stack  writable: the three stores are fault-safe (exception table);
 *              a fault falls back to IRET with nothing but the scratch below
 *              the red zone touched, which the ABI gives no guarantee for.
 * RCX, R11 and RIP come back through the stack; RSP through RET's immediate;
 * every other register and flag SYSRET and the trampoline leave alone.  The
 * price (Lutomirski's own caveat about his 2014 patch): user code that keeps
 * data more than 128 bytes below RSP, which the ABI allows nobody but which
 * only signal delivery would break otherwise, sees it overwritten.
 * AMD keeps SS's hidden attributes across SYSRET (Linux's
 * X86_BUG_SYSRET_SS_ATTRS): after an interrupt from user mode SS holds the
 * null selector, so SS is reloaded with KERNEL_DS first there, or 32-bit
 * code could find an unusable SS.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/uaccess_range.h"
#include "vdso/vdso.h"
#include "vdso/vdso_image.h"
#include "vdso/vdso_sym.h"
#include "vdso/vsysret.h"

enum { R_TAKEN, R_NO_VDSO, R_SEGMENTS, R_FLAGS, R_RIP, R_STACK, R_FAULT, R_COUNT };

static const char *const reason_names[R_COUNT] = {
	[R_TAKEN] = "sysret", [R_NO_VDSO] = "no-vdso", [R_SEGMENTS] = "segments",
	[R_FLAGS] = "flags", [R_RIP] = "rip", [R_STACK] = "stack", [R_FAULT] = "fault",
};

static struct {
	uint64_t tramp_offset; /* in the vDSO image, 0: none */
	bool smap;             /* STAC/CLAC around the user stores */
	bool reload_ss;        /* AMD: SYSRET keeps SS's hidden attributes */
	uint64_t count[R_COUNT];
	uint64_t rf_dropped;   /* frames taken with RF set */
} xs;

bool exit_sysret_init(void)
{
	const struct vdso_image *img = vdso_image_mapped();

	xs.smap = (read_cr4() & CR4_SMAP) != 0;
	xs.reload_ss = !strcmp(boot_cpu.vendor, "AuthenticAMD") ||
		       !strcmp(boot_cpu.vendor, "HygonGenuine");
	xs.tramp_offset = img ? vdso_sym_find(img->start, (uint64_t)(img->end - img->start),
					      VSYSRET_SYMBOL) : 0;
	return xs.tramp_offset != 0;
}

/* The three words, each store fault-safe; 0 or the vector of a fault. */
_Static_assert(VSYSRET_FRAME == 3 * 8, "put_user_frame() stores RCX, R11, RIP (vsysret.h)");
static int put_user_frame(uint64_t dst, uint64_t rcx, uint64_t r11, uint64_t rip)
{
	int vec = 0;

	if (xs.smap)
		__asm__ __volatile__("stac" ::: "memory");
	__asm__ __volatile__(ASM_SAFE("movq %[a], (%[d])") ASM_SAFE("movq %[b], 8(%[d])")
			     ASM_SAFE("movq %[c], 16(%[d])")
			     : "+S"(vec)
			     : [d] "r"(dst), [a] "r"(rcx), [b] "r"(r11), [c] "r"(rip)
			     : "memory");
	if (xs.smap)
		__asm__ __volatile__("clac" ::: "memory");
	return vec;
}

static int refuse(unsigned reason)
{
	xs.count[reason]++;
	return 0;
}

int exit_sysret_prepare(struct trap_frame *tf)
{
	uint64_t f = tf->rflags, sp = tf->rsp, nsp = sp - VSYSRET_REDZONE - VSYSRET_FRAME;
	uint64_t vdso = current ? current->mm->vdso_base : 0;

	if (!vdso)
		return refuse(R_NO_VDSO);
	if (tf->cs != USER_CS || tf->ss != USER_DS)
		return refuse(R_SEGMENTS);
	if ((f & RFLAGS_TF) || !(f & RFLAGS_IF))
		return refuse(R_FLAGS);
	if (tf->rip >= TASK_SIZE_MAX)
		return refuse(R_RIP);
	if ((sp & 7) || sp < VSYSRET_REDZONE + VSYSRET_FRAME || !user_range_ok(nsp, VSYSRET_FRAME))
		return refuse(R_STACK);
	if (put_user_frame(nsp, tf->rcx, tf->r11, tf->rip))
		return refuse(R_FAULT);
	xs.rf_dropped += (f & RFLAGS_RF) != 0;
	tf->rcx = vdso + xs.tramp_offset;
	tf->r11 = f;
	tf->rsp = nsp;
	if (xs.reload_ss)
		__asm__ __volatile__("movl %0, %%ss" : : "r"((uint32_t)KERNEL_DS));
	xs.count[R_TAKEN]++;
	return 1;
}

void exit_sysret_print_stats(void)
{
	unsigned i;

	kprintf("entry.ret=sysret: returns from exceptions and interrupts:");
	for (i = 0; i < R_COUNT; i++)
		kprintf(" %s %lu", reason_names[i], xs.count[i]);
	kprintf(" (RF dropped %lu)\n", xs.rf_dropped);
}
