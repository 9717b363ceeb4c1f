/*
 * filecheck: file locks.  fcntl's POSIX record locks (byte ranges, shared
 * and exclusive, F_GETLK's answer, splitting, l_len < 0, F_SETLKW waiting
 * and EINTR, EDEADLK, release at any close of the file and at exit), the
 * OFD variants (owned by the open file: two opens in one process
 * conflict, l_pid -1), and flock (whole file, per open file, LOCK_NB,
 * shared with dup, independent of fcntl locks).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "filecheck.h"

#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif

static int lk(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock f = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};

	return fcntl(fd, cmd, &f);
}

/* F_GETLK (or F_OFD_GETLK) for type over [start, start + len): the answer in *f. */
static int getlk(int fd, int cmd, short type, off_t start, off_t len, struct flock *f)
{
	*f = (struct flock){.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
	return fcntl(fd, cmd, f);
}

static bool busy(int r)
{
	return r == -1 && (errno == EAGAIN || errno == EACCES);
}

/* Runs fn(fd) in a child: true when it returned true. */
static bool in_child(bool (*fn)(int fd), int fd)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(fd) ? 0 : 1);
	return pid > 0 && fc_wait(pid) == 0;
}

static pid_t parent;

static bool child_sees_write_lock(int fd)
{
	struct flock f = {0};

	return getlk(fd, F_GETLK, F_WRLCK, 50, 10, &f) == 0 && f.l_type == F_WRLCK &&
	       f.l_pid == parent && f.l_start == 0 && f.l_len == 100 &&
	       busy(lk(fd, F_SETLK, F_WRLCK, 0, 10)) && busy(lk(fd, F_SETLK, F_RDLCK, 99, 1)) &&
	       lk(fd, F_SETLK, F_WRLCK, 100, 10) == 0;
}

static bool child_shares_read_lock(int fd)
{
	return lk(fd, F_SETLK, F_RDLCK, 0, 100) == 0 && busy(lk(fd, F_SETLK, F_WRLCK, 10, 1));
}

static bool child_sees_split(int fd)
{
	return lk(fd, F_SETLK, F_WRLCK, 45, 5) == 0 && busy(lk(fd, F_SETLK, F_WRLCK, 30, 5)) &&
	       busy(lk(fd, F_SETLK, F_WRLCK, 70, 5));
}

static bool child_sees_negative_len(int fd)
{
	struct flock f = {0};

	return getlk(fd, F_GETLK, F_WRLCK, 60, 1, &f) == 0 && f.l_type == F_WRLCK &&
	       f.l_start == 50 && f.l_len == 50 && lk(fd, F_SETLK, F_WRLCK, 100, 1) == 0;
}

static bool child_sees_nothing(int fd)
{
	struct flock f = {0};

	return getlk(fd, F_GETLK, F_WRLCK, 0, 0, &f) == 0 && f.l_type == F_UNLCK;
}

static void check_posix(int fd)
{
	struct flock f = {0};
	int fd2;

	parent = getpid();
	el_expect("setlk", lk(fd, F_SETLK, F_WRLCK, 0, 100) == 0, "%s", strerror(errno));
	el_expect("getlk_own_lock_no_conflict", getlk(fd, F_GETLK, F_WRLCK, 0, 10, &f) == 0 &&
		  f.l_type == F_UNLCK, "type %d", f.l_type);
	el_expect("setlk_conflict_in_child", in_child(child_sees_write_lock, fd),
		  "the child did not see the write lock as Linux shows it");
	el_expect("setlk_downgrade_shared", lk(fd, F_SETLK, F_RDLCK, 0, 100) == 0 &&
		  in_child(child_shares_read_lock, fd), "a read lock was not shared");
	lk(fd, F_SETLK, F_WRLCK, 0, 100);
	el_expect("unlock_splits", lk(fd, F_SETLK, F_UNLCK, 40, 20) == 0 &&
		  in_child(child_sees_split, fd), "unlocking the middle did not split the lock");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	el_expect("negative_len", lk(fd, F_SETLK, F_WRLCK, 100, -50) == 0 &&
		  in_child(child_sees_negative_len, fd), "l_len -50 at 100 is not [50, 100)");
	fd2 = open("lockfile", O_RDONLY);
	el_expect("close_any_fd_releases", close(fd2) == 0 && in_child(child_sees_nothing, fd),
		  "closing another descriptor of the file kept the lock");
	errno = 0;
	el_expect("setlk_einval", lk(fd, F_SETLK, 7, 0, 1) == -1 && errno == EINVAL,
		  "errno %d", errno);
	fd2 = open("lockfile", O_RDONLY);
	errno = 0;
	el_expect("setlk_write_on_rdonly_ebadf", lk(fd2, F_SETLK, F_WRLCK, 0, 1) == -1 &&
		  errno == EBADF, "errno %d", errno);
	close(fd2);
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
}

static bool child_locks_and_exits(int fd)
{
	return lk(fd, F_SETLK, F_WRLCK, 0, 0) == 0;
}

static void on_signal(int sig)
{
	(void)sig;
}

/*
 * A signal (its handler without SA_RESTART) ends a blocked F_SETLKW with
 * EINTR: the child blocks on the parent's lock, the parent sends SIGUSR1.
 */
static void check_setlkw_eintr(int fd)
{
	int pfd[2], st;
	pid_t pid;
	char c;

	if (pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		struct sigaction sa = {.sa_handler = on_signal};

		sigaction(SIGUSR1, &sa, NULL);
		close(pfd[0]);
		write(pfd[1], "r", 1);
		_exit(lk(fd, F_SETLKW, F_WRLCK, 0, 1) == -1 && errno == EINTR ? 0 : 1);
	}
	close(pfd[1]);
	read(pfd[0], &c, 1);
	close(pfd[0]);
	fc_sleep_ms(100);
	kill(pid, SIGUSR1);
	st = fc_wait(pid);
	el_expect("setlkw_eintr", st == 0, "child status %#x", st);
}

