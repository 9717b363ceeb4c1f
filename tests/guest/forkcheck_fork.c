/*
 * forkcheck fork: fork() and what the child gets.
 *   - exit statuses: _exit(42), exit(3) (exit_group), only the low 8 bits;
 *     killed by SIGTERM (self), SIGKILL (parent), SIGSEGV (fault), SIGABRT;
 *   - the child: fork returned 0, a new pid, getppid = the parent; its
 *     memory a copy (globals, heap, private mappings, written on both sides
 *     after the fork); TLS (errno) working; FS base, MXCSR, the signal mask
 *     and handlers inherited; pending signals not.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkcheck.h"

#define ARCH_GET_FS 0x1003

static pid_t parent_pid;
static volatile int global = 1;
static int *heap;
static int *private_map;
static uint64_t parent_fs;
static volatile int handler_ran;

static void exit_statuses(void)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0)
		_exit(42);
	st = fc_wait(pid);
	el_expect("fork.exit_status_42", pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
		  "fork %d, status %#x", pid, st);
	pid = fork();
	if (pid == 0)
		exit(3);
	st = fc_wait(pid);
	el_expect("fork.exit_group_status_3", WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %#x",
		  st);
	pid = fork();
	if (pid == 0)
		_exit(256 + 7);
	st = fc_wait(pid);
	el_expect("fork.exit_status_low_8_bits", WIFEXITED(st) && WEXITSTATUS(st) == 7,
		  "status %#x", st);
}

static void killed(void)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGTERM);
		_exit(0);
	}
	st = fc_wait(pid);
	el_expect("fork.killed_by_sigterm", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
		  "status %#x", st);

	pid = fork();
	if (pid == 0) {
		fc_nap_ms(10000);
		_exit(0);
	}
	fc_nap_ms(20);
	kill(pid, SIGKILL);
	st = fc_wait(pid);
	el_expect("fork.killed_by_parent_sigkill", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		  "status %#x", st);

	pid = fork();
	if (pid == 0) {
		int *volatile nowhere = (int *)16;

		*nowhere = 1;
		_exit(0);
	}
	st = fc_wait(pid);
	el_expect("fork.killed_by_sigsegv", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		  "status %#x", st);

	pid = fork();
	if (pid == 0)
		abort();
	st = fc_wait(pid);
	el_expect("fork.killed_by_abort", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
		  "status %#x", st);
}

static uint64_t fs_base(void)
{
	uint64_t v = 0;

	syscall(SYS_arch_prctl, ARCH_GET_FS, &v);
	return v;
}

static unsigned mxcsr(void)
{
	unsigned v;

	__asm__ volatile("stmxcsr	%0" : "=m"(v));
	return v;
}

static void on_usr1(int sig)
{
	(void)sig;
	handler_ran = 1;
}

/* The child's own checks: 0, or the number of the first that failed. */
static int child_view(void)
{
	sigset_t mask, pend;

	if (getpid() == parent_pid)
		return 10;
	if (getppid() != parent_pid)
		return 11;
	if (global != 1 || heap[0] != 0x1234 || private_map[0] != 0x5678)
		return 12;
	fc_nap_ms(50); /* the parent writes its copies meanwhile */
	if (global != 1 || heap[0] != 0x1234 || private_map[0] != 0x5678)
		return 13;
	global = 2;
	heap[0] = 2;
	private_map[0] = 2;
	errno = 0;
	if (close(-1) != -1 || errno != EBADF)
		return 14;
	if (fs_base() != parent_fs)
		return 15;
	if (mxcsr() != 0x7f80)
		return 16;
	sigprocmask(SIG_BLOCK, NULL, &mask);
	if (!sigismember(&mask, SIGUSR2))
		return 17;
	sigpending(&pend);
	if (sigismember(&pend, SIGUSR2))
		return 18;
	raise(SIGUSR1);
	if (!handler_ran)
		return 19;
	return 0;
}

static const char *const child_says[] = {
	[10] = "getpid() in the child is the parent's pid",
	[11] = "getppid() in the child is not the parent",
	[12] = "the child's memory differs from the parent's at fork",
	[13] = "the parent's writes after fork reached the child",
	[14] = "errno (TLS) broken in the child",
	[15] = "FS base differs in the child",
	[16] = "MXCSR not inherited",
	[17] = "the signal mask was not inherited",
	[18] = "a pending signal was inherited",
	[19] = "the SIGUSR1 handler was not inherited",
};

static void child_state(void)
{
	unsigned old_mx = mxcsr(), mx = 0x7f80;
	sigset_t usr2;
	pid_t pid;
	int st, code;

	parent_pid = getpid();
	heap = malloc(4096);
	private_map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	heap[0] = 0x1234;
	private_map[0] = 0x5678;
	parent_fs = fs_base();
	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	raise(SIGUSR2); /* pending in the parent only */
	__asm__ volatile("ldmxcsr	%0" : : "m"(mx));
	pid = fork();
	if (pid == 0)
		_exit(child_view());
	__asm__ volatile("ldmxcsr	%0" : : "m"(old_mx));
	global = 3;
	heap[0] = 3;
	private_map[0] = 3;
	st = fc_wait(pid);
	code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	el_expect("fork.child_view", code == 0, "child status %#x: %s", st,
		  code > 0 && code < 20 && child_says[code] ? child_says[code] : "did not exit");
	el_expect("fork.parent_memory_untouched_by_child",
		  global == 3 && heap[0] == 3 && private_map[0] == 3,
		  "parent sees global %d heap %d map %d (wrote 3 each)", global, heap[0],
		  private_map[0]);
	/* Take the pending SIGUSR2 off with SIG_IGN, then restore the mask and handlers. */
	signal(SIGUSR2, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &usr2, NULL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	munmap(private_map, 4096);
	free(heap);
}

void fc_fork(void)
{
	exit_statuses();
	killed();
	child_state();
}
