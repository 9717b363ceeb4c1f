/*
 * execve of files packed with --file (tests/kvm/test_files.c), as Linux
 * does it:
 *   execcheck PROGRAM NOEXEC
 * execve(NOEXEC), a file without an execute bit, must fail with EACCES, a
 * missing path with ENOENT; then PROGRAM replaces this one with the argv
 * {"envshow", "one", "two words"} and the envp {"EL_A=1", "EL_B=two words"},
 * which envshow prints.  The exit status is then PROGRAM's; 1 if anything
 * here failed (the reason on stderr).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int expect_errno(const char *path, int want)
{
	char *const argv[] = {(char *)path, NULL};
	char *const envp[] = {NULL};

	errno = 0;
	execve(path, argv, envp);
	if (errno == want)
		return 0;
	fprintf(stderr, "execcheck: FAIL execve(%s): %s, want %s\n", path, strerror(errno),
		strerror(want));
	return -1;
}

int main(int argc, char **argv)
{
	char *const child_argv[] = {"envshow", "one", "two words", NULL};
	char *const child_envp[] = {"EL_A=1", "EL_B=two words", NULL};

	if (argc != 3) {
		fprintf(stderr, "usage: execcheck PROGRAM NOEXEC\n");
		return 2;
	}
	if (expect_errno(argv[2], EACCES) || expect_errno("/no/such/program", ENOENT))
		return 1;
	printf("execcheck: exec %s\n", argv[1]);
	fflush(stdout);
	execve(argv[1], child_argv, child_envp);
	fprintf(stderr, "execcheck: FAIL execve(%s): %s\n", argv[1], strerror(errno));
	return 1;
}
