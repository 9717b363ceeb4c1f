/*
 * sigcheck: signals as Linux x86-64 has them (see sigcheck.h).
 *   sigcheck              every default group
 *   sigcheck GROUP...     only these (e.g. `sigcheck segv`)
 *   sigcheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <stdio.h>
#include <string.h>

#include "sigcheck.h"

static const struct el_group groups[] = {
	{"segv", "SIGSEGV from #PF, repaired in the handler", sc_segv},
	{"sync", "#GP, #UD, #DE, int3 and TF: si_code, si_addr, trapno", sc_sync},
	{"fpe", "#XM and #MF; the handler edits MXCSR and the x87 words", sc_fpe},
	{"actions", "raise/kill/tgkill, SA_RESETHAND, SA_NODEFER, sa_mask, uc_sigmask", sc_actions},
	{"mask", "sigprocmask, sigpending, sigsuspend", sc_mask},
	{"altstack", "sigaltstack, SA_ONSTACK, a fault with a wild RSP", sc_altstack},
	{"frame", "rt_sigframe layout and the handler's entry registers", sc_frame},
	{"fpu", "XMM/YMM/ZMM and MXCSR across a handler; the XSAVE frame", sc_fpu},
	{"restart", "SA_RESTART and EINTR, signals from a forked child", sc_restart},
	{"queue", "real-time signals queue; lowest number first (extra)", sc_queue},
};

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("sigcheck", groups, _IOLBF, argc, argv);
}
