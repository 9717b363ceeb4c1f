/*
 * jobcheck: credentials, process groups and sessions, job control and the
 * terminal as Linux has them (credentials(7), setpgid(2), setsid(2),
 * kill(2), wait(2), termios(3), tty_ioctl(4)).
 *   jobcheck                  every check (as root: children drop privileges)
 *   jobcheck --sleep          (internal) waits for a signal, after an exec
 *
 * Checked: the ids of root and their set*id rules in an unprivileged child
 * (EPERM where Linux refuses, the saved id regaining root, setfsuid's old
 * value, sorted setgroups, iopl refused, kill EPERM across users but
 * allowed within them), setpgid/getpgid/setsid/getsid with their errors
 * (ESRCH, EPERM, EACCES after exec, EINVAL), kill(0) and kill(-pgid)
 * reaching exactly a group, waitpid(0) and waitpid(-pgid), group stop by
 * SIGSTOP and SIGTSTP reported once to WUNTRACED (0x137f) with SIGCHLD
 * CLD_STOPPED, SIGCONT reported once to WCONTINUED (0xffff) with
 * CLD_CONTINUED, waitid's codes, SA_NOCLDSTOP, SIGKILL ending a stopped
 * child, a stop signal and SIGCONT discarding each other, a stopped
 * two-thread process, the orphaned group's SIGHUP and SIGCONT, the limits
 * (RLIMIT_NOFILE's EMFILE/EBADF/EINVAL, EPERM raising a hard limit or
 * touching another user's, RLIMIT_NPROC's EAGAIN, RLIMIT_STACK's SIGSEGV,
 * RLIMIT_SIGPENDING's EAGAIN for sigqueue, the queued values in order),
 * getrusage, wait4's rusage and times(2) counting CPU time, nice values
 * (EACCES lowering one unprivileged), and on a
 * terminal: TCGETS/TCSETS, TIOCGPGRP/TIOCSPGRP, TIOCGSID, SIGTTOU on a
 * background write with TOSTOP and SIGTTIN on a background read, /dev/tty
 * refused after setsid.  Runs on a Linux host too (as root; the terminal
 * checks are skipped without one).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static volatile sig_atomic_t got_usr1, chld_code, chld_status, chld_count;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_count++;
}

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static void set_handler(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = {0};

	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, 0);
}

static void set_chld_handler(int flags)
{
	struct sigaction sa = {0};

	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | flags;
	sigaction(SIGCHLD, &sa, 0);
}

/* A child that waits for signals until killed. */
static pid_t spawn_sleeper(bool own_group)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (;;)
			pause();
	}
	if (pid > 0 && own_group)
		setpgid(pid, pid); /* both sides, as shells do: no race */
	return pid;
}

static int reap(pid_t pid)
{
	int st = -1;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	reap(pid);
}

/* --- credentials --- */

/*
 * Runs in a child that starts as root: returns 0 when every step behaved
 * as Linux's, else the number of the first that did not.
 */
static int cred_steps(pid_t root_peer)
{
	uid_t r, e, s;
	gid_t g[4] = {30, 10, 20};

	if (setgroups(3, g) || getgroups(4, g) != 3 || g[0] != 10 || g[1] != 20 || g[2] != 30)
		return 1;
	if (getgroups(2, g) != -1 || errno != EINVAL || getgroups(0, 0) != 3)
		return 2;
	if (setresgid(100, 100, 100) || getgid() != 100 || getegid() != 100)
		return 3;
	/* Real and effective 1000, saved 0: root can come back. */
	if (setresuid(1000, 1000, 0) || getuid() != 1000 || geteuid() != 1000)
		return 4;
	if (getresuid(&r, &e, &s) || r != 1000 || e != 1000 || s != 0)
		return 5;
	if (setreuid(-1, 0) || geteuid() != 0)
		return 6;
	/* Privileged setuid sets all three ids: no way back. */
	if (setuid(2000) || getresuid(&r, &e, &s) || r != 2000 || e != 2000 || s != 2000)
		return 7;
	if (setuid(0) != -1 || errno != EPERM || seteuid(0) != -1 || errno != EPERM)
		return 8;
	if (setresuid(-1, 3000, -1) != -1 || errno != EPERM)
		return 9;
	if (setgroups(0, 0) != -1 || errno != EPERM)
		return 10;
	if (setgid(0) != -1 || errno != EPERM || setgid(100) != 0)
		return 11;
	/* setfsuid answers the old value and moves only to an id the caller holds. */
	if (setfsuid(0) != 2000 || setfsuid(-1) != 2000)
		return 12;
	/* EPERM; ENOSYS from a host kernel built without iopl is no grant either. */
	if (iopl(3) != -1 || (errno != EPERM && errno != ENOSYS)) {
		fprintf(stderr, "iopl: %s\n", strerror(errno));
		return 13;
	}
	if (kill(root_peer, 0) != -1 || errno != EPERM || kill(root_peer, SIGKILL) != -1 ||
	    errno != EPERM)
		return 14;
	if (setuid((uid_t)-1) != -1 || errno != EINVAL)
		return 15;
	return 0;
}

