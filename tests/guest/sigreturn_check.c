/*
 * sigreturn_check: rt_sigreturn's edge cases as Linux x86-64 has them (see
 * sigreturn_check.h).
 *   sigreturn_check              every group
 *   sigreturn_check GROUP...     only these
 *   sigreturn_check --list       the groups
 * Exit 0 only when no check failed.
 */
#include <stdio.h>
#include <string.h>

#include "sigreturn_check.h"

static const struct el_group groups[] = {
	{"regs", "every register restored exactly, RCX != RIP and R11 != RFLAGS too", sr_regs},
	{"rip", "non-canonical and unrunnable RIPs end in SIGSEGV", sr_rip},
	{"tf", "TF from sigreturn traps after one instruction; self-set TF across SYSCALL", sr_tf},
	{"flags", "only the user-changeable RFLAGS bits come from the frame", sr_flags},
	{"seg", "CS/SS: RPL forced, bad selectors fault in IRET", sr_seg},
};

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("sigreturn_check", groups, _IOLBF, argc, argv);
}
