/*
 * ptracecheck events: what a tracer asks to see beyond signals (ptrace(2)).
 *   - TRACEFORK: the parent's PTRACE_EVENT_FORK stop, the child's pid in
 *     GETEVENTMSG, the child traced with an initial SIGSTOP, seen with
 *     __WALL; TRACEEXIT: PTRACE_EVENT_EXIT with the wait status; the
 *     tracer, not the parent, sees the child's exit first, and the parent
 *     reaps it after;
 *   - TRACEVFORK/VFORKDONE: PTRACE_EVENT_VFORK, then VFORK_DONE;
 *   - TRACEEXEC: PTRACE_EVENT_EXEC with the former tid;
 *   - an ATTACHed (TRACEME) tracee's group stop: WSTOPSIG SIGSTOP, and
 *     GETSIGINFO fails with EINVAL;
 *   - PTRACE_GET_SYSCALL_INFO at a signal stop, syscall entry and exit.
 */
#include <errno.h>
#include <linux/ptrace.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/sys.h"
#include "ptracecheck.h"

#define EVENT_STATUS(ev) ((SIGTRAP | ((ev) << 8)) << 8 | 0x7f)

static int wait_all(pid_t pid)
{
	int st;
	pid_t r;

	do
		r = waitpid(pid, &st, __WALL);
	while (r < 0 && errno == EINTR);
	return r == pid ? st : -1;
}

/* The next stop or end that is not the SIGCHLD of a child exiting (passed on to the tracee). */
static int wait_past_sigchld(pid_t pid)
{
	int st;

	while ((st = wait_all(pid)) != -1 && WIFSTOPPED(st) && st >> 8 == SIGCHLD)
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)SIGCHLD);
	return st;
}

static int fork_child(void)
{
	pid_t g = fork();
	int st;

	if (g == 0)
		_exit(7);
	if (g < 0 || waitpid(g, &st, 0) != g)
		return 2;
	return WIFEXITED(st) && WEXITSTATUS(st) == 7 ? 0 : 3;
}

static void fork_exit_events(void)
{
	pid_t pid = pt_child("events.fork", fork_child), g;
	unsigned long msg = 0;
	int st;

	if (pid < 0)
		return;
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	       (void *)(long)(PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXIT));
	st = pt_resume(pid, PTRACE_CONT, 0);
	if (!el_expect("events.fork_stop", st == EVENT_STATUS(PTRACE_EVENT_FORK),
		       "status %#x, not PTRACE_EVENT_FORK's %#x", st,
		       EVENT_STATUS(PTRACE_EVENT_FORK))) {
		pt_abandon(pid);
		return;
	}
	ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
	g = (pid_t)msg;
	st = g > 0 ? wait_all(g) : -1;
	el_expect("events.fork_child_sigstop", WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
		  "GETEVENTMSG %lu, its first wait status %#x (want a SIGSTOP stop)", msg, st);
	if (st < 0) {
		pt_abandon(pid);
		return;
	}
	ptrace(PTRACE_CONT, g, NULL, NULL);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	st = wait_all(g);
	msg = 0;
	ptrace(PTRACE_GETEVENTMSG, g, NULL, &msg);
	el_expect("events.exit_stop", st == EVENT_STATUS(PTRACE_EVENT_EXIT) && msg == 7 << 8,
		  "status %#x, GETEVENTMSG %#lx (want %#x, 0x700)", st, msg,
		  EVENT_STATUS(PTRACE_EVENT_EXIT));
	ptrace(PTRACE_CONT, g, NULL, NULL);
	st = wait_all(g);
	el_expect("events.tracer_sees_exit", WIFEXITED(st) && WEXITSTATUS(st) == 7,
		  "the tracer's wait for the traced grandchild: status %#x", st);
	st = wait_past_sigchld(pid);
	el_expect("events.parent_exit_stop", st == EVENT_STATUS(PTRACE_EVENT_EXIT), "status %#x",
		  st);
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("events.parent_reaps_after_tracer", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x (exit 2/3: the parent's wait failed or saw another status)", st);
}

static int vfork_child(void)
{
	pid_t g = vfork();
	int st;

	if (g == 0)
		_exit(3);
	if (g < 0 || waitpid(g, &st, 0) != g)
		return 2;
	return WIFEXITED(st) && WEXITSTATUS(st) == 3 ? 0 : 3;
}

static void vfork_events(void)
{
	pid_t pid = pt_child("events.vfork", vfork_child), g;
	unsigned long msg = 0;
	int st;

	if (pid < 0)
		return;
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	       (void *)(long)(PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE));
	st = pt_resume(pid, PTRACE_CONT, 0);
	ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
	g = (pid_t)msg;
	if (!el_expect("events.vfork_stop", st == EVENT_STATUS(PTRACE_EVENT_VFORK) && g > 0,
		       "status %#x, GETEVENTMSG %lu", st, msg)) {
		pt_abandon(pid);
		return;
	}
	st = wait_all(g);
	el_expect("events.vfork_child_sigstop", WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
		  "status %#x", st);
	ptrace(PTRACE_CONT, g, NULL, NULL);
	st = pt_resume(pid, PTRACE_CONT, 0);
	msg = 0;
	ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
	el_expect("events.vfork_done",
		  st == EVENT_STATUS(PTRACE_EVENT_VFORK_DONE) && msg == (unsigned long)g,
		  "status %#x, GETEVENTMSG %lu (want the child %d)", st, msg, (int)g);
	st = wait_all(g);
	el_expect("events.vfork_child_exit", WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %#x",
		  st);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	st = wait_past_sigchld(pid);
	el_expect("events.vfork_parent_exit", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x",
		  st);
}

