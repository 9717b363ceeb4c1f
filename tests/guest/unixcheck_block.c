/*
 * unixcheck (unixcheck.h): blocking calls that another process wakes,
 * signals that end them (EINTR) or restart them (SA_RESTART), shutdown,
 * and what the peer's close leaves (EOF, EPIPE with SIGPIPE, ECONNRESET).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unixcheck.h"

#define BIG (1 << 20)

static void on_usr1(int sig)
{
	(void)sig;
}

void check_blocking(void)
{
	static unsigned char buf[65536];
	int sv[2], st;
	long got = 0, sum = 0, want = 0, i;
	ssize_t n;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		el_fail("blocking", "socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		/* Blocks in read until the parent writes; then writes 1 MiB that must block. */
		char c;
		static unsigned char out[BIG];

		close(sv[0]);
		if (read(sv[1], &c, 1) != 1 || c != 'g')
			_exit(1);
		for (i = 0; i < BIG; i++)
			out[i] = (unsigned char)(i * 7);
		_exit(write(sv[1], out, BIG) == BIG ? 0 : 2);
	}
	close(sv[1]);
	ux_sleep_ms(50);
	write(sv[0], "g", 1);
	ux_sleep_ms(50); /* the writer fills the buffer and sleeps */
	while ((n = read(sv[0], buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++)
			sum += buf[i];
		got += n;
	}
	for (i = 0; i < BIG; i++)
		want += (unsigned char)(i * 7);
	st = ux_wait(pid);
	el_expect("blocking_big_write", got == BIG && sum == want && st == 0,
		  "got %ld of %d, sum %s, child status %#x", got, BIG, sum == want ? "ok" : "bad", st);
	close(sv[0]);
}