static void check_credentials(void)
{
	uid_t r = 1, e = 1, s = 1;
	pid_t peer, pid, same;
	int st;

	el_expect("cred_root", getuid() == 0 && geteuid() == 0 && getgid() == 0 &&
				       getegid() == 0 && !getresuid(&r, &e, &s) && !r && !e && !s,
		  "uid %d euid %d gid %d egid %d res %d %d %d (run as root)", getuid(), geteuid(),
		  getgid(), getegid(), r, e, s);
	peer = spawn_sleeper(false);
	pid = fork();
	if (pid == 0)
		_exit(cred_steps(peer));
	st = reap(pid);
	el_expect("cred_setid_rules", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "step %d of the unprivileged child's id changes went unlike Linux (status %#x)",
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, st);
	/* Two processes of one user may signal each other; the peer must have survived. */
	pid = fork();
	if (pid == 0) {
		pid_t mate;

		if (setuid(1000))
			_exit(1);
		mate = spawn_sleeper(false);
		if (kill(mate, SIGTERM))
			_exit(2);
		st = reap(mate);
		_exit(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM ? 0 : 3);
	}
	st = reap(pid);
	el_expect("cred_kill_same_user", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "a uid-1000 process could not kill its own uid-1000 child (status %#x)", st);
	el_expect("cred_kill_eperm_no_effect", kill(peer, 0) == 0, "the root peer died");
	same = waitpid(peer, &st, WNOHANG);
	el_expect("cred_peer_alive", same == 0, "waitpid: %d", same);
	kill_reap(peer);
}

/* --- process groups and sessions --- */

