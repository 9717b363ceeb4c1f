/*
 * ptracecheck syscall: PTRACE_SYSCALL stops, entry and exit alternating
 * (plain SIGTRAP stops: no PTRACE_O_TRACESYSGOOD).  At each entry RAX is
 * -ENOSYS and orig_rax the number.  In pt_sys_seq's three getpid calls the
 * tracer changes the first into gettid (orig_rax = 186 at entry: the exit
 * stop shows the tid), rewrites the second's result at its exit (12345), and
 * cancels the third (orig_rax = -1: the child sees -ENOSYS).  The child
 * checks what it got (pt_sys_out) itself and reports through its exit
 * status.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptracecheck.h"

static int sys_child(void)
{
	long tid = syscall(SYS_gettid);

	pt_sys_seq();
	if ((long)pt_sys_out[0] != tid)
		return 1;
	if (pt_sys_out[1] != 12345)
		return 2;
	if ((long)pt_sys_out[2] != -ENOSYS)
		return 3;
	return 0;
}

void pt_syscall(void)
{
	struct user_regs_struct r;
	int st = 0, getpids = 0, entry = 1, entry_enosys = 1, stops = 0, exit_tid_ok = 0;
	int cancel_ok = 0, alternation_ok = 1;
	long last_nr = -1;
	pid_t pid = pt_child("syscall.child", sys_child);

	if (pid < 0)
		return;
	while (getpids < 3 || !entry) {
		st = pt_resume(pid, PTRACE_SYSCALL, 0);
		if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP || ++stops > 200) {
			alternation_ok = 0;
			break;
		}
		ptrace(PTRACE_GETREGS, pid, NULL, &r);
		if (entry) {
			last_nr = (long)r.orig_rax;
			entry_enosys &= (long)r.rax == -ENOSYS;
			if (last_nr == SYS_getpid) {
				getpids++;
				if (getpids == 1)
					r.orig_rax = SYS_gettid;
				if (getpids == 3)
					r.orig_rax = (unsigned long)-1;
				ptrace(PTRACE_SETREGS, pid, NULL, &r);
			}
		} else if (last_nr == SYS_getpid) {
			if (getpids == 1)
				exit_tid_ok = (long)r.rax == pid && r.orig_rax == SYS_gettid;
			if (getpids == 2) {
				r.rax = 12345;
				ptrace(PTRACE_SETREGS, pid, NULL, &r);
			}
			if (getpids == 3)
				cancel_ok = (long)r.rax == -ENOSYS;
		}
		entry = !entry;
	}
	el_expect("syscall.stops_alternate", alternation_ok && getpids == 3,
		  "status %#x after %d stops, %d getpid entries seen", st, stops, getpids);
	el_expect("syscall.rax_enosys_at_entry", entry_enosys, "an entry stop had RAX != -ENOSYS");
	el_expect("syscall.number_changed_at_entry", exit_tid_ok,
		  "getpid turned into gettid: the exit stop must show RAX = tid %d, orig_rax 186", pid);
	el_expect("syscall.cancelled_gives_enosys", cancel_ok, "orig_rax -1: the exit RAX must be -ENOSYS");
	if (!alternation_ok) {
		pt_abandon(pid);
		return;
	}
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("syscall.int3_after", WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP,
		  "status %#x, want the INT3's SIGTRAP stop", st);
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("syscall.child_saw_changes", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "child status %#x (1: not the tid, 2: result not 12345, 3: not -ENOSYS)", st);
	if (!WIFEXITED(st) && !WIFSIGNALED(st))
		pt_abandon(pid);
}
