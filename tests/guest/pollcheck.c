/*
 * pollcheck: waiting on many files, and FIFOs, as Linux has them.
 *
 * poll: a pipe's POLLIN/POLLOUT/POLLHUP/POLLERR (POLLOUT gone when full,
 * back with PIPE_BUF bytes of room), POLLNVAL for a closed fd, a negative
 * fd skipped, EINVAL past RLIMIT_NOFILE, a timeout that waits, a wake by
 * another process, EINTR even with SA_RESTART.  ppoll: its sigmask for the
 * wait only (the old one back after the handler), the time left written
 * back, EINVAL for a bad sigset size or timespec.  select/pselect6: the
 * sets rewritten, EBADF for a closed fd, EINVAL for nfds < 0 or a negative
 * timeout, the timeval written back, readable at EOF, pselect6's sigmask.
 * epoll: epoll_create's and epoll_create1's EINVALs and EPOLL_CLOEXEC,
 * epoll_ctl's EPERM/EINVAL/EEXIST/ENOENT/EBADF/ELOOP, level-triggered,
 * EPOLLET, EPOLLONESHOT and re-arming by MOD, data returned verbatim, an
 * epoll fd polled, an entry kept while a dup of its file is open and gone
 * with the last close, maxevents' EINVAL, a timeout, a wake, EINTR,
 * epoll_pwait2's timespec.  FIFOs: mknod's types and errors, ENXIO for a
 * non-blocking writer without reader, a blocking open that waits for the
 * other end, the data path, EOF, POLLHUP only once a writer has come and
 * gone, O_RDWR opening at once.
 * Runs on a Linux host too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define PIPE_CAPACITY 65536
#define EPOLL_DATA 0x1122334455667788ull

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

static int wait_child(pid_t pid)
{
	int st = -1;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/* A child that writes one byte to fd after ms, then exits. */
static pid_t write_later(int fd, long ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		sleep_ms(ms);
		_exit(write(fd, "w", 1) == 1 ? 0 : 1);
	}
	return pid;
}

/* A child that sends SIGUSR1 to the parent after ms. */
static pid_t signal_later(long ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		sleep_ms(ms);
		_exit(kill(parent, SIGUSR1) ? 1 : 0);
	}
	return pid;
}

static void handle_usr1(bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, 0);
	usr1_seen = 0;
}