static void check_groups(const char *self)
{
	pid_t pid, grand, a, b, other;
	int st, st2, p[2];

	el_expect("getpgrp", getpgrp() == getpgid(0) && getpgid(getpid()) == getpgrp() &&
				     getsid(0) == getsid(getpid()) && getsid(0) > 0,
		  "getpgrp %d getpgid(0) %d getsid(0) %d", getpgrp(), getpgid(0), getsid(0));
	el_expect("getpgid_esrch", getpgid(999999) == -1 && errno == ESRCH &&
					   getsid(999999) == -1 && errno == ESRCH,
		  "getpgid/getsid of no process: %s", strerror(errno));
	el_expect("setpgid_einval", setpgid(0, -1) == -1 && errno == EINVAL, "%s",
		  strerror(errno));

	pid = spawn_sleeper(true);
	el_expect("setpgid_child", getpgid(pid) == pid && getsid(pid) == getsid(0),
		  "child %d: pgid %d sid %d (ours %d)", pid, getpgid(pid), getsid(pid), getsid(0));
	el_expect("setpgid_back", setpgid(pid, getpgrp()) == 0 && getpgid(pid) == getpgrp(),
		  "moving the child into our group: %s", strerror(errno));
	el_expect("setpgid_no_group", setpgid(pid, 999999) == -1 && errno == EPERM,
		  "a group that does not exist: %s", strerror(errno));
	kill_reap(pid);

	/* Not our child (a grandchild): ESRCH. */
	if (pipe(p) == 0) {
		pid = fork();
		if (pid == 0) {
			grand = spawn_sleeper(false);
			write(p[1], &grand, sizeof(grand));
			pause();
			_exit(0);
		}
		grand = 0;
		read(p[0], &grand, sizeof(grand));
		el_expect("setpgid_esrch", grand > 0 && setpgid(grand, 0) == -1 && errno == ESRCH,
			  "setpgid of a grandchild: %s", strerror(errno));
		kill(grand, SIGKILL);
		kill_reap(pid);
		close(p[0]), close(p[1]);
	}

	/* After the child's exec: EACCES. */
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", self, "--sleep", (char *)0);
		execl(self, self, "--sleep", (char *)0);
		_exit(127);
	}
	sleep_ms(100);
	errno = 0;
	el_expect("setpgid_eacces", setpgid(pid, pid) == -1 && errno == EACCES,
		  "setpgid of a child after its exec: %s", strerror(errno));
	kill_reap(pid);

	/* A new session: leader of a new group, EPERM for group leaders and across sessions. */
	pid = fork();
	if (pid == 0) {
		pid_t me = getpid();

		if (setsid() != me || getsid(0) != me || getpgrp() != me)
			_exit(1);
		if (setsid() != -1 || errno != EPERM)
			_exit(2);
		if (setpgid(0, 0) != -1 || errno != EPERM)
			_exit(3);
		if (open("/dev/tty", O_RDWR) != -1 || errno != ENXIO)
			_exit(4);
		pause();
		_exit(0);
	}
	sleep_ms(100);
	errno = 0;
	el_expect("setsid_other_session", getsid(pid) == pid && setpgid(pid, pid) == -1 &&
						  errno == EPERM,
		  "sid %d, setpgid across sessions: %s", getsid(pid), strerror(errno));
	st = waitpid(pid, &st, WNOHANG) == 0 ? (kill(pid, SIGKILL), reap(pid)) : st;
	el_expect("setsid_rules", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		  "step %d of the new session leader went unlike Linux (status %#x)",
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, st);
	pid = spawn_sleeper(true);
	el_expect("setsid_group_leader", waitpid(pid, &st, WNOHANG) == 0, "sleeper gone");
	kill_reap(pid);

	/* kill(-pgid) reaches the group's two members and not a third process. */
	a = spawn_sleeper(true);
	b = fork();
	if (b == 0) {
		setpgid(0, a);
		for (;;)
			pause();
	}
	setpgid(b, a);
	other = spawn_sleeper(false);
	el_expect("kill_pgrp", kill(-a, SIGTERM) == 0, "kill(-%d): %s", a, strerror(errno));
	st = reap(b);
	st2 = reap(a);
	el_expect("kill_pgrp_members", WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM &&
					       WIFSIGNALED(st2) && WTERMSIG(st2) == SIGTERM,
		  "a member of the group survived kill(-pgid) (status %#x %#x)", st, st2);
	el_expect("kill_pgrp_others", waitpid(other, &st, WNOHANG) == 0,
		  "kill(-pgid) reached a process outside the group");
	kill_reap(other);
	el_expect("kill_pgrp_esrch", kill(-999999, 0) == -1 && errno == ESRCH, "%s",
		  strerror(errno));

	/* kill(0) from a child in its own group reaches it and its child, not us. */
	got_usr1 = 0;
	set_handler(SIGUSR1, on_usr1, 0);
	pid = fork();
	if (pid == 0) {
		pid_t c;

		setpgid(0, 0);
		got_usr1 = 0;
		c = fork();
		if (c == 0) {
			while (!got_usr1)
				pause();
			_exit(7);
		}
		sleep_ms(50);
		kill(0, SIGUSR1);
		while (!got_usr1)
			pause();
		st = reap(c);
		/* waitpid(0): a child of our own group. */
		_exit(WIFEXITED(st) && WEXITSTATUS(st) == 7 ? 0 : 1);
	}
	st = reap(pid);
	el_expect("kill_zero", WIFEXITED(st) && WEXITSTATUS(st) == 0 && !got_usr1,
		  "status %#x, the caller's group got it: %d", st, got_usr1);

	/* waitpid(-pgid) and waitpid(0) choose by group. */
	a = spawn_sleeper(true);
	b = spawn_sleeper(false);
	kill(b, SIGTERM);
	sleep_ms(50);
	el_expect("waitpid_pgrp", waitpid(-a, &st, WNOHANG) == 0,
		  "waitpid(-pgid) reported a child of another group");
	el_expect("waitpid_zero", waitpid(0, &st, 0) == b, "waitpid(0) did not report %d", b);
	kill(a, SIGTERM);
	el_expect("waitpid_pgrp_member", waitpid(-a, &st, 0) == a, "waitpid(-%d)", a);
}

