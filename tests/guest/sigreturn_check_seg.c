/*
 * sigreturn_check seg: CS and SS from the frame, as Linux treats them.
 * rt_sigreturn forces RPL 3 onto both and otherwise lets the IRET judge:
 * an IRET that faults on a bad selector becomes the program's SIGSEGV
 * (SI_KERNEL, trapno 13, err = the selector's index bits), at the RIP the
 * frame asked for.  UC_STRICT_RESTORE_SS clear in uc_flags lets the kernel
 * replace an unusable SS with the user data segment instead (old DOSEMU/CRIU
 * compatibility, force_valid_ss()).
 */
#include "sigreturn_check.h"

#define UC_STRICT_RESTORE_SS 0x4ul

static uint16_t user_cs, user_ss, new_cs, new_ss;
static int lax_ss;

static void edit_seg(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;

	sr_set_cs(g, new_cs);
	sr_set_ss(g, new_ss);
	if (lax_ss)
		uc->uc_flags &= ~UC_STRICT_RESTORE_SS;
}

static void live(uint16_t *cs, uint16_t *ss)
{
	__asm__ volatile("movw	%%cs, %0\n\tmovw	%%ss, %1" : "=r"(*cs), "=r"(*ss));
}

/* The selectors are accepted: no fault, and the live ones are the normal user selectors. */
static void accepted(const char *name, uint16_t cs, uint16_t ss, int lax)
{
	uint16_t cs_after, ss_after;

	new_cs = cs;
	new_ss = ss;
	lax_ss = lax;
	sr_run(edit_seg);
	live(&cs_after, &ss_after);
	el_expect(name, sr_fault.count == 0 && cs_after == user_cs && ss_after == user_ss,
		  "frame CS %#x SS %#x%s: %d faults (signal %d err %#llx), live CS %#x SS %#x after",
		  cs, ss, lax ? " (not strict)" : "", sr_fault.count, sr_fault.signo,
		  (unsigned long long)sr_fault.gregs[REG_ERR], cs_after, ss_after);
}

/* The IRET faults: SIGSEGV with #GP(err) at the frame's RIP. */
static void refused(const char *name, uint16_t cs, uint16_t ss, long err)
{
	new_cs = cs;
	new_ss = ss;
	lax_ss = 0;
	sr_run(edit_seg);
	el_expect(name,
		  sr_fault.count == 1 && sr_fault.signo == SIGSEGV &&
			  sr_fault.si.si_code == SR_SI_KERNEL && sr_fault.gregs[REG_TRAPNO] == 13 &&
			  sr_fault.gregs[REG_ERR] == err &&
			  (uintptr_t)sr_fault.gregs[REG_RIP] == (uintptr_t)sr_after_syscall,
		  "frame CS %#x SS %#x: %d faults, signal %d si_code %#x trapno %lld err %#llx "
		  "(want %#lx) RIP %#llx (want %p)",
		  cs, ss, sr_fault.count, sr_fault.signo, (unsigned)sr_fault.si.si_code,
		  (long long)sr_fault.gregs[REG_TRAPNO], (unsigned long long)sr_fault.gregs[REG_ERR],
		  err, (unsigned long long)sr_fault.gregs[REG_RIP], (const void *)sr_after_syscall);
}

void sr_seg(void)
{
	live(&user_cs, &user_ss);
	accepted("seg.unchanged", user_cs, user_ss, 0);
	accepted("seg.rpl_forced_to_3", user_cs & ~3, user_ss & ~3, 0);
	refused("seg.cs_data_segment_gp", user_ss, user_ss, user_ss & ~3);
	refused("seg.cs_null_gp", 0, user_ss, 0);
	refused("seg.cs_beyond_gdt_gp", 0xfff8, user_ss, 0xfff8);
	refused("seg.ss_code_segment_gp", user_cs, user_cs, user_cs & ~3);
	refused("seg.ss_null_strict_gp", user_cs, 0, 0);
	accepted("seg.ss_null_not_strict_fixed_up", user_cs, 0, 1);
	accepted("seg.ss_code_not_strict_fixed_up", user_cs, user_cs, 1);
}