static short revents_of(int fd, short events)
{
	struct pollfd p = {fd, events, 0};

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

/* --- poll --- */

static void check_poll_pipe(void)
{
	int p[2];
	char buf[4096];
	short r;

	if (!el_expect("poll_pipe", pipe2(p, O_NONBLOCK) == 0, "pipe2: %s", strerror(errno)))
		return;
	el_expect("poll_empty", revents_of(p[0], POLLIN | POLLOUT) == 0 &&
				       revents_of(p[1], POLLIN | POLLOUT) == POLLOUT,
		  "read end %#x, write end %#x", revents_of(p[0], POLLIN | POLLOUT),
		  revents_of(p[1], POLLIN | POLLOUT));
	(void)!write(p[1], "x", 1);
	r = revents_of(p[0], POLLIN | POLLRDNORM | POLLOUT);
	el_expect("poll_data", r == (POLLIN | POLLRDNORM), "revents %#x", r);
	memset(buf, 'f', sizeof(buf));
	while (write(p[1], buf, sizeof(buf)) > 0)
		;
	r = revents_of(p[1], POLLOUT);
	el_expect("poll_full_no_pollout", r == 0, "revents %#x on a full pipe", r);
	(void)!read(p[0], buf, sizeof(buf));
	r = revents_of(p[1], POLLOUT | POLLWRNORM);
	el_expect("poll_room_pollout", r == (POLLOUT | POLLWRNORM), "revents %#x after a 4096-byte read",
		  r);
	close(p[1]);
	r = revents_of(p[0], POLLIN);
	el_expect("poll_hup_with_data", r == (POLLIN | POLLHUP), "revents %#x", r);
	while (read(p[0], buf, sizeof(buf)) > 0)
		;
	r = revents_of(p[0], 0);
	el_expect("poll_hup_empty", r == POLLHUP, "revents %#x (events 0: POLLHUP all the same)", r);
	close(p[0]);

	if (pipe(p))
		return;
	signal(SIGPIPE, SIG_IGN);
	close(p[0]);
	r = revents_of(p[1], POLLOUT);
	el_expect("poll_err", r == (POLLOUT | POLLERR), "revents %#x on a write end without reader", r);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

static void check_poll_args(void)
{
	struct pollfd fds[3];
	struct pollfd *many = calloc(100000, sizeof(*many));
	int p[2], n, closed;

	if (pipe(p))
		return;
	close(p[1]);
	closed = dup(p[0]);
	close(closed);
	fds[0] = (struct pollfd){-1, POLLIN, 0x7f};
	fds[1] = (struct pollfd){p[0], POLLIN, 0};
	fds[2] = (struct pollfd){closed, POLLIN, 0};
	n = poll(fds, 3, 0);
	el_expect("poll_negative_nval", n == 2 && fds[0].revents == 0 && fds[1].revents == POLLHUP &&
						fds[2].revents == POLLNVAL,
		  "poll %d: revents %#x %#x %#x", n, fds[0].revents, fds[1].revents, fds[2].revents);
	close(p[0]);
	errno = 0;
	n = many ? poll(many, 100000, 0) : -2;
	el_expect("poll_nfds_einval", n == -1 && errno == EINVAL,
		  "poll of 100000 entries: %d (%s), want EINVAL (past RLIMIT_NOFILE)", n, strerror(errno));
	free(many);
}

static void check_poll_wait(void)
{
	struct pollfd fd;
	long long t0;
	int p[2], n, st;
	pid_t pid;

	if (pipe(p))
		return;
	fd = (struct pollfd){p[0], POLLIN, 0};
	t0 = now_ms();
	n = poll(&fd, 1, 100);
	el_expect("poll_timeout", n == 0 && now_ms() - t0 >= 90, "poll %d after %lld ms", n,
		  now_ms() - t0);
	pid = write_later(p[1], 50);
	n = poll(&fd, 1, -1);
	st = wait_child(pid);
	el_expect("poll_woken", n == 1 && fd.revents == POLLIN && st == 0,
		  "poll %d revents %#x, child %#x", n, fd.revents, st);

	handle_usr1(true);
	(void)!read(p[0], &n, 1);
	pid = signal_later(50);
	errno = 0;
	n = poll(&fd, 1, -1);
	st = wait_child(pid);
	el_expect("poll_eintr_sa_restart", n == -1 && errno == EINTR && usr1_seen == 1 && st == 0,
		  "poll %d (%s), handler ran %d times: poll is not restarted after a handler", n,
		  strerror(errno), (int)usr1_seen);
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

/* --- ppoll and pselect6: the mask swapped for the wait only --- */

static bool usr1_blocked(void)
{
	sigset_t cur;

	sigprocmask(SIG_SETMASK, 0, &cur);
	return sigismember(&cur, SIGUSR1);
}

static void check_ppoll(void)
{
	struct pollfd fd;
	struct timespec ts;
	sigset_t block, empty;
	uint64_t raw = 0;
	int p[2], n, st;
	pid_t pid;

	if (pipe(p))
		return;
	fd = (struct pollfd){p[0], POLLIN, 0};
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	sigprocmask(SIG_BLOCK, &block, 0);
	handle_usr1(true);
	pid = signal_later(50);
	errno = 0;
	n = ppoll(&fd, 1, 0, &empty);
	st = wait_child(pid);
	el_expect("ppoll_mask", n == -1 && errno == EINTR && usr1_seen == 1 && usr1_blocked() && st == 0,
		  "ppoll %d (%s), handler ran %d times, SIGUSR1 blocked after: %d", n, strerror(errno),
		  (int)usr1_seen, usr1_blocked());

	/* A pending blocked signal stays pending while ppoll's mask blocks it too. */
	kill(getpid(), SIGUSR1);
	ts = (struct timespec){0, 20000000};
	n = ppoll(&fd, 1, &ts, &block);
	el_expect("ppoll_mask_keeps_blocked", n == 0 && usr1_seen == 1, "ppoll %d, handler ran %d times",
		  n, (int)usr1_seen);
	sigprocmask(SIG_UNBLOCK, &block, 0);
	el_expect("ppoll_pending_after", usr1_seen == 2, "handler ran %d times after unblocking",
		  (int)usr1_seen);

	errno = 0;
	n = (int)syscall(SYS_ppoll, &fd, 1, 0, &raw, 4);
	el_expect("ppoll_sigsetsize_einval", n == -1 && errno == EINVAL, "ppoll %d (%s)", n,
		  strerror(errno));
	ts = (struct timespec){0, 1000000000};
	errno = 0;
	n = (int)syscall(SYS_ppoll, &fd, 1, &ts, 0, 8);
	el_expect("ppoll_timespec_einval", n == -1 && errno == EINVAL, "ppoll %d (%s)", n,
		  strerror(errno));
	ts = (struct timespec){2, 0};
	pid = write_later(p[1], 50);
	n = (int)syscall(SYS_ppoll, &fd, 1, &ts, 0, 8);
	st = wait_child(pid);
	el_expect("ppoll_time_left", n == 1 && ts.tv_sec <= 1 && (ts.tv_sec == 1 || ts.tv_nsec > 0) &&
					     st == 0,
		  "ppoll %d, left %lld.%09ld of 2 s", n, (long long)ts.tv_sec, ts.tv_nsec);
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

static void check_select(void)
{
	fd_set rd, wr;
	struct timeval tv;
	struct timespec ts;
	sigset_t block, empty;
	int p[2], n, st, closed;
	pid_t pid;

	if (pipe(p))
		return;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &wr);
	tv = (struct timeval){0, 0};
	n = select(p[1] + 1, &rd, &wr, 0, &tv);
	el_expect("select_sets", n == 1 && !FD_ISSET(p[0], &rd) && FD_ISSET(p[1], &wr),
		  "select %d, read %d write %d", n, FD_ISSET(p[0], &rd), FD_ISSET(p[1], &wr));

	closed = dup(p[0]);
	close(closed);
	FD_ZERO(&rd);
	FD_SET(closed, &rd);
	errno = 0;
	n = select(closed + 1, &rd, 0, 0, &tv);
	el_expect("select_ebadf", n == -1 && errno == EBADF, "select %d (%s)", n, strerror(errno));
	errno = 0;
	n = select(-1, 0, 0, 0, &tv);
	el_expect("select_nfds_einval", n == -1 && errno == EINVAL, "select %d (%s)", n,
		  strerror(errno));
	tv = (struct timeval){-1, 0};
	errno = 0;
	n = (int)syscall(SYS_select, 0, 0, 0, 0, &tv);
	el_expect("select_timeout_einval", n == -1 && errno == EINVAL, "select %d (%s)", n,
		  strerror(errno));

	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv = (struct timeval){2, 0};
	pid = write_later(p[1], 50);
	n = (int)syscall(SYS_select, p[0] + 1, &rd, 0, 0, &tv);
	st = wait_child(pid);
	el_expect("select_time_left", n == 1 && FD_ISSET(p[0], &rd) && tv.tv_sec <= 1 &&
					      (tv.tv_sec == 1 || tv.tv_usec > 0) && st == 0,
		  "select %d, left %lld.%06ld of 2 s", n, (long long)tv.tv_sec, (long)tv.tv_usec);

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	sigprocmask(SIG_BLOCK, &block, 0);
	handle_usr1(true);
	(void)!read(p[0], &n, 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	pid = signal_later(50);
	errno = 0;
	n = pselect(p[0] + 1, &rd, 0, 0, 0, &empty);
	st = wait_child(pid);
	el_expect("pselect_mask", n == -1 && errno == EINTR && usr1_seen == 1 && usr1_blocked() && st == 0,
		  "pselect %d (%s), handler ran %d times, SIGUSR1 blocked after: %d", n, strerror(errno),
		  (int)usr1_seen, usr1_blocked());
	sigprocmask(SIG_UNBLOCK, &block, 0);
	signal(SIGUSR1, SIG_DFL);

	close(p[1]);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	ts = (struct timespec){0, 0};
	n = pselect(p[0] + 1, &rd, 0, 0, &ts, 0);
	el_expect("select_eof_readable", n == 1 && FD_ISSET(p[0], &rd), "pselect %d", n);
	close(p[0]);
}

/* --- epoll --- */

static int ep_wait(int ep, struct epoll_event *ev, int max, int ms)
{
	memset(ev, 0, sizeof(*ev) * (size_t)max);
	return epoll_wait(ep, ev, max, ms);
}

static void check_epoll_create(void)
{
	int ep, n;

	errno = 0;
	n = (int)syscall(SYS_epoll_create, 0); /* musl's wrapper does not pass size on */
	el_expect("epoll_create_size_einval", n == -1 && errno == EINVAL, "epoll_create(0) %d (%s)", n,
		  strerror(errno));
	errno = 0;
	n = epoll_create1(1);
	el_expect("epoll_create1_flags_einval", n == -1 && errno == EINVAL, "epoll_create1(1) %d (%s)",
		  n, strerror(errno));
	ep = epoll_create1(EPOLL_CLOEXEC);
	el_expect("epoll_create1_cloexec", ep >= 0 && fcntl(ep, F_GETFD) == FD_CLOEXEC,
		  "epoll_create1 %d, F_GETFD %d", ep, fcntl(ep, F_GETFD));
	close(ep);
	ep = epoll_create(1);
	el_expect("epoll_create", ep >= 0 && fcntl(ep, F_GETFD) == 0, "epoll_create %d", ep);
	close(ep);
}

static void check_epoll_ctl(void)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 1};
	char path[64];
	int ep = epoll_create1(0), ep2 = epoll_create1(0), p[2], reg, closed, n, e;

	if (ep < 0 || ep2 < 0 || pipe(p))
		return;
	snprintf(path, sizeof(path), "/tmp/pollcheck-reg-%d", (int)getpid());
	reg = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink(path);
	closed = dup(p[0]);
	close(closed);
#define CTL_ERR(name, call, want)                                                             \
	do {                                                                                  \
		errno = 0;                                                                    \
		n = (call);                                                                   \
		e = errno;                                                                    \
		el_expect(name, n == -1 && e == (want), "%d (%s), want %s", n, strerror(e), #want); \
	} while (0)
	CTL_ERR("epoll_ctl_regular_eperm", epoll_ctl(ep, EPOLL_CTL_ADD, reg, &ev), EPERM);
	CTL_ERR("epoll_ctl_self_einval", epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev), EINVAL);
	CTL_ERR("epoll_ctl_not_epoll_einval", epoll_ctl(p[0], EPOLL_CTL_ADD, p[1], &ev), EINVAL);
	CTL_ERR("epoll_ctl_closed_ebadf", epoll_ctl(ep, EPOLL_CTL_ADD, closed, &ev), EBADF);
	CTL_ERR("epoll_ctl_mod_enoent", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev), ENOENT);
	CTL_ERR("epoll_ctl_del_enoent", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], 0), ENOENT);
	CTL_ERR("epoll_ctl_op_einval", epoll_ctl(ep, 99, p[0], &ev), EINVAL);
	el_expect("epoll_ctl_add", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0, "%s", strerror(errno));
	CTL_ERR("epoll_ctl_add_eexist", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), EEXIST);
	el_expect("epoll_ctl_nest", epoll_ctl(ep, EPOLL_CTL_ADD, ep2, &ev) == 0, "%s", strerror(errno));
	CTL_ERR("epoll_ctl_loop_eloop", epoll_ctl(ep2, EPOLL_CTL_ADD, ep, &ev), ELOOP);
	el_expect("epoll_ctl_del", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], 0) == 0 &&
					   epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev) == -1 && errno == ENOENT,
		  "DEL then MOD: %s", strerror(errno));