/* --- job control --- */

static void check_stop_continue(void)
{
	siginfo_t si;
	pid_t pid;
	int st = 0;

	set_chld_handler(0);
	chld_count = 0;
	pid = spawn_sleeper(true);
	kill(pid, SIGSTOP);
	el_expect("stop_wuntraced", waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
					    WSTOPSIG(st) == SIGSTOP && st == 0x137f,
		  "status %#x", st);
	el_expect("stop_sigchld", chld_count >= 1 && chld_code == CLD_STOPPED &&
					  chld_status == SIGSTOP,
		  "SIGCHLD %d times, code %d status %d", chld_count, chld_code, chld_status);
	el_expect("stop_reported_once", waitpid(pid, &st, WUNTRACED | WNOHANG) == 0,
		  "a second wait reported the stop again (%#x)", st);
	el_expect("stop_not_without_wuntraced", waitpid(pid, &st, WNOHANG) == 0,
		  "wait without WUNTRACED reported a stop");
	chld_count = 0;
	kill(pid, SIGCONT);
	el_expect("cont_wcontinued", waitpid(pid, &st, WCONTINUED) == pid && WIFCONTINUED(st) &&
					     st == 0xffff,
		  "status %#x", st);
	sleep_ms(50); /* Linux sends it once the child runs again */
	el_expect("cont_sigchld", chld_count >= 1 && chld_code == CLD_CONTINUED &&
					  chld_status == SIGCONT,
		  "SIGCHLD %d times, code %d status %d", chld_count, chld_code, chld_status);
	el_expect("cont_reported_once", waitpid(pid, &st, WCONTINUED | WNOHANG) == 0,
		  "a second wait reported the continue again");

	/* waitid's view: CLD_STOPPED with the signal, CLD_CONTINUED with SIGCONT. */
	kill(pid, SIGTSTP);
	memset(&si, 0, sizeof(si));
	el_expect("waitid_stopped", waitid(P_PID, pid, &si, WSTOPPED) == 0 &&
					    si.si_code == CLD_STOPPED && si.si_status == SIGTSTP &&
					    si.si_pid == pid,
		  "code %d status %d pid %d", si.si_code, si.si_status, si.si_pid);
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof(si));
	el_expect("waitid_continued", waitid(P_PID, pid, &si, WCONTINUED) == 0 &&
					      si.si_code == CLD_CONTINUED &&
					      si.si_status == SIGCONT,
		  "code %d status %d", si.si_code, si.si_status);
	memset(&si, 0, sizeof(si));
	el_expect("waitid_pgid", waitid(P_PGID, pid, &si, WEXITED | WNOHANG) == 0 &&
					 si.si_pid == 0,
		  "P_PGID reported pid %d", si.si_pid);

	/* SIGKILL ends a stopped process. */
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGKILL);
	st = reap(pid);
	el_expect("kill_stopped", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);

	/* SA_NOCLDSTOP: no SIGCHLD for the stop, but wait still reports it. */
	set_chld_handler(SA_NOCLDSTOP);
	chld_count = 0;
	pid = spawn_sleeper(true);
	kill(pid, SIGTTIN);
	el_expect("nocldstop_wait", waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
					    WSTOPSIG(st) == SIGTTIN,
		  "status %#x", st);
	kill(pid, SIGCONT);
	sleep_ms(50);
	el_expect("nocldstop_no_sigchld", chld_count == 0, "SIGCHLD came %d times",
		  chld_count);
	kill_reap(pid);
	set_handler(SIGCHLD, SIG_DFL, 0);
}

