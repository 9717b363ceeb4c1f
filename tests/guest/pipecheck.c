/*
 * pipecheck: pipe(2) and pipe2(2) as Linux has them (pipe(7)).
 *   pipecheck                    every check
 *   pipecheck --exec-probe A B   (internal) after exec: A must be closed, B open
 *
 * Checked: both ends' modes (S_IFIFO, O_RDONLY/O_WRONLY, F_GETPIPE_SZ
 * 65536), a non-blocking pipe holding exactly 65536 bytes (FIONREAD),
 * EAGAIN both ways, 0-byte transfers, EBADF on the wrong end and ESPIPE,
 * pipe2's flags (O_CLOEXEC, O_NONBLOCK, EINVAL), a 1000-round ping-pong
 * between parent and child, EOF only once every write end is closed (dup
 * and fork copies included), EPIPE with SIGPIPE from the writer to itself
 * (SI_USER, its own pid) and death by SIGPIPE by default, a write larger
 * than the pipe that blocks until read, 4096-byte writes from two writers
 * that never interleave, a signal ending a blocked read with EINTR or, with
 * SA_RESTART, restarting it, and O_CLOEXEC closing across exec.
 * Runs on a Linux host too.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#ifndef F_GETPIPE_SZ
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif
#define PIPE_CAPACITY 65536
#define PINGS 1000
#define BIG_WRITE 200000
#define ATOMIC_WRITES 64

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Reads exactly len bytes unless EOF or an error comes first: bytes read. */
static size_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		if (n > 0)
			done += (size_t)n;
	}
	return done;
}

