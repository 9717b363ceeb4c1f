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

static const struct group {
	const char *name, *what;
	void (*run)(void);
	int by_default;
} groups[] = {
	{"segv", "SIGSEGV from #PF, repaired in the handler", sc_segv, 1},
	{"sync", "#GP, #UD, #DE, int3 and TF: si_code, si_addr, trapno", sc_sync, 1},
	{"fpe", "#XM and #MF; the handler edits MXCSR and the x87 words", sc_fpe, 1},
	{"actions", "raise/kill/tgkill, SA_RESETHAND, SA_NODEFER, sa_mask, uc_sigmask", sc_actions, 1},
	{"mask", "sigprocmask, sigpending, sigsuspend", sc_mask, 1},
	{"altstack", "sigaltstack, SA_ONSTACK, a fault with a wild RSP", sc_altstack, 1},
	{"frame", "rt_sigframe layout and the handler's entry registers", sc_frame, 1},
	{"fpu", "XMM/YMM/ZMM and MXCSR across a handler; the XSAVE frame", sc_fpu, 1},
	{"restart", "SA_RESTART and EINTR, signals from a forked child", sc_restart, 1},
	{"queue", "real-time signals queue; lowest number first (extra)", sc_queue, 0},
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NGROUPS; i++)
			printf("%-9s %s%s\n", groups[i].name, groups[i].what,
			       groups[i].by_default ? "" : " [not run by default]");
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0;

		while (i < NGROUPS && strcmp(argv[a], groups[i].name))
			i++;
		if (i == NGROUPS) {
			fprintf(stderr, "sigcheck: no group '%s' (sigcheck --list)\n", argv[a]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < NGROUPS; i++) {
		int run = argc == 1 ? groups[i].by_default : 0;

		for (int a = 1; a < argc; a++)
			run |= !strcmp(argv[a], groups[i].name);
		if (!run)
			continue;
		printf("sigcheck: %s: %s\n", groups[i].name, groups[i].what);
		groups[i].run();
	}
	return el_summary("sigcheck");
}