/* A stop signal discards a pending SIGCONT; SIGCONT discards pending stop signals. */
static void check_discard(void)
{
	int up[2], down[2], st;
	pid_t pid;

	if (pipe(up) || pipe(down))
		return;
	pid = fork();
	if (pid == 0) {
		sigset_t m;
		char c;
		int bits;

		sigemptyset(&m);
		sigaddset(&m, SIGCONT);
		sigaddset(&m, SIGTSTP);
		sigprocmask(SIG_BLOCK, &m, 0);
		write(up[1], "r", 1);
		read(down[0], &c, 1); /* the parent sent SIGCONT, then SIGTSTP */
		sigpending(&m);
		bits = sigismember(&m, SIGTSTP) | sigismember(&m, SIGCONT) << 1;
		sigemptyset(&m);
		sigaddset(&m, SIGTSTP);
		sigtimedwait(&m, 0, &(struct timespec){0, 0}); /* take the pending SIGTSTP */
		write(up[1], "r", 1);
		read(down[0], &c, 1); /* ... then SIGTSTP, then SIGCONT */
		sigpending(&m);
		bits |= sigismember(&m, SIGTSTP) << 2 | sigismember(&m, SIGCONT) << 3;
		_exit(bits);
	}
	{
		char c;

		read(up[0], &c, 1);
		kill(pid, SIGCONT);
		kill(pid, SIGTSTP);
		write(down[1], "g", 1);
		read(up[0], &c, 1);
		kill(pid, SIGTSTP);
		kill(pid, SIGCONT);
		write(down[1], "g", 1);
	}
	st = reap(pid);
	el_expect("stop_discards_cont", WIFEXITED(st) && (WEXITSTATUS(st) & 3) == 1,
		  "pending after SIGCONT then SIGTSTP: TSTP %d CONT %d (status %#x)",
		  WEXITSTATUS(st) & 1, WEXITSTATUS(st) >> 1 & 1, st);
	el_expect("cont_discards_stop", WIFEXITED(st) && (WEXITSTATUS(st) & 12) == 8,
		  "pending after SIGTSTP then SIGCONT: TSTP %d CONT %d (status %#x)",
		  WEXITSTATUS(st) >> 2 & 1, WEXITSTATUS(st) >> 3 & 1, st);
	close(up[0]), close(up[1]), close(down[0]), close(down[1]);
}

static volatile int spin_count;

static void *spinner(void *arg)
{
	(void)arg;
	for (;;)
		spin_count++;
	return 0;
}

/* Both threads of a process stop: a spinning thread does not move while stopped. */
static void check_thread_stop(void)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		pthread_t th;

		setpgid(0, 0);
		pthread_create(&th, 0, spinner, 0);
		for (;;) {
			int v = spin_count;

			write(p[1], &v, sizeof(v));
			sleep_ms(20);
		}
	}
	{
		int v1 = 0, v2 = 0, n;

		read(p[0], &v1, sizeof(v1));
		sleep_ms(100);
		kill(pid, SIGSTOP);
		el_expect("thread_stop_wait", waitpid(pid, &st, WUNTRACED) == pid &&
						      WIFSTOPPED(st),
			  "status %#x", st);
		/* Drain what was written before the stop, then nothing moves. */
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		while (read(p[0], &v1, sizeof(v1)) > 0)
			;
		sleep_ms(200);
		n = (int)read(p[0], &v2, sizeof(v2));
		el_expect("thread_stop_silent", n < 0 && errno == EAGAIN,
			  "a stopped process wrote %d bytes", n);
		kill(pid, SIGCONT);
		fcntl(p[0], F_SETFL, 0);
		read(p[0], &v2, sizeof(v2));
		read(p[0], &v2, sizeof(v2));
		el_expect("thread_stop_resumed", v2 != v1, "the spinner did not run again (%d)",
			  v2);
	}
	kill_reap(pid);
	close(p[0]), close(p[1]);
}

static void on_hup(int sig)
{
	(void)sig;
	_exit(42);
}

/* A group that becomes orphaned with a stopped member gets SIGHUP and SIGCONT. */
static void check_orphaned(void)
{
	int p[2], st;
	pid_t mid, grand = 0;

	if (pipe(p))
		return;
	mid = fork();
	if (mid == 0) {
		pid_t g;

		setpgid(0, 0);
		g = fork();
		if (g == 0) {
			set_handler(SIGHUP, on_hup, 0);
			raise(SIGSTOP);
			_exit(1); /* continued without SIGHUP */
		}
		waitpid(g, &st, WUNTRACED);
		write(p[1], &g, sizeof(g));
		_exit(WIFSTOPPED(st) ? 0 : 1);
	}
	close(p[1]);
	read(p[0], &grand, sizeof(grand));
	st = reap(mid);
	/* The grandchild, now init's, got SIGHUP (its handler exits): its pid goes away. */
	{
		int i;

		for (i = 0; i < 100 && grand > 0 && kill(grand, 0) == 0; i++) {
			sleep_ms(20); /* its new parent (init) reaps it */
		}
		el_expect("orphaned_pgrp_hup", WIFEXITED(st) && WEXITSTATUS(st) == 0 && grand > 0 &&
						       kill(grand, 0) == -1,
			  "the stopped grandchild %d of an orphaned group is still there (mid "
			  "status %#x)",
			  grand, st);
		if (grand > 0)
			kill(grand, SIGKILL);
	}
	close(p[0]);
}