#undef CTL_ERR
	close(reg);
	close(ep);
	close(ep2);
	close(p[0]);
	close(p[1]);
}

static void check_epoll_modes(void)
{
	struct epoll_event ev, out[4];
	struct pollfd pfd;
	int ep = epoll_create1(0), p[2], q[2], n1, n2, n3;

	if (ep < 0 || pipe(p) || pipe(q))
		return;
	ev = (struct epoll_event){.events = EPOLLIN, .data.u64 = EPOLL_DATA};
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	n1 = ep_wait(ep, out, 4, 0);
	(void)!write(p[1], "ab", 2);
	n2 = ep_wait(ep, out, 4, 0);
	el_expect("epoll_level", n1 == 0 && n2 == 1 && out[0].events == EPOLLIN &&
					 out[0].data.u64 == EPOLL_DATA && ep_wait(ep, out, 4, 0) == 1,
		  "before %d, after %d events %#x data %#llx", n1, n2, out[0].events,
		  (unsigned long long)out[0].data.u64);
	pfd = (struct pollfd){ep, POLLIN, 0};
	el_expect("epoll_fd_pollable", poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN, "revents %#x",
		  pfd.revents);
	epoll_ctl(ep, EPOLL_CTL_DEL, p[0], 0);
	el_expect("epoll_fd_not_ready", poll(&pfd, 1, 0) == 0, "revents %#x with nothing ready",
		  pfd.revents);

	ev = (struct epoll_event){.events = EPOLLIN | EPOLLET, .data.fd = q[0]};
	epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev);
	n1 = ep_wait(ep, out, 4, 0);
	(void)!write(q[1], "x", 1);
	n2 = ep_wait(ep, out, 4, 0);
	n3 = ep_wait(ep, out + 1, 3, 0);
	el_expect("epoll_edge", n1 == 0 && n2 == 1 && out[0].data.fd == q[0] && n3 == 0,
		  "before %d, after a write %d, again %d", n1, n2, n3);
	(void)!write(q[1], "y", 1);
	n1 = ep_wait(ep, out, 4, 0);
	el_expect("epoll_edge_new_event", n1 == 1, "a second write (data still there): %d", n1);
	(void)!write(p[1], "z", 1); /* another pipe's event is not ours */
	n1 = ep_wait(ep, out, 4, 0);
	el_expect("epoll_edge_own_file", n1 == 0, "after another pipe's write: %d", n1);
	epoll_ctl(ep, EPOLL_CTL_DEL, q[0], 0);

	ev = (struct epoll_event){.events = EPOLLIN | EPOLLONESHOT, .data.u32 = 7};
	epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev);
	n1 = ep_wait(ep, out, 4, 0);
	n2 = ep_wait(ep, out + 1, 3, 0);
	epoll_ctl(ep, EPOLL_CTL_MOD, q[0], &ev);
	n3 = ep_wait(ep, out + 2, 2, 0);
	el_expect("epoll_oneshot", n1 == 1 && out[0].data.u32 == 7 && n2 == 0 && n3 == 1,
		  "first %d, again %d, after MOD %d", n1, n2, n3);
	close(ep);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