/* The child's exit status as "exit N" / "signal N" for the reasons. */
static int wait_child(pid_t pid)
{
	int st = -1;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void check_modes(void)
{
	int p[2], r = pipe(p);
	struct stat sr, sw;

	if (!el_expect("pipe", r == 0, "pipe: %s", strerror(errno)))
		return;
	el_expect("fstat_fifo", fstat(p[0], &sr) == 0 && fstat(p[1], &sw) == 0 &&
		  S_ISFIFO(sr.st_mode) && S_ISFIFO(sw.st_mode) && sr.st_ino == sw.st_ino,
		  "modes %o %o, inodes %lu %lu", sr.st_mode, sw.st_mode,
		  (unsigned long)sr.st_ino, (unsigned long)sw.st_ino);
	el_expect("getfl_ends", (fcntl(p[0], F_GETFL) & O_ACCMODE) == O_RDONLY &&
		  (fcntl(p[1], F_GETFL) & O_ACCMODE) == O_WRONLY,
		  "F_GETFL %#x %#x", fcntl(p[0], F_GETFL), fcntl(p[1], F_GETFL));
	el_expect("getpipe_sz", fcntl(p[0], F_GETPIPE_SZ) == PIPE_CAPACITY &&
		  fcntl(p[1], F_GETPIPE_SZ) == PIPE_CAPACITY, "F_GETPIPE_SZ %d",
		  fcntl(p[0], F_GETPIPE_SZ));
	el_expect("setpipe_sz_same", fcntl(p[1], F_SETPIPE_SZ, PIPE_CAPACITY) == PIPE_CAPACITY,
		  "F_SETPIPE_SZ 65536: %s", strerror(errno));
	errno = 0;
	el_expect("getpipe_sz_not_pipe", fcntl(1 << 10, F_GETPIPE_SZ) == -1 && errno == EBADF,
		  "errno %d", errno);
	errno = 0;
	el_expect("write_read_end", write(p[0], "x", 1) == -1 && errno == EBADF, "errno %d", errno);
	errno = 0;
	el_expect("read_write_end", read(p[1], &sr, 1) == -1 && errno == EBADF, "errno %d", errno);
	errno = 0;
	el_expect("lseek_espipe", lseek(p[0], 0, SEEK_SET) == -1 && errno == ESPIPE,
		  "errno %d", errno);
	el_expect("zero_write", write(p[1], "", 0) == 0, "%s", strerror(errno));
	el_expect("write_read_back", write(p[1], "hello", 5) == 5 &&
		  read(p[0], &sr, sizeof(sr)) == 5 && !memcmp(&sr, "hello", 5),
		  "hello did not come back");
	el_expect("zero_read", read(p[0], &sr, 0) == 0, "%s", strerror(errno));
	close(p[0]);
	close(p[1]);
}

static void check_pipe2_flags(void)
{
	int p[2], q[2], r = pipe2(p, O_CLOEXEC | O_NONBLOCK);

	if (!el_expect("pipe2_flags", r == 0, "%s", strerror(errno)))
		return;
	el_expect("pipe2_cloexec", fcntl(p[0], F_GETFD) == FD_CLOEXEC &&
		  fcntl(p[1], F_GETFD) == FD_CLOEXEC, "F_GETFD %d %d",
		  fcntl(p[0], F_GETFD), fcntl(p[1], F_GETFD));
	el_expect("pipe2_nonblock", (fcntl(p[0], F_GETFL) & O_NONBLOCK) &&
		  (fcntl(p[1], F_GETFL) & O_NONBLOCK), "F_GETFL %#x %#x",
		  fcntl(p[0], F_GETFL), fcntl(p[1], F_GETFL));
	close(p[0]);
	close(p[1]);
	errno = 0;
	el_expect("pipe2_einval", pipe2(q, O_APPEND) == -1 && errno == EINVAL, "errno %d", errno);
}

/* A non-blocking pipe takes exactly its capacity, then EAGAIN; empty, a read is EAGAIN. */
static void check_capacity(void)
{
	static char buf[4096];
	int p[2], avail = -1;
	long total = 0;
	ssize_t n;

	if (pipe2(p, O_NONBLOCK)) {
		el_fail("capacity", "pipe2: %s", strerror(errno));
		return;
	}
	errno = 0;
	el_expect("read_empty_eagain", read(p[0], buf, 1) == -1 && errno == EAGAIN,
		  "errno %d", errno);
	memset(buf, 'c', sizeof(buf));
	while ((n = write(p[1], buf, sizeof(buf))) > 0)
		total += n;
	el_expect("capacity_65536", total == PIPE_CAPACITY && errno == EAGAIN,
		  "took %ld bytes, then errno %d", total, errno);
	el_expect("fionread_full", ioctl(p[0], FIONREAD, &avail) == 0 && avail == PIPE_CAPACITY,
		  "FIONREAD %d", avail);
	errno = 0;
	el_expect("write_full_eagain", write(p[1], buf, 1) == -1 && errno == EAGAIN,
		  "errno %d", errno);
	total = 0;
	while ((n = read(p[0], buf, 1000)) > 0)
		total += n;
	el_expect("drain_all", total == PIPE_CAPACITY && errno == EAGAIN,
		  "read back %ld bytes, then errno %d", total, errno);
	close(p[0]);
	close(p[1]);
}

static void check_ping_pong(void)
{
	int to_child[2], to_parent[2], i, bad = 0, st;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent)) {
		el_fail("ping_pong", "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		int v;

		close(to_child[1]);
		close(to_parent[0]);
		while (read_full(to_child[0], &v, sizeof(v)) == sizeof(v)) {
			v++;
			if (write(to_parent[1], &v, sizeof(v)) != sizeof(v))
				_exit(2);
		}
		_exit(0); /* EOF: the parent closed its end */
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (i = 0; i < PINGS && pid > 0; i++) {
		int v = i * 2;

		if (write(to_child[1], &v, sizeof(v)) != sizeof(v) ||
		    read_full(to_parent[0], &v, sizeof(v)) != sizeof(v) || v != i * 2 + 1) {
			bad = 1;
			break;
		}
	}
	close(to_child[1]);
	st = pid > 0 ? wait_child(pid) : -1;
	el_expect("ping_pong", !bad && i == PINGS && st == 0,
		  "round %d of %d, child status %#x", i, PINGS, st);
	close(to_parent[0]);
}

/* EOF comes only once every write end is closed: a dup and a child's copy hold it open. */
static void check_eof(void)
{
	char buf[8];
	int p[2], w2, st;
	pid_t pid;

	if (pipe(p)) {
		el_fail("eof", "pipe: %s", strerror(errno));
		return;
	}
	w2 = dup(p[1]);
	close(p[1]);
	pid = fork();
	if (pid == 0) {
		sleep_ms(20);
		_exit(write(w2, "abc", 3) == 3 ? 0 : 1);
	}
	close(w2);
	el_expect("eof_after_data", read_full(p[0], buf, 3) == 3 && !memcmp(buf, "abc", 3),
		  "the child's bytes did not come");
	el_expect("eof_zero", read(p[0], buf, sizeof(buf)) == 0, "read after last writer: %s",
		  strerror(errno));
	st = pid > 0 ? wait_child(pid) : -1;
	el_expect("eof_child", st == 0, "child status %#x", st);
	close(p[0]);
}

static volatile sig_atomic_t sigpipe_seen, sigpipe_code, sigpipe_pid;

static void on_sigpipe(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	sigpipe_seen = sig;
	sigpipe_code = si->si_code;
	sigpipe_pid = si->si_pid;
}

static void check_epipe(void)
{
	struct sigaction sa, old;
	int p[2], st;
	pid_t pid;
	ssize_t n;

	if (pipe(p)) {
		el_fail("epipe", "pipe: %s", strerror(errno));
		return;
	}
	close(p[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigpipe;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGPIPE, &sa, &old);
	errno = 0;
	n = write(p[1], "x", 1);
	el_expect("epipe", n == -1 && errno == EPIPE, "write returned %zd, errno %d", n, errno);
	el_expect("sigpipe_handler", sigpipe_seen == SIGPIPE && sigpipe_code == SI_USER &&
		  sigpipe_pid == getpid(), "signal %d code %d pid %d (self %d)",
		  (int)sigpipe_seen, (int)sigpipe_code, (int)sigpipe_pid, (int)getpid());
	sigaction(SIGPIPE, &old, 0);
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		(void)!write(p[1], "x", 1);
		_exit(0);
	}
	st = pid > 0 ? wait_child(pid) : -1;
	el_expect("sigpipe_kills", st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE,
		  "child status %#x", st);
	close(p[1]);
}

/* One write larger than the pipe sleeps until the reader makes room, and moves it all. */
static void check_big_write(void)
{
	static unsigned char buf[BIG_WRITE];
	int p[2], st;
	size_t i, got;
	pid_t pid;

	if (pipe(p)) {
		el_fail("big_write", "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < BIG_WRITE; i++)
			buf[i] = (unsigned char)(i * 7 + 3);
		close(p[0]);
		_exit(write(p[1], buf, BIG_WRITE) == BIG_WRITE ? 0 : 1);
	}
	close(p[1]);
	sleep_ms(20); /* let the writer fill the pipe and sleep */
	memset(buf, 0, sizeof(buf));
	got = read_full(p[0], buf, BIG_WRITE);
	for (i = 0; i < got && buf[i] == (unsigned char)(i * 7 + 3); i++)
		;
	st = pid > 0 ? wait_child(pid) : -1;
	el_expect("big_write", got == BIG_WRITE && i == got && st == 0,
		  "read %zu of %d bytes, first wrong at %zu, writer status %#x", got, BIG_WRITE, i, st);
	close(p[0]);
}

/* Two writers of 4096-byte records: the stream is whole records, never mixed. */
static void check_atomic(void)
{
	static char rec[4096], all[2 * ATOMIC_WRITES * 4096];
	int p[2], w, st[2], mixed = -1, count[2] = {0, 0};
	pid_t pid[2];
	size_t got, r;

	if (pipe(p)) {
		el_fail("atomic", "pipe: %s", strerror(errno));
		return;
	}
	for (w = 0; w < 2; w++) {
		pid[w] = fork();
		if (pid[w] == 0) {
			int i;

			close(p[0]);
			memset(rec, 'a' + w, sizeof(rec));
			for (i = 0; i < ATOMIC_WRITES; i++)
				if (write(p[1], rec, sizeof(rec)) != sizeof(rec))
					_exit(1);
			_exit(0);
		}
	}
	close(p[1]);
	got = read_full(p[0], all, sizeof(all));
	for (r = 0; r + sizeof(rec) <= got; r += sizeof(rec)) {
		size_t j;

		for (j = 1; j < sizeof(rec) && all[r + j] == all[r]; j++)
			;
		if (j < sizeof(rec) || (all[r] != 'a' && all[r] != 'b')) {
			mixed = (int)(r / sizeof(rec));
			break;
		}
		count[all[r] - 'a']++;
	}
	for (w = 0; w < 2; w++)
		st[w] = pid[w] > 0 ? wait_child(pid[w]) : -1;
	el_expect("atomic_4096", got == sizeof(all) && mixed < 0 && count[0] == ATOMIC_WRITES &&
		  count[1] == ATOMIC_WRITES && st[0] == 0 && st[1] == 0,
		  "read %zu bytes, mixed record %d, records %d+%d, writers %#x %#x", got, mixed,
		  count[0], count[1], st[0], st[1]);
	close(p[0]);
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/* A child signals the parent blocked in read, then (restart) writes one byte. */
static void check_interrupt(bool restart)
{
	const char *name = restart ? "read_sa_restart" : "read_eintr";
	struct sigaction sa;
	char c = 0;
	int p[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe(p)) {
		el_fail(name, "pipe: %s", strerror(errno));
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, 0);
	usr1_seen = 0;
	pid = fork();
	if (pid == 0) {
		sleep_ms(50);
		kill(getppid(), SIGUSR1);
		sleep_ms(50);
		_exit(write(p[1], "r", 1) == 1 ? 0 : 1);
	}
	errno = 0;
	n = read(p[0], &c, 1);
	if (restart)
		el_expect(name, n == 1 && c == 'r' && usr1_seen == 1,
			  "read returned %zd (errno %d), handler ran %d times", n, errno, (int)usr1_seen);
	else
		el_expect(name, n == -1 && errno == EINTR && usr1_seen == 1,
			  "read returned %zd (errno %d), handler ran %d times", n, errno, (int)usr1_seen);
	st = pid > 0 ? wait_child(pid) : -1;
	el_expect(restart ? "read_sa_restart_child" : "read_eintr_child", st == 0,
		  "child status %#x", st);
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

/* After exec, descriptor a (O_CLOEXEC) must be gone and b still open. */
static int exec_probe(int a, int b)
{
	int ok_a = fcntl(a, F_GETFD) == -1 && errno == EBADF;
	int ok_b = fcntl(b, F_GETFD) == 0;

	return ok_a && ok_b ? 0 : 1;
}

static void check_cloexec_exec(const char *self)
{
	int c[2], k[2], st;
	pid_t pid;

	if (pipe2(c, O_CLOEXEC) || pipe(k)) {
		el_fail("cloexec_exec", "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char a[16], b[16];

		snprintf(a, sizeof(a), "%d", c[1]);
		snprintf(b, sizeof(b), "%d", k[1]);
		execl("/proc/self/exe", self, "--exec-probe", a, b, (char *)0);
		execl(self, self, "--exec-probe", a, b, (char *)0);
		_exit(127);
	}
	st = pid > 0 ? wait_child(pid) : -1;
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		el_skip("cloexec_exec", "could not exec %s or /proc/self/exe", self);
	else
		el_expect("cloexec_exec", st == 0, "probe status %#x (O_CLOEXEC end open, or the "
			  "plain end closed, after exec)", st);
	close(c[0]);
	close(c[1]);
	close(k[0]);
	close(k[1]);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--exec-probe"))
		return exec_probe(atoi(argv[2]), atoi(argv[3]));
	if (argc != 1) {
		fprintf(stderr, "usage: pipecheck (no arguments)\n");
		return 2;
	}
	check_modes();
	check_pipe2_flags();
	check_capacity();
	check_ping_pong();
	check_eof();
	check_epipe();
	check_big_write();
	check_atomic();
	check_interrupt(false);
	check_interrupt(true);
	check_cloexec_exec(argv[0]);
	return el_summary("pipecheck");
}