/* --- limits, accounting, priorities --- */

static long tv_ms(struct timeval t)
{
	return t.tv_sec * 1000 + t.tv_usec / 1000;
}

static long used_ms(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return -1;
	return tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
}

/* Spins until getrusage(RUSAGE_SELF) grew by ms of CPU time, or 10 s went by. */
static void spin_cpu_ms(long ms)
{
	long start = used_ms(RUSAGE_SELF);
	time_t give_up = time(0) + 10;

	while (used_ms(RUSAGE_SELF) - start < ms && time(0) < give_up)
		;
}

/* Uses about 1 MiB of stack, a page at a time. */
static int deep(int n)
{
	volatile char pad[4096];

	pad[0] = (char)n;
	return n ? deep(n - 1) + pad[0] : 0;
}

/* In a child that starts as root: 0, or the number of the first step unlike Linux. */
static int limit_steps(void)
{
	struct rlimit r, old;
	int fd, last = -1;
	pid_t pid;

	if (getrlimit(RLIMIT_NOFILE, &old))
		return 1;
	r.rlim_cur = 16, r.rlim_max = old.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &r))
		return 2;
	if (dup2(0, 16) != -1 || errno != EBADF || fcntl(0, F_DUPFD, 16) != -1 || errno != EINVAL)
		return 3;
	while ((fd = dup(0)) >= 0)
		last = fd;
	if (errno != EMFILE || last != 15)
		return 4;
	r.rlim_cur = 32, r.rlim_max = 16;
	if (setrlimit(RLIMIT_NOFILE, &r) != -1 || errno != EINVAL)
		return 5;
	/* As another user: no raising the hard limit, no touching root's limits. */
	r.rlim_cur = r.rlim_max = 1;
	if (setrlimit(RLIMIT_NPROC, &r))
		return 6;
	if (setpriority(PRIO_PROCESS, 0, 5) || getpriority(PRIO_PROCESS, 0) != 5)
		return 7;
	if (setresuid(54321, 54321, 54321))
		return 8;
	r.rlim_cur = 16, r.rlim_max = old.rlim_max + 1;
	if (setrlimit(RLIMIT_NOFILE, &r) != -1 || errno != EPERM)
		return 9;
	if (prlimit(getppid(), RLIMIT_NOFILE, 0, &r) != -1 || errno != EPERM)
		return 10;
	/* RLIMIT_NPROC 1: this process is the user's one. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid != -1 || errno != EAGAIN)
		return 11;
	/* A lower nice value needs privilege. */
	if (setpriority(PRIO_PROCESS, 0, 0) != -1 || errno != EACCES)
		return 12;
	if (setpriority(PRIO_PROCESS, 0, 7) || getpriority(PRIO_PROCESS, 0) != 7)
		return 13;
	return 0;
}

/*
 * RLIMIT_SIGPENDING 4 for a user of its own: four queued SIGRTMIN, the
 * fifth EAGAIN, kill's still 0; the four come back in order with their
 * values.  0, or the number of the first step unlike Linux.
 */
static int sigpending_steps(void)
{
	struct rlimit r = {4, 4};
	sigset_t m;
	siginfo_t si;
	int i;

	sigemptyset(&m);
	sigaddset(&m, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &m, 0);
	if (setrlimit(RLIMIT_SIGPENDING, &r) || setresuid(54322, 54322, 54322))
		return 1;
	for (i = 0; i < 4; i++)
		if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 100 + i}))
			return 2;
	if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 104}) != -1 ||
	    errno != EAGAIN)
		return 3;
	if (kill(getpid(), SIGRTMIN))
		return 4;
	for (i = 0; i < 4; i++)
		if (sigwaitinfo(&m, &si) != SIGRTMIN || si.si_code != SI_QUEUE ||
		    si.si_value.sival_int != 100 + i || si.si_pid != getpid())
			return 5 + i;
	if (sigtimedwait(&m, &si, &(struct timespec){0, 0}) != -1 || errno != EAGAIN)
		return 9;
	/* Room again: queued once more. */
	if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 7}) ||
	    sigwaitinfo(&m, &si) != SIGRTMIN || si.si_value.sival_int != 7)
		return 10;
	return 0;
}

