/*
 * forkcheck wait: the wait family and SIGCHLD.
 *   - 20 children at once, each reaped once with its own status (wait);
 *   - WNOHANG on a live child answers 0; ECHILD with no child (or not ours);
 *   - wait4 fills the rusage; waitid P_PID/P_ALL with CLD_EXITED/CLD_KILLED,
 *     si_pid and si_status; WNOWAIT leaves the child waitable; waitid WNOHANG
 *     with nothing to report answers 0 with si_pid 0;
 *   - SIGCHLD reaches an SA_SIGINFO handler with CLD_EXITED/CLD_KILLED.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forkcheck.h"

#define MANY 20

static void many(void)
{
	pid_t pids[MANY];
	int seen[MANY] = {0}, ok = 1, n = 0;

	for (int i = 0; i < MANY; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			fc_nap_ms(i % 4 * 5);
			_exit(i + 1);
		}
		if (pids[i] < 0) {
			el_fail("wait.many_children", "fork %d: %s", i, strerror(errno));
			ok = 0;
			break;
		}
		n++;
	}
	for (int k = 0; k < n; k++) {
		int st;
		pid_t r = wait(&st);
		int i = 0;

		while (i < n && pids[i] != r)
			i++;
		if (i == n || seen[i]++ || !WIFEXITED(st) || WEXITSTATUS(st) != i + 1) {
			el_fail("wait.many_children", "wait gave %d status %#x (child %d)", r, st, i);
			return;
		}
	}
	if (ok)
		el_expect("wait.many_children", wait(NULL) == -1 && errno == ECHILD,
			  "a %dth child reaped", MANY + 1);
}

static void nohang_and_echild(void)
{
	pid_t pid = fork();
	int st = 0, r;

	if (pid == 0) {
		fc_nap_ms(200);
		_exit(5);
	}
	r = waitpid(pid, &st, WNOHANG);
	el_expect("wait.wnohang_live_child", r == 0, "waitpid WNOHANG gave %d", r);
	st = fc_wait(pid);
	el_expect("wait.then_blocking", WIFEXITED(st) && WEXITSTATUS(st) == 5, "status %#x", st);
	r = waitpid(-1, &st, 0);
	el_expect("wait.no_children_echild", r == -1 && errno == ECHILD, "waitpid(-1) gave %d (%s)",
		  r, strerror(errno));
	r = waitpid(-1, &st, WNOHANG);
	el_expect("wait.no_children_wnohang_echild", r == -1 && errno == ECHILD,
		  "waitpid(-1, WNOHANG) gave %d (%s)", r, strerror(errno));
	/* Our parent (as /init we have none: then a pid nobody has). */
	r = waitpid(getppid() > 1 ? getppid() : 0x3fffffff, &st, 0);
	el_expect("wait.not_our_child_echild", r == -1 && errno == ECHILD,
		  "waitpid(not a child) gave %d (%s)", r, strerror(errno));
}

static void wait4_rusage(void)
{
	struct rusage ru;
	pid_t pid = fork(), r;
	int st = 0;

	if (pid == 0)
		_exit(6);
	memset(&ru, 0xff, sizeof(ru));
	r = wait4(pid, &st, 0, &ru);
	el_expect("wait.wait4_rusage",
		  r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 6 && ru.ru_utime.tv_sec >= 0 &&
			  ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
			  ru.ru_stime.tv_usec >= 0 && ru.ru_stime.tv_usec < 1000000,
		  "wait4 %d status %#x utime %ld.%06ld stime %ld.%06ld", r, st,
		  (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
		  (long)ru.ru_stime.tv_usec);
}

static void waitid_forms(void)
{
	siginfo_t si;
	pid_t pid;
	int r, st;

	pid = fork();
	if (pid == 0)
		_exit(7);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
	el_expect("waitid.wnowait_exited",
		  r == 0 && si.si_signo == SIGCHLD && si.si_code == CLD_EXITED && si.si_pid == pid &&
			  si.si_status == 7,
		  "waitid %d signo %d code %d pid %d (want %d) status %d", r, si.si_signo, si.si_code,
		  si.si_pid, pid, si.si_status);
	st = fc_wait(pid);
	el_expect("waitid.wnowait_left_it_waitable", WIFEXITED(st) && WEXITSTATUS(st) == 7,
		  "status %#x", st);

	pid = fork();
	if (pid == 0) {
		fc_nap_ms(10000);
		_exit(0);
	}
	memset(&si, 0xff, sizeof(si));
	r = waitid(P_ALL, 0, &si, WEXITED | WNOHANG);
	el_expect("waitid.wnohang_nothing_yet", r == 0 && si.si_pid == 0,
		  "waitid %d si_pid %d", r, si.si_pid);
	kill(pid, SIGKILL);
	memset(&si, 0, sizeof(si));
	r = waitid(P_ALL, 0, &si, WEXITED);
	el_expect("waitid.p_all_killed",
		  r == 0 && si.si_code == CLD_KILLED && si.si_pid == pid && si.si_status == SIGKILL,
		  "waitid %d code %d (want CLD_KILLED) pid %d status %d", r, si.si_code, si.si_pid,
		  si.si_status);
	r = waitid(P_ALL, 0, &si, WEXITED);
	el_expect("waitid.echild", r == -1 && errno == ECHILD, "waitid %d (%s)", r, strerror(errno));
	r = waitid(P_ALL, 0, &si, 0);
	el_expect("waitid.no_options_einval", r == -1 && errno == EINVAL, "waitid %d (%s)", r,
		  strerror(errno));
}

static volatile int chld_count, chld_code, chld_status;
static volatile pid_t chld_pid;

static void on_chld(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	chld_count++;
	chld_code = si->si_code;
	chld_pid = si->si_pid;
	chld_status = si->si_status;
}

static void sigchld(void)
{
	struct sigaction sa;
	sigset_t block, none;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &block, NULL);

	chld_count = 0;
	pid = fork();
	if (pid == 0)
		_exit(9);
	while (!chld_count)
		sigsuspend(&none);
	el_expect("sigchld.exited",
		  chld_count == 1 && chld_code == CLD_EXITED && chld_pid == pid && chld_status == 9,
		  "%d SIGCHLDs, code %d pid %d (want %d) status %d", chld_count, chld_code, chld_pid,
		  pid, chld_status);
	fc_wait(pid);

	chld_count = 0;
	pid = fork();
	if (pid == 0) {
		fc_nap_ms(10000);
		_exit(0);
	}
	kill(pid, SIGKILL);
	while (!chld_count)
		sigsuspend(&none);
	el_expect("sigchld.killed",
		  chld_count == 1 && chld_code == CLD_KILLED && chld_pid == pid &&
			  chld_status == SIGKILL,
		  "%d SIGCHLDs, code %d pid %d status %d", chld_count, chld_code, chld_pid,
		  chld_status);
	fc_wait(pid);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	signal(SIGCHLD, SIG_DFL);
}

void fc_wait_group(void)
{
	many();
	nohang_and_echild();
	wait4_rusage();
	waitid_forms();
	sigchld();
}