static void check_epoll_close(void)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 5}, out[2];
	int ep = epoll_create1(0), p[2], copy, n1, n2;
	uint64_t data;

	if (ep < 0 || pipe(p))
		return;
	(void)!write(p[1], "x", 1);
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	copy = dup(p[0]);
	close(p[0]);
	n1 = ep_wait(ep, out, 2, 0);
	data = out[0].data.u64;
	close(copy);
	n2 = ep_wait(ep, out, 2, 0);
	el_expect("epoll_entry_lives_with_file", n1 == 1 && data == 5 && n2 == 0,
		  "with a dup open %d, after the last close %d", n1, n2);
	close(ep);
	close(p[1]);
}

static void check_epoll_wait(void)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 9}, out[2];
	struct timespec ts = {0, 0};
	sigset_t empty;
	long long t0;
	int ep = epoll_create1(0), p[2], n, st;
	pid_t pid;

	if (ep < 0 || pipe(p))
		return;
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	errno = 0;
	n = epoll_wait(ep, out, 0, 0);
	el_expect("epoll_wait_maxevents_einval", n == -1 && errno == EINVAL, "%d (%s)", n,
		  strerror(errno));
	errno = 0;
	n = epoll_wait(p[0], out, 1, 0);
	el_expect("epoll_wait_not_epoll_einval", n == -1 && errno == EINVAL, "%d (%s)", n,
		  strerror(errno));
	t0 = now_ms();
	n = epoll_wait(ep, out, 2, 100);
	el_expect("epoll_wait_timeout", n == 0 && now_ms() - t0 >= 90, "%d after %lld ms", n,
		  now_ms() - t0);
	pid = write_later(p[1], 50);
	n = ep_wait(ep, out, 2, -1);
	st = wait_child(pid);
	el_expect("epoll_wait_woken", n == 1 && out[0].data.u64 == 9 && st == 0, "%d, child %#x", n, st);
	(void)!read(p[0], &n, 1);

	handle_usr1(true);
	sigemptyset(&empty);
	pid = signal_later(50);
	errno = 0;
	n = epoll_pwait(ep, out, 2, -1, &empty);
	st = wait_child(pid);
	el_expect("epoll_pwait_eintr", n == -1 && errno == EINTR && usr1_seen == 1 && st == 0,
		  "%d (%s), handler ran %d times: never restarted", n, strerror(errno), (int)usr1_seen);
	signal(SIGUSR1, SIG_DFL);

	n = (int)syscall(SYS_epoll_pwait2, ep, out, 2, &ts, 0, 8);
	(void)!write(p[1], "x", 1);
	el_expect("epoll_pwait2", n == 0 && syscall(SYS_epoll_pwait2, ep, out, 2, &ts, 0, 8) == 1,
		  "empty %d (%s)", n, strerror(errno));
	close(ep);
	close(p[0]);
	close(p[1]);
}

