/*
 * stracee: a parent and a child for `strace -f` to follow
 * (tests/kvm/test_strace.c).  The child writes "stracee: child" and exits
 * 3; the parent waits for it, writes "stracee: parent" and exits 7 (1 if
 * the child's status was not exit 3).  Plain libc, like a user's program.
 */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		write(1, "stracee: child\n", 15);
		_exit(3);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	write(1, "stracee: parent\n", 16);
	return WIFEXITED(st) && WEXITSTATUS(st) == 3 ? 7 : 1;
}