static void check_limits(void)
{
	struct rusage ru;
	struct tms tm;
	long before, after, thread_before;
	int r0;
	struct rlimit r = {0, 0};
	clock_t t0, t1;
	pid_t pid, w;
	int st;

	el_expect("rlimit_defaults", getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur >= 1024 &&
					     r.rlim_max >= r.rlim_cur,
		  "RLIMIT_NOFILE %lu/%lu", (unsigned long)r.rlim_cur, (unsigned long)r.rlim_max);
	pid = fork();
	if (pid == 0)
		_exit(limit_steps());
	st = reap(pid);
	el_expect("rlimit_rules", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "step %d of the limits went unlike Linux (status %#x)",
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, st);

	pid = fork();
	if (pid == 0)
		_exit(sigpending_steps());
	st = reap(pid);
	el_expect("rlimit_sigpending", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "step %d of queueing past RLIMIT_SIGPENDING went unlike Linux (status %#x)",
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, st);

	/* RLIMIT_STACK: a 256 KiB stack cannot hold 1 MiB of frames. */
	pid = fork();
	if (pid == 0) {
		r.rlim_cur = 256 << 10;
		r.rlim_max = RLIM_INFINITY;
		setrlimit(RLIMIT_STACK, &r);
		_exit(deep(256) & 1 ? 3 : 4);
	}
	st = reap(pid);
	el_expect("rlimit_stack", WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		  "1 MiB of stack under a 256 KiB RLIMIT_STACK: status %#x", st);

	/* Accounting: CPU time that grows, a reaped child's in wait4 and RUSAGE_CHILDREN, times(). */
	t0 = times(&tm);
	before = used_ms(RUSAGE_SELF);
	thread_before = used_ms(RUSAGE_THREAD);
	spin_cpu_ms(100);
	after = used_ms(RUSAGE_SELF);
	el_expect("getrusage_self", before >= 0 && after - before >= 90,
		  "RUSAGE_SELF grew from %ld to %ld ms in 10 s of spinning", before, after);
	after = used_ms(RUSAGE_THREAD);
	el_expect("getrusage_thread", thread_before >= 0 && after - thread_before >= 90,
		  "RUSAGE_THREAD grew from %ld to %ld ms", thread_before, after);
	r0 = getrusage(RUSAGE_SELF, &ru);
	el_expect("getrusage_maxrss", r0 == 0 && ru.ru_maxrss > 0, "maxrss %ld kB", ru.ru_maxrss);
	r0 = getrusage(7, &ru);
	el_expect("getrusage_einval", r0 == -1 && errno == EINVAL, "%s", strerror(errno));
	before = used_ms(RUSAGE_CHILDREN);
	pid = fork();
	if (pid == 0) {
		spin_cpu_ms(100);
		sleep_ms(10);
		_exit(0);
	}
	memset(&ru, 0, sizeof(ru));
	w = wait4(pid, &st, 0, &ru);
	el_expect("wait4_rusage", w == pid && tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime) >= 90 &&
					  ru.ru_nvcsw > 0,
		  "the child's 100 ms: wait4 %d, utime %ld stime %ld nvcsw %ld", w,
		  tv_ms(ru.ru_utime), tv_ms(ru.ru_stime), ru.ru_nvcsw);
	after = used_ms(RUSAGE_CHILDREN);
	el_expect("getrusage_children", after - before >= 90, "children's time %ld -> %ld ms",
		  before, after);
	t1 = times(&tm);
	el_expect("times", t1 - t0 >= 10 && tm.tms_utime + tm.tms_stime >= 10 &&
				   tm.tms_cutime + tm.tms_cstime >= 10,
		  "elapsed %ld ticks, self %ld, children %ld", (long)(t1 - t0),
		  (long)(tm.tms_utime + tm.tms_stime), (long)(tm.tms_cutime + tm.tms_cstime));
}