static int exec_child(void)
{
	char *argv[] = {"ptracecheck", "--list", NULL};
	char *envp[] = {NULL};

	/* stdout closed: --list prints nothing into the checks' output. */
	close(1);
	execve("/proc/self/exe", argv, envp);
	return 9;
}

static void exec_event(void)
{
	pid_t pid = pt_child("events.exec", exec_child);
	unsigned long msg = 0;
	int st;

	if (pid < 0)
		return;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_TRACEEXEC);
	st = pt_resume(pid, PTRACE_CONT, 0);
	ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg);
	el_expect("events.exec_stop",
		  st == EVENT_STATUS(PTRACE_EVENT_EXEC) && msg == (unsigned long)pid,
		  "status %#x (want %#x), GETEVENTMSG %lu (want the tid %d)", st,
		  EVENT_STATUS(PTRACE_EVENT_EXEC), msg, (int)pid);
	if (!WIFSTOPPED(st))
		return;
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("events.exec_runs", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

static int group_stop_child(void)
{
	el_syscall2(SYS_kill, el_syscall1(SYS_getpid, 0), SIGSTOP);
	return 0;
}

static void attach_group_stop(void)
{
	pid_t pid = pt_child("events.group_stop", group_stop_child);
	siginfo_t si;
	long r;
	int st, e;

	if (pid < 0)
		return;
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("events.sigstop_delivery_stop", WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
		  "status %#x", st);
	st = pt_resume(pid, PTRACE_CONT, SIGSTOP);
	r = ptrace(PTRACE_GETSIGINFO, pid, NULL, &si);
	e = errno;
	el_expect("events.group_stop_no_siginfo",
		  st >> 8 == SIGSTOP && WIFSTOPPED(st) && r == -1 && e == EINVAL,
		  "status %#x, GETSIGINFO %ld (%s): want a SIGSTOP stop without siginfo (EINVAL)",
		  st, r, strerror(e));
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("events.group_stop_resumed", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x",
		  st);
}

static int syscall_info_child(void)
{
	syscall(SYS_chdir, "", 0xbad1fed1ul, 0xbad2fed2ul, 0xbad3fed3ul, 0xbad4fed4ul, 0xbad5fed5ul);
	syscall(SYS_gettid, 0xcaf0bea0ul, 0xcaf1bea1ul, 0xcaf2bea2ul, 0xcaf3bea3ul, 0xcaf4bea4ul,
		0xcaf5bea5ul);
	return 0;
}

static long get_info(pid_t pid, struct ptrace_syscall_info *info)
{
	memset(info, 0xee, sizeof(*info));
	return ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(*info), info);
}

static void syscall_info(void)
{
	static const unsigned long a[6] =
		{0, 0xbad1fed1ul, 0xbad2fed2ul, 0xbad3fed3ul, 0xbad4fed4ul, 0xbad5fed5ul};
	pid_t pid = pt_child("events.syscall_info", syscall_info_child);
	struct ptrace_syscall_info info;
	long n;
	int st, ok;

	if (pid < 0)
		return;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_TRACESYSGOOD);
	n = get_info(pid, &info);
	el_expect("events.syscall_info_none",
		  n == offsetof(struct ptrace_syscall_info, entry) &&
			  info.op == PTRACE_SYSCALL_INFO_NONE && info.arch == 0xc000003e &&
			  info.instruction_pointer && info.stack_pointer,
		  "at the SIGSTOP stop: size %ld, op %u, arch %#x", n, info.op, info.arch);
	/* Past whatever libc does first, up to chdir's entry. */
	for (int i = 0; i < 20; i++) {
		st = pt_resume(pid, PTRACE_SYSCALL, 0);
		if (st != ((SIGTRAP | 0x80) << 8 | 0x7f))
			break;
		n = get_info(pid, &info);
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_chdir)
			break;
	}
	ok = n == offsetof(struct ptrace_syscall_info, entry.args) + 6 * 8 &&
	     info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_chdir;
	for (int i = 1; i < 6; i++)
		ok &= info.entry.args[i] == a[i];
	el_expect("events.syscall_info_entry", ok, "size %ld, op %u, nr %llu, args[1] %#llx", n,
		  info.op, (unsigned long long)info.entry.nr,
		  (unsigned long long)info.entry.args[1]);
	st = pt_resume(pid, PTRACE_SYSCALL, 0);
	n = get_info(pid, &info);
	el_expect("events.syscall_info_exit_error",
		  n == offsetof(struct ptrace_syscall_info, exit.is_error) + 1 &&
			  info.op == PTRACE_SYSCALL_INFO_EXIT && info.exit.is_error == 1 &&
			  info.exit.rval == -ENOENT,
		  "status %#x, size %ld, op %u, rval %lld, is_error %u", st, n, info.op,
		  (long long)info.exit.rval, info.exit.is_error);
	pt_resume(pid, PTRACE_SYSCALL, 0);
	st = pt_resume(pid, PTRACE_SYSCALL, 0);
	n = get_info(pid, &info);
	el_expect("events.syscall_info_exit_value",
		  info.op == PTRACE_SYSCALL_INFO_EXIT && info.exit.is_error == 0 &&
			  info.exit.rval == pid,
		  "gettid's exit: status %#x, size %ld, op %u, rval %lld, is_error %u", st, n,
		  info.op, (long long)info.exit.rval, info.exit.is_error);
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("events.syscall_info_child_exit", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "status %#x", st);
}

void pt_events(void)
{
	fork_exit_events();
	vfork_events();
	exec_event();
	attach_group_stop();
	syscall_info();
}
