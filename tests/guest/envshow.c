/*
 * What a program was given, one line each (tests/kvm/test_files.c):
 * "envshow: argv[I]=ARG" for each argument, "envshow: env=VAR" for each
 * environment string, "envshow: envc=N"; exits 7 so that a caller can tell
 * this program's status from its own.
 */
#include <stdio.h>

extern char **environ;

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 0; i < argc; i++)
		printf("envshow: argv[%d]=%s\n", i, argv[i]);
	for (char **e = environ; *e; e++, n++)
		printf("envshow: env=%s\n", *e);
	printf("envshow: envc=%d\n", n);
	return 7;
}