/* --- the terminal --- */

static void check_tty(void)
{
	struct termios t, t2;
	struct winsize ws;
	int fd = 1, st, sid = 0;
	pid_t pid, fg;

	if (!isatty(fd) || tcgetpgrp(fd) != getpgrp()) {
		el_skip("tty", "stdout is not our controlling terminal, or we are not its "
			       "foreground group");
		return;
	}
	el_expect("tty_tcgets", tcgetattr(fd, &t) == 0 && (t.c_lflag & ICANON),
		  "tcgetattr: %s, lflag %#x", strerror(errno), t.c_lflag);
	t2 = t;
	t2.c_lflag |= TOSTOP;
	el_expect("tty_tcsets", tcsetattr(fd, TCSANOW, &t2) == 0 && tcgetattr(fd, &t2) == 0 &&
					(t2.c_lflag & TOSTOP),
		  "TOSTOP did not stick: %s", strerror(errno));
	el_expect("tty_winsz", ioctl(fd, TIOCGWINSZ, &ws) == 0, "%s", strerror(errno));
	el_expect("tty_sid", ioctl(fd, TIOCGSID, &sid) == 0 && sid == getsid(0), "sid %d of %d",
		  sid, getsid(0));

	/* A background write with TOSTOP: SIGTTOU stops the writer. */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		write(fd, "", 0);
		write(fd, "background write went through\n", 30);
		_exit(0);
	}
	setpgid(pid, pid);
	el_expect("tty_sigttou", waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
					 WSTOPSIG(st) == SIGTTOU,
		  "status %#x", st);
	kill_reap(pid);
	tcsetattr(fd, TCSANOW, &t);

	/* A background read: SIGTTIN. */
	pid = fork();
	if (pid == 0) {
		char c;

		setpgid(0, 0);
		read(0, &c, 1);
		_exit(0);
	}
	setpgid(pid, pid);
	el_expect("tty_sigttin", waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) &&
					 WSTOPSIG(st) == SIGTTIN,
		  "status %#x", st);
	kill_reap(pid);

	/* tcsetpgrp to a child's group and back (SIGTTOU ignored, as a shell does). */
	pid = spawn_sleeper(true);
	signal(SIGTTOU, SIG_IGN);
	el_expect("tty_tcsetpgrp", tcsetpgrp(fd, pid) == 0 && tcgetpgrp(fd) == pid,
		  "%s, foreground %d", strerror(errno), tcgetpgrp(fd));
	fg = tcsetpgrp(fd, getpgrp());
	el_expect("tty_tcsetpgrp_back", fg == 0 && tcgetpgrp(fd) == getpgrp(), "%s",
		  strerror(errno));
	el_expect("tty_tcsetpgrp_esrch", tcsetpgrp(fd, 999999) == -1 && errno == ESRCH, "%s",
		  strerror(errno));
	signal(SIGTTOU, SIG_DFL);
	kill_reap(pid);

	/* Another session has no controlling terminal: TIOCGPGRP is ENOTTY there. */
	pid = fork();
	if (pid == 0) {
		setsid();
		_exit(tcgetpgrp(fd) == -1 && errno == ENOTTY ? 0 : 1);
	}
	st = reap(pid);
	el_expect("tty_other_session", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--sleep")) {
		for (;;)
			pause();
	}
	if (argc != 1) {
		fprintf(stderr, "usage: jobcheck (no arguments)\n");
		return 2;
	}
	/*
	 * The checks run in a child, as under a shell: in the guest this
	 * program is init, and a group whose members' parent is init is
	 * orphaned (Linux), which would turn SIGTTOU/SIGTTIN into EIO.
	 * As init, this process also reaps the orphans it inherits.
	 */
	{
		pid_t pid = fork(), w;
		int st = 0;

		if (pid == 0) {
			check_credentials();
			check_groups(argv[0]);
			check_stop_continue();
			check_discard();
			check_thread_stop();
			check_orphaned();
			check_limits();
			check_tty();
			exit(el_summary("jobcheck"));
		}
		while ((w = waitpid(-1, &st, 0)) != pid)
			if (w < 0 && errno != EINTR)
				break;
		if (!WIFEXITED(st))
			fprintf(stderr, "jobcheck: the checking process died (status %#x)\n", st);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
}
