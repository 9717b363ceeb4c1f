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

static const struct group {
	const char *name, *what;
	void (*run)(void);
} groups[] = {
	{"regs", "every register restored exactly, RCX != RIP and R11 != RFLAGS too", sr_regs},
	{"rip", "non-canonical and unrunnable RIPs end in SIGSEGV", sr_rip},
	{"tf", "TF from sigreturn traps after one instruction; self-set TF across SYSCALL", sr_tf},
	{"flags", "only the user-changeable RFLAGS bits come from the frame", sr_flags},
	{"seg", "CS/SS: RPL forced, bad selectors fault in IRET", sr_seg},
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < NGROUPS; i++)
			printf("%-6s %s\n", groups[i].name, groups[i].what);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0;

		while (i < NGROUPS && strcmp(argv[a], groups[i].name))
			i++;
		if (i == NGROUPS) {
			fprintf(stderr, "sigreturn_check: no group '%s' (sigreturn_check --list)\n",
				argv[a]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < NGROUPS; i++) {
		int run = argc == 1;

		for (int a = 1; a < argc; a++)
			run |= !strcmp(argv[a], groups[i].name);
		if (!run)
			continue;
		printf("sigreturn_check: %s: %s\n", groups[i].name, groups[i].what);
		groups[i].run();
	}
	return el_summary("sigreturn_check");
}