static void check_blocking(int fd)
{
	struct timespec t0, t1;
	int st, pfd[2];
	pid_t pid;
	char c;

	el_expect("exit_releases", in_child(child_locks_and_exits, fd) &&
		  lk(fd, F_SETLK, F_WRLCK, 0, 0) == 0, "the dead child's lock stayed");
	check_setlkw_eintr(fd);
	if (pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		write(pfd[1], "r", 1);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (lk(fd, F_SETLKW, F_WRLCK, 0, 1))
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		_exit((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 50 ? 0
											   : 2);
	}
	close(pfd[1]);
	read(pfd[0], &c, 1);
	close(pfd[0]);
	fc_sleep_ms(150);
	el_expect("setlkw_waits", pid > 0 && waitpid(pid, &st, WNOHANG) == 0,
		  "the child did not wait for the lock");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	st = fc_wait(pid);
	el_expect("setlkw_gets_lock_on_unlock", st == 0, "child status %#x", st);
}

/* Parent holds [0,1), child [1,2); the child waits for [0,1), the parent's wait for [1,2) would deadlock. */
static void check_deadlock(int fd)
{
	int pfd[2], st;
	pid_t pid;
	char c;

	if (pipe(pfd))
		return;
	lk(fd, F_SETLK, F_WRLCK, 0, 1);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		lk(fd, F_SETLK, F_WRLCK, 1, 1);
		write(pfd[1], "r", 1);
		_exit(lk(fd, F_SETLKW, F_WRLCK, 0, 1) == 0 ? 0 : 1);
	}
	close(pfd[1]);
	read(pfd[0], &c, 1);
	close(pfd[0]);
	fc_sleep_ms(100);
	errno = 0;
	el_expect("setlkw_edeadlk", lk(fd, F_SETLKW, F_WRLCK, 1, 1) == -1 && errno == EDEADLK,
		  "errno %d", errno);
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	st = fc_wait(pid);
	el_expect("deadlock_resolves", st == 0, "child status %#x", st);
}

static void check_ofd(void)
{
	int a = open("lockfile", O_RDWR), b = open("lockfile", O_RDWR);
	struct flock f = {0};

	el_expect("ofd_setlk", lk(a, F_OFD_SETLK, F_WRLCK, 0, 10) == 0, "%s", strerror(errno));
	el_expect("ofd_conflict_same_process", busy(lk(b, F_OFD_SETLK, F_WRLCK, 5, 1)),
		  "two opens of one process did not conflict");
	el_expect("ofd_getlk_pid", getlk(b, F_OFD_GETLK, F_RDLCK, 0, 1, &f) == 0 &&
		  f.l_type == F_WRLCK && f.l_pid == -1, "type %d pid %d", f.l_type, (int)f.l_pid);
	el_expect("ofd_blocks_posix", busy(lk(b, F_SETLK, F_RDLCK, 0, 1)),
		  "a POSIX lock passed an OFD lock");
	f = (struct flock){.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_pid = 1};
	errno = 0;
	el_expect("ofd_pid_einval", fcntl(b, F_OFD_SETLK, &f) == -1 && errno == EINVAL,
		  "errno %d", errno);
	el_expect("ofd_released_at_close", close(a) == 0 && lk(b, F_OFD_SETLK, F_WRLCK, 0, 10) == 0,
		  "%s", strerror(errno));
	close(b);
}

static void check_flock(void)
{
	int a = open("lockfile", O_RDWR), b = open("lockfile", O_RDWR), c;

	el_expect("flock_ex", flock(a, LOCK_EX) == 0, "%s", strerror(errno));
	errno = 0;
	el_expect("flock_nb_ewouldblock", flock(b, LOCK_EX | LOCK_NB) == -1 &&
		  errno == EWOULDBLOCK && flock(b, LOCK_SH | LOCK_NB) == -1, "errno %d", errno);
	el_expect("flock_independent_of_fcntl", lk(b, F_SETLK, F_WRLCK, 0, 0) == 0,
		  "%s", strerror(errno));
	lk(b, F_SETLK, F_UNLCK, 0, 0);
	c = dup(a);
	el_expect("flock_dup_shares", flock(c, LOCK_UN) == 0 && flock(b, LOCK_SH | LOCK_NB) == 0,
		  "unlocking through a dup did not release it");
	el_expect("flock_shared", flock(a, LOCK_SH | LOCK_NB) == 0, "%s", strerror(errno));
	errno = 0;
	el_expect("flock_convert_blocked", flock(a, LOCK_EX | LOCK_NB) == -1 &&
		  errno == EWOULDBLOCK, "errno %d", errno);
	errno = 0;
	el_expect("flock_einval", flock(a, 0) == -1 && errno == EINVAL, "errno %d", errno);
	close(b);
	el_expect("flock_close_releases", flock(a, LOCK_EX | LOCK_NB) == 0, "%s", strerror(errno));
	close(a);
	close(c);
}

void filecheck_lock(void)
{
	int fd = open("lockfile", O_CREAT | O_RDWR, 0644);

	if (!el_expect("lock_open", fd >= 0, "%s", strerror(errno)))
		return;
	check_posix(fd);
	check_blocking(fd);
	check_deadlock(fd);
	check_ofd();
	check_flock();
	close(fd);
}
