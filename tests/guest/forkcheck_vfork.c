/*
 * forkcheck vfork and orphan.
 *   vfork: the child runs in the parent's memory while the parent waits:
 *   it sleeps 50 ms, then writes a shared variable and _exits; the parent,
 *   on its return from vfork, must already see the write, and wait for the
 *   status.  The child uses raw system calls only (no calls into libc on
 *   the shared stack).
 *   orphan (extra): a child forks a grandchild and exits; the grandchild must
 *   be reparented to init -- this program itself when it runs as /init (pid
 *   1), else to us as a child subreaper -- and we reap it.
 */
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forkcheck.h"
#include "lib/sys.h"

static volatile int shared;

static void vfork_shares(void)
{
	static const struct timespec nap = {.tv_nsec = 50000000};
	pid_t parent = getpid(), pid;
	int st;

	shared = 0;
	pid = vfork();
	if (pid == 0) {
		long me = el_syscall1(SYS_getpid, 0), pp = el_syscall1(SYS_getppid, 0);

		el_syscall2(SYS_nanosleep, (long)&nap, 0);
		shared = me != parent && pp == parent ? 2 : 3;
		el_syscall1(SYS_exit_group, 0x33);
	}
	el_expect("vfork.parent_waited_and_shares_memory", pid > 0 && shared == 2,
		  "vfork %d; the child's write %s when vfork returned in the parent", pid,
		  shared == 2 ? "was there" : shared == 3 ? "says pid/ppid were wrong" : "was not there");
	st = fc_wait(pid);
	el_expect("vfork.exit_status", WIFEXITED(st) && WEXITSTATUS(st) == 0x33, "status %#x", st);
}

void fc_vfork(void)
{
	vfork_shares();
}

static int grandchild(pid_t reaper)
{
	pid_t first = getppid();

	for (int i = 0; i < 300 && getppid() == first; i++)
		fc_nap_ms(10);
	return getppid() == reaper ? 0 : 1;
}

void fc_orphan(void)
{
	pid_t me = getpid(), child, gc;
	int st, subreaper = me != 1;

	if (subreaper && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		el_skip("orphan.reparented", "not init and PR_SET_CHILD_SUBREAPER refused");
		return;
	}
	child = fork();
	if (child == 0) {
		if (fork() == 0)
			_exit(grandchild(me));
		_exit(0);
	}
	st = fc_wait(child);
	gc = waitpid(-1, &st, 0);
	el_expect("orphan.reparented_and_reaped",
		  gc > 0 && gc != child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "reaped %d status %#x (1: its parent never became %d)", gc, st, me);
	if (subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
}