/* A child blocked in recv gets SIGUSR1: with restart, it reads what comes later. */
static void signal_case(const char *name, int restart)
{
	int sv[2], st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		el_fail(name, "socketpair: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;
		char c;
		ssize_t r;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sa.sa_flags = restart ? SA_RESTART : 0;
		sigaction(SIGUSR1, &sa, 0);
		r = recv(sv[1], &c, 1, 0);
		if (restart)
			_exit(r == 1 && c == 'r' ? 0 : 1);
		_exit(r == -1 && errno == EINTR ? 0 : 1);
	}
	ux_sleep_ms(100);
	kill(pid, SIGUSR1);
	ux_sleep_ms(50);
	send(sv[0], "r", 1, 0);
	st = ux_wait(pid);
	el_expect(name, WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	close(sv[0]);
	close(sv[1]);
}

void check_signals(void)
{
	int l, st;
	pid_t pid;
	struct sockaddr_un a;
	char path[64];

	signal_case("recv_eintr", 0);
	signal_case("recv_sa_restart", 1);
	snprintf(path, sizeof(path), "/tmp/unixcheck-s%d", (int)getpid());
	unlink(path);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&a, ux_addr(&a, path)) || listen(l, 1)) {
		el_fail("accept_eintr", "bind/listen: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigaction(SIGUSR1, &sa, 0);
		_exit(accept(l, 0, 0) == -1 && errno == EINTR ? 0 : 1);
	}
	ux_sleep_ms(100);
	kill(pid, SIGUSR1);
	st = ux_wait(pid);
	el_expect("accept_eintr", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	close(l);
	unlink(path);
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* SO_RCVTIMEO ends a blocked read in EAGAIN; MSG_WAITALL waits for every byte; FIONREAD. */
void check_timeouts(void)
{
	int sv[2], n = -1, st;
	struct timeval tv = {0, 150000}, got = {0, 0};
	socklen_t len = sizeof(got);
	char buf[16];
	long t0, dt;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	el_expect("so_rcvtimeo_set", setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0 &&
		  getsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &got, &len) == 0 && got.tv_sec == 0 &&
		  got.tv_usec >= 140000 && got.tv_usec <= 160000 && len == sizeof(got),
		  "%ld.%06ld len %u", (long)got.tv_sec, (long)got.tv_usec, len);
	t0 = now_ms();
	errno = 0;
	el_expect("so_rcvtimeo_eagain", read(sv[0], buf, 1) == -1 && errno == EAGAIN, "errno %d",
		  errno);
	dt = now_ms() - t0;
	el_expect("so_rcvtimeo_waited", dt >= 140 && dt < 5000, "waited %ld ms", dt);
	tv.tv_usec = 1000000;
	errno = 0;
	el_expect("so_sndtimeo_edom", setsockopt(sv[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == -1 &&
		  errno == EDOM, "errno %d", errno);
	el_expect("fionread_stream", write(sv[1], "abc", 3) == 3 && write(sv[1], "de", 2) == 2 &&
		  ioctl(sv[0], FIONREAD, &n) == 0 && n == 5, "FIONREAD %d", n);
	pid = fork();
	if (pid == 0) {
		ux_sleep_ms(50);
		write(sv[1], "fgh", 3);
		ux_sleep_ms(50);
		write(sv[1], "ij", 2);
		_exit(0);
	}
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	n = (int)recv(sv[0], buf, 10, MSG_WAITALL);
	st = ux_wait(pid);
	el_expect("msg_waitall", n == 10 && !memcmp(buf, "abcdefghij", 10) && st == 0, "got %d", n);
	close(sv[0]);
	close(sv[1]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return;
	n = -1;
	el_expect("fionread_dgram", send(sv[1], "four", 4, 0) == 4 && send(sv[1], "sixsix", 6, 0) == 6 &&
		  ioctl(sv[0], FIONREAD, &n) == 0 && n == 4, "FIONREAD %d", n);
	close(sv[0]);
	close(sv[1]);
}

void check_close(void)
{
	int sv[2], st;
	char buf[8];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return;
	el_expect("shut_wr", write(sv[0], "last", 4) == 4 && shutdown(sv[0], SHUT_WR) == 0 &&
		  read(sv[1], buf, sizeof(buf)) == 4 && read(sv[1], buf, sizeof(buf)) == 0,
		  "%s", strerror(errno));
	errno = 0;
	el_expect("shut_wr_epipe", write(sv[0], "x", 1) == -1 && errno == EPIPE && ux_sigpipe_pending(),
		  "errno %d", errno);
	el_expect("shut_wr_other_way", write(sv[1], "ok", 2) == 2 && read(sv[0], buf, 2) == 2, "%s",
		  strerror(errno));
	errno = 0;
	el_expect("shut_rd_peer_epipe", shutdown(sv[0], SHUT_RD) == 0 &&
		  send(sv[1], "x", 1, MSG_NOSIGNAL) == -1 && errno == EPIPE && !ux_sigpipe_pending(),
		  "errno %d", errno);
	close(sv[0]);
	close(sv[1]);

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "unread", 6);
	close(sv[1]); /* it had unread data: the peer is reset */
	errno = 0;
	el_expect("close_unread_reset", read(sv[0], buf, 1) == -1 && errno == ECONNRESET, "errno %d",
		  errno);
	el_expect("close_then_eof", read(sv[0], buf, 1) == 0, "%s", strerror(errno));
	close(sv[0]);

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "tail", 4);
	close(sv[0]);
	el_expect("close_data_then_eof", read(sv[1], buf, sizeof(buf)) == 4 &&
		  read(sv[1], buf, sizeof(buf)) == 0, "%s", strerror(errno));
	errno = 0;
	el_expect("closed_peer_epipe", write(sv[1], "x", 1) == -1 && errno == EPIPE &&
		  ux_sigpipe_pending(), "errno %d", errno);
	pid = fork();
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, 0);
		signal(SIGPIPE, SIG_DFL);
		write(sv[1], "x", 1);
		_exit(0);
	}
	st = ux_wait(pid);
	el_expect("sigpipe_kills", WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE, "status %#x", st);
	close(sv[1]);
}