/* --- FIFOs --- */

static void check_mknod(const char *dir)
{
	char path[96];
	struct stat st;
	int n;

	snprintf(path, sizeof(path), "%s/node", dir);
	n = mknod(path, S_IFREG | 0600, 0);
	el_expect("mknod_regular", n == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode),
		  "mknod S_IFREG: %s", strerror(errno));
	errno = 0;
	n = mknod(path, S_IFIFO | 0600, 0);
	el_expect("mknod_eexist", n == -1 && errno == EEXIST, "%d (%s)", n, strerror(errno));
	unlink(path);
	errno = 0;
	n = mknod(path, S_IFDIR | 0700, 0);
	el_expect("mknod_dir_eperm", n == -1 && errno == EPERM, "%d (%s)", n, strerror(errno));
	errno = 0;
	n = mknod(path, 0170000 | 0600, 0);
	el_expect("mknod_type_einval", n == -1 && errno == EINVAL, "%d (%s)", n, strerror(errno));
}

static void check_fifo(const char *dir)
{
	char path[96], buf[8];
	struct stat st;
	struct pollfd pfd;
	int rd, wr, n, status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	if (!el_expect("mkfifo", mkfifo(path, 0600) == 0 && stat(path, &st) == 0 && S_ISFIFO(st.st_mode),
		       "mkfifo: %s", strerror(errno)))
		return;
	errno = 0;
	wr = open(path, O_WRONLY | O_NONBLOCK);
	el_expect("fifo_nonblock_writer_enxio", wr == -1 && errno == ENXIO, "open %d (%s)", wr,
		  strerror(errno));
	rd = open(path, O_RDONLY | O_NONBLOCK);
	el_expect("fifo_nonblock_reader", rd >= 0, "open: %s", strerror(errno));
	pfd = (struct pollfd){rd, POLLIN, 0};
	n = poll(&pfd, 1, 0);
	el_expect("fifo_no_hup_before_writer", n == 0, "poll %d revents %#x (no writer came yet)", n,
		  pfd.revents);
	wr = open(path, O_WRONLY | O_NONBLOCK);
	el_expect("fifo_nonblock_writer", wr >= 0 && write(wr, "hi", 2) == 2 && read(rd, buf, 8) == 2,
		  "open %d: %s", wr, strerror(errno));
	close(wr);
	n = poll(&pfd, 1, 0);
	el_expect("fifo_hup_after_writer", n == 1 && pfd.revents == POLLHUP, "poll %d revents %#x", n,
		  pfd.revents);
	el_expect("fifo_eof", read(rd, buf, 8) == 0, "read after the writer left");
	close(rd);

	/* A blocking reader waits in open until a writer comes. */
	pid = fork();
	if (pid == 0) {
		sleep_ms(100);
		wr = open(path, O_WRONLY);
		_exit(wr >= 0 && write(wr, "data", 4) == 4 ? 0 : 1);
	}
	{
		long long t0 = now_ms();

		rd = open(path, O_RDONLY);
		el_expect("fifo_reader_waits", rd >= 0 && now_ms() - t0 >= 50,
			  "open %d after %lld ms (%s)", rd, now_ms() - t0, strerror(errno));
	}
	n = rd >= 0 ? (int)read(rd, buf, 8) : -1;
	status = wait_child(pid);
	el_expect("fifo_data", n == 4 && !memcmp(buf, "data", 4) && status == 0 &&
				       read(rd, buf, 8) == 0,
		  "read %d, child %#x", n, status);
	close(rd);

	/* A blocking writer waits for a reader. */
	pid = fork();
	if (pid == 0) {
		char c;

		sleep_ms(100);
		rd = open(path, O_RDONLY);
		_exit(rd >= 0 && read(rd, &c, 1) == 1 && c == 'w' ? 0 : 1);
	}
	{
		long long t0 = now_ms();

		wr = open(path, O_WRONLY);
		el_expect("fifo_writer_waits", wr >= 0 && now_ms() - t0 >= 50 && write(wr, "w", 1) == 1,
			  "open %d after %lld ms (%s)", wr, now_ms() - t0, strerror(errno));
	}
	status = wait_child(pid);
	el_expect("fifo_writer_child", status == 0, "child %#x", status);
	close(wr);

	rd = open(path, O_RDWR);
	el_expect("fifo_rdwr", rd >= 0 && write(rd, "r", 1) == 1 && read(rd, buf, 1) == 1,
		  "O_RDWR: %s", strerror(errno));
	close(rd);

	/* A signal ends a blocked open with EINTR (no SA_RESTART). */
	handle_usr1(false);
	pid = signal_later(50);
	errno = 0;
	rd = open(path, O_RDONLY);
	status = wait_child(pid);
	el_expect("fifo_open_eintr", rd == -1 && errno == EINTR && usr1_seen == 1 && status == 0,
		  "open %d (%s)", rd, strerror(errno));
	signal(SIGUSR1, SIG_DFL);
	unlink(path);
}

int main(int argc, char **argv)
{
	char dir[64];

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: pollcheck (no arguments)\n");
		return 2;
	}
	check_poll_pipe();
	check_poll_args();
	check_poll_wait();
	check_ppoll();
	check_select();
	check_epoll_create();
	check_epoll_ctl();
	check_epoll_modes();
	check_epoll_close();
	check_epoll_wait();
	snprintf(dir, sizeof(dir), "/tmp/pollcheck-%d", (int)getpid());
	if (el_expect("tmp_dir", mkdir(dir, 0700) == 0, "mkdir %s: %s", dir, strerror(errno))) {
		check_mknod(dir);
		check_fifo(dir);
		rmdir(dir);
	}
	return el_summary("pollcheck");
}
