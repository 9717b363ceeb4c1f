/*
 * user_regs_struct <-> trap frame (ptrace_regs.h).  The first fifteen
 * registers are in the same order in both; orig_rax is the frame's error
 * slot for a syscall frame and -1 for any other entry, as Linux's orig_ax.
 */
#include "ptrace_regs.h"
#include "../sys/errno.h"

static uint64_t *gpr(struct trap_frame *tf, unsigned idx)
{
	/* r15 .. rdi: trap_frame's first fifteen words, in user_regs order. */
	return &((uint64_t *)tf)[idx];
}

uint64_t ptrace_getreg(const struct trap_frame *tf, const struct thread_arch *a, unsigned idx,
		       bool forced_tf)
{
	switch (idx) {
	case UREG_ORIG_RAX:
		return tf_syscall_vector(tf) ? tf->error : ~0ull;
	case UREG_RIP:
		return tf->rip;
	case UREG_CS:
		return tf->cs & 0xffff;
	case UREG_EFLAGS:
		return forced_tf ? tf->rflags & ~PTRACE_RFLAGS_TF : tf->rflags;
	case UREG_RSP:
		return tf->rsp;
	case UREG_SS:
		return tf->ss & 0xffff;
	case UREG_FS_BASE:
		return a->fsbase;
	case UREG_GS_BASE:
		return a->gsbase;
	case UREG_DS:
		return a->ds;
	case UREG_ES:
		return a->es;
	case UREG_FS:
		return a->fsindex;
	case UREG_GS:
		return a->gsindex;
	default:
		return idx < UREG_ORIG_RAX ? *gpr((struct trap_frame *)tf, idx) : 0;
	}
}

/* A selector a tracer may load: null, or RPL 3 (Linux: "(value & 3) != 3" is EIO). */
static bool user_selector_ok(uint64_t v, bool may_be_null)
{
	if (v > 0xffff)
		return false;
	return (v & 3) == 3 || (may_be_null && v == 0);
}

int ptrace_putreg(struct trap_frame *tf, struct thread_arch *a, unsigned idx, uint64_t v,
		  bool *forced_tf)
{
	switch (idx) {
	case UREG_ORIG_RAX:
		tf->error = v;
		return 0;
	case UREG_RIP:
		tf->rip = v;
		return 0;
	case UREG_CS:
		if (!user_selector_ok(v, false))
			return -EIO;
		tf->cs = v;
		return 0;
	case UREG_SS:
		if (!user_selector_ok(v, false))
			return -EIO;
		tf->ss = v;
		return 0;
	case UREG_EFLAGS:
		/* A tracer that writes RFLAGS owns TF from then on. */
		if (*forced_tf && !(v & PTRACE_RFLAGS_TF))
			*forced_tf = false;
		tf->rflags = (tf->rflags & ~PTRACE_FLAG_MASK) | (v & PTRACE_FLAG_MASK);
		return 0;
	case UREG_RSP:
		tf->rsp = v;
		return 0;
	case UREG_FS_BASE:
	case UREG_GS_BASE:
		if (v >= PTRACE_TASK_SIZE_MAX)
			return -EIO;
		*(idx == UREG_FS_BASE ? &a->fsbase : &a->gsbase) = v;
		return 0;
	case UREG_DS:
	case UREG_ES:
	case UREG_FS:
	case UREG_GS:
		if (!user_selector_ok(v, true))
			return -EIO;
		*(idx == UREG_DS ? &a->ds : idx == UREG_ES ? &a->es : idx == UREG_FS ? &a->fsindex
									 : &a->gsindex) = (uint16_t)v;
		return 0;
	default:
		if (idx >= UREG_COUNT)
			return -EIO;
		*gpr(tf, idx) = v;
		return 0;
	}
}
