/*
 * ptracecheck step: the tracer walks its child through a
 * SYSCALL one instruction at a time.  The child stops at pt_step_seq's INT3
 * (RIP = pt_step_0); then every PTRACE_SINGLESTEP is one SIGTRAP stop with
 * RIP at the next instruction: pt_step_1, then past the SYSCALL at
 * pt_step_2 with the syscall done (RAX = the child's pid, orig_rax = 39),
 * pt_step_3 (RDX = RAX), pt_step_4.  Linux keeps the TF it sets for the
 * tracer out of the registers the tracer reads and out of the child's
 * RFLAGS once it runs on: after PTRACE_CONT the child's PUSHFQ has TF clear.
 * Where PTRACE_GETSIGINFO works, the si_code of each stop is Linux's too:
 * TRAP_TRACE, except TRAP_BRKPT for the step that ran the SYSCALL.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "ptracecheck.h"

#define X86_TF 0x100ul

static int step_child(void)
{
	uint64_t flags;

	pt_step_seq();
	__asm__ volatile("pushfq\n\tpopq	%0" : "=r"(flags));
	return flags & X86_TF ? 1 : 0;
}

void pt_step(void)
{
	const char *const want[4] = {pt_step_1, pt_step_2, pt_step_3, pt_step_4};
	static const int want_code[4] = {TRAP_TRACE, TRAP_BRKPT, TRAP_TRACE, TRAP_TRACE};
	struct user_regs_struct r[4], at_int3;
	int codes[4], have_codes = 1, stops_ok = 1, rips_ok = 1, tf_seen = 0, st;
	pid_t pid = pt_child("step.child", step_child);

	if (pid < 0)
		return;
	st = pt_resume(pid, PTRACE_CONT, 0);
	memset(&at_int3, 0, sizeof(at_int3));
	ptrace(PTRACE_GETREGS, pid, NULL, &at_int3);
	if (!el_expect("step.int3_stop", WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
					 at_int3.rip == (uintptr_t)pt_step_0,
		       "status %#x RIP %#lx (want SIGTRAP stop at pt_step_0 %p)", st, at_int3.rip,
		       (const void *)pt_step_0)) {
		pt_abandon(pid);
		return;
	}
	for (int i = 0; i < 4; i++) {
		siginfo_t si;

		st = pt_resume(pid, PTRACE_SINGLESTEP, 0);
		stops_ok &= WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP;
		memset(&r[i], 0, sizeof(r[i]));
		ptrace(PTRACE_GETREGS, pid, NULL, &r[i]);
		rips_ok &= r[i].rip == (uintptr_t)want[i];
		tf_seen |= (r[i].eflags & X86_TF) != 0;
		memset(&si, 0, sizeof(si));
		if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si))
			have_codes = 0;
		codes[i] = si.si_code;
		if (!WIFSTOPPED(st))
			break;
	}
	el_expect("step.four_steps_four_stops", stops_ok, "a step did not end in a SIGTRAP stop");
	el_expect("step.rip_per_instruction_across_syscall", rips_ok,
		  "RIPs %#lx %#lx %#lx %#lx, want pt_step_1..4 %p %p %p %p", r[0].rip, r[1].rip,
		  r[2].rip, r[3].rip, (const void *)want[0], (const void *)want[1],
		  (const void *)want[2], (const void *)want[3]);
	el_expect("step.syscall_ran_in_its_step",
		  r[1].rax == (unsigned long)pid && r[1].orig_rax == 39 && r[2].rdx == (unsigned long)pid,
		  "after the SYSCALL step RAX %ld orig_rax %ld, then RDX %ld (child pid %d)",
		  (long)r[1].rax, (long)r[1].orig_rax, (long)r[2].rdx, pid);
	el_expect("step.tracer_tf_hidden", !tf_seen, "GETREGS showed TF while single-stepping");
	if (have_codes)
		el_expect("step.si_codes", !memcmp(codes, want_code, sizeof(codes)),
			  "si_code per stop %d %d %d %d, want %d %d %d %d", codes[0], codes[1],
			  codes[2], codes[3], want_code[0], want_code[1], want_code[2], want_code[3]);
	else
		el_skip("step.si_codes", "PTRACE_GETSIGINFO is not answered");
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("step.child_runs_on_without_tf", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (exit 1: the child's RFLAGS kept TF)", st);
	if (!WIFEXITED(st) && !WIFSIGNALED(st))
		pt_abandon(pid);
}
