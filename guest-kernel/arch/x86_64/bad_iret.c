/*
 * Faults of the IRET to user mode (Linux's fixup_bad_iret).
 *
 * IRET checks the frame it loads before it leaves ring 0: a CS or SS that
 * names no usable descriptor (a sigreturn to a bogus selector, an LDT entry
 * cleared under a thread that had it loaded) raises #GP, #NP or #SS, and a
 * non-canonical RIP raises #GP.  Such a RIP reaches a frame only through
 * rt_sigreturn, ptrace or a signal handler's address, and only IRET returns
 * to it (SYSRET never sees one: "User RIPs and the two ways back" in
 * entry/entry.S).  The fault is taken in kernel mode, on whatever stack the
 * IRET ran on (the task stack's frame page, or the entry stack of the
 * trampoline), with every register already the user's, the user GS base
 * and, under PTI, the user CR3.  entry.S (trap_kernel, where every entry
 * from kernel mode goes) recognises the five IRET-to-user instructions
 * (exit_fast's, exit_fast_pti's, exit_to_user's, exit_to_user_pti's, the
 * trampoline's), restores the kernel GS, saves the registers where the
 * fault left RSP (a user-mapped page, so before the CR3 switch), switches
 * CR3 and calls bad_iret_frame() on the C stack below the frame page; the
 * result is the
 * user trap frame the fault is then dispatched with, as if the user
 * context had raised it right after the IRET: trap_dispatch() sees a user
 * #GP/#NP/#SS with the error code the IRET produced, which becomes
 * SIGSEGV or SIGBUS as any user fault of that vector does.
 * The sixth IRET to user mode, espfix_iret's (espfix.h), never gets
 * there: its stack is read-only, so its fault becomes a #DF, which
 * trap_dispatch() hands to espfix_df_fixup() below.
 */
#include "arch/x86_64/cpu_fault.h"
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/traps.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "proc/process.h"

/* The hardware frame IRET pops: RIP, CS, RFLAGS, RSP, SS. */
#define IRET_FRAME_WORDS 5
_Static_assert(offsetof(struct trap_frame, ss) - offsetof(struct trap_frame, rip) ==
		       (IRET_FRAME_WORDS - 1) * 8,
	       "the trap frame ends with the IRET frame");

/*
 * kf: the kernel-mode frame of the fault at the IRET.  Its registers are
 * the user's, its RSP the IRET frame the CPU refused.  Returns the user
 * frame at the top of the task stack (where the IRET frame came from on the
 * direct paths: kf may overlap it, so everything is read before it is
 * written).
 */
struct trap_frame *bad_iret_frame(const struct trap_frame *kf)
{
	struct trap_frame *uf = task_user_frame(current), tmp;

	memcpy(&tmp, kf, offsetof(struct trap_frame, rip));
	memcpy(&tmp.rip, (const void *)kf->rsp, IRET_FRAME_WORDS * 8);
	if (!trap_from_user(&tmp))
		panic("IRET to CS %lx (not user mode) faulted: %s, error %lx", tmp.cs,
		      trap_mnemonic((unsigned)kf->vector), kf->error);
	*uf = tmp;
	return uf;
}

/*
 * The espfix IRET (entry/espfix.S) runs on a read-only alias (espfix.h), so
 * its fault arrives as a #DF at that IRET with RSP at the alias of the
 * frame; every register is the user's, and so are GS and, under PTI, CR3
 * (the paranoid entry switched them and restores them).  The frame is read
 * back through espfix_page, which is always mapped, and written at the top
 * of the task stack with error 0 (the fault's own vector and error code are
 * lost, as on Linux); the #DF then returns to the #GP stub with RSP at that
 * frame's error slot, the state of a #GP taken in user mode, so the stub
 * takes the user path and the fault becomes the user's SIGSEGV.
 */
bool espfix_df_fixup(struct trap_frame *tf)
{
	struct trap_frame *uf, tmp;

	if (tf->rip != (uint64_t)espfix_iret_insn || (tf->cs & 3) ||
	    tf->rsp - ESPFIX_BASE >= ESPFIX_WINDOW ||
	    (tf->rsp & (ESPFIX_ALIAS_STRIDE - 1)) != ESPFIX_FRAME_OFF)
		return false;
	memcpy(&tmp.rip, (const char *)espfix_page + ESPFIX_FRAME_OFF, ESPFIX_FRAME_SIZE);
	if (!trap_from_user(&tmp))
		return false;
	uf = task_user_frame(current);
	memcpy(&uf->rip, &tmp.rip, ESPFIX_FRAME_SIZE);
	uf->error = 0;
	tf->rip = trap_stubs[13];
	tf->rsp = (uint64_t)&uf->error;
	return true;
}
