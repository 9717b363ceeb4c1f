/*
 * segv: touch memory the process may not touch.  Every mode must end the
 * process as SIGSEGV does: status 139 from a shell, and from the entrylab
 * kernel a console line with address, RIP and error code.  Surviving is a
 * failure (exit 1).
 */
#include <stdio.h>
#include <string.h>

#include "array_size.h"

static const struct mode {
	const char *name, *what;
	unsigned long addr;
} modes[] = {
	{ "read", "read the unmapped page at 0x10 (a null-pointer dereference)", 0x10 },
	{ "write", "write the unmapped page at 0x10", 0x10 },
	{ "exec", "jump to the unmapped address 0x1000", 0x1000 },
	{ "kernel", "read a kernel address (a user-mode #PF on a supervisor page)",
	  0xffffffff81000000ul },
	{ "noncanonical", "read a non-canonical address (#GP, not #PF)", 0x0000800000000000ul },
	{ "vsyscall", "read the vsyscall page (faults unless vsyscall=native or emulate)",
	  0xffffffffff600000ul },
};

int main(int argc, char **argv)
{
	const struct mode *m = &modes[0];
	unsigned i;

	if (argc > 2)
		goto usage;
	for (i = 0; argc == 2 && i < EL_ARRAY_SIZE(modes); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			break;
	if (argc == 2 && i == EL_ARRAY_SIZE(modes))
		goto usage;
	if (argc == 2)
		m = &modes[i];

	printf("segv: about to %s: the process must end with SIGSEGV (status 139)\n", m->what);
	fflush(stdout);
	if (strcmp(m->name, "write") == 0) {
		*(volatile unsigned long *)m->addr = 1;
	} else if (strcmp(m->name, "exec") == 0) {
		void (*volatile fn)(void) = (void (*)(void))m->addr;

		fn();
	} else {
		(void)*(volatile unsigned long *)m->addr;
	}
	printf("segv: FAIL: %s did not fault\n", m->name);
	return 1;

usage:
	fprintf(stderr,
		"usage: segv [read|write|exec|kernel|noncanonical|vsyscall]   (default read)\n");
	return 2;
}
