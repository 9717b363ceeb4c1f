/*
 * unixcheck (unixcheck.h): the helpers, main, and what a socket is: the
 * errors of socket(2), fstat, lseek, options, and stream data.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unixcheck.h"

socklen_t ux_addr(struct sockaddr_un *a, const char *path)
{
	size_t n = strlen(path);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path, path, n);
	if (path[0] == '@') {
		a->sun_path[0] = 0;
		return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	}
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
}

void ux_sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

int ux_wait(pid_t pid)
{
	int st = -1;

	return waitpid(pid, &st, 0) == pid ? st : -1;
}

int ux_sigpipe_pending(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	if (sigpending(&set) || !sigismember(&set, SIGPIPE))
		return 0;
	sigaddset(&set, SIGPIPE);
	sigwait(&set, &sig);
	return 1;
}

void check_basics(void)
{
	int sv[2], fd, p[2];
	struct stat st;

	errno = 0;
	el_expect("socket_bad_family", socket(1000, SOCK_STREAM, 0) == -1 && errno == EAFNOSUPPORT,
		  "errno %d", errno);
	errno = 0;
	el_expect("socket_bad_protocol", socket(AF_UNIX, SOCK_STREAM, 7) == -1 &&
		  errno == EPROTONOSUPPORT, "errno %d", errno);
	errno = 0;
	el_expect("socket_rdm", socket(AF_UNIX, SOCK_RDM, 0) == -1 && errno == ESOCKTNOSUPPORT,
		  "errno %d", errno);
	errno = 0;
	el_expect("socket_bad_flags", socket(AF_UNIX, SOCK_STREAM | O_APPEND, 0) == -1 &&
		  errno == EINVAL, "errno %d", errno);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	el_expect("socket_flags", fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC &&
		  (fcntl(fd, F_GETFL) & (O_NONBLOCK | O_ACCMODE)) == (O_NONBLOCK | O_RDWR),
		  "fd %d F_GETFD %d F_GETFL %#x", fd, fcntl(fd, F_GETFD), fcntl(fd, F_GETFL));
	el_expect("fstat_sock", fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
		  (st.st_mode & 0777) == 0777, "mode %o", st.st_mode);
	errno = 0;
	el_expect("lseek_espipe", lseek(fd, 0, SEEK_SET) == -1 && errno == ESPIPE, "errno %d", errno);
	close(fd);
	if (pipe(p) == 0) {
		errno = 0;
		el_expect("enotsock", listen(p[0], 1) == -1 && errno == ENOTSOCK, "errno %d", errno);
		close(p[0]);
		close(p[1]);
	}
	errno = 0;
	el_expect("ebadf", shutdown(1000, SHUT_RD) == -1 && errno == EBADF, "errno %d", errno);
	if (!el_expect("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "%s",
		       strerror(errno)))
		return;
	errno = 0;
	el_expect("shutdown_bad_how", shutdown(sv[0], 3) == -1 && errno == EINVAL, "errno %d", errno);
	close(sv[0]);
	close(sv[1]);
}

void check_options(void)
{
	int sv[2], v = -1, d;
	socklen_t len = sizeof(v);
	struct ucred cred;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		el_fail("options", "socketpair: %s", strerror(errno));
		return;
	}
	el_expect("so_type", getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &v, &len) == 0 &&
		  v == SOCK_DGRAM && len == sizeof(int), "SO_TYPE %d len %u", v, len);
	len = sizeof(v);
	el_expect("so_error", getsockopt(sv[0], SOL_SOCKET, SO_ERROR, &v, &len) == 0 && v == 0,
		  "SO_ERROR %d", v);
	len = sizeof(cred);
	el_expect("so_peercred_pair", getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
		  len == sizeof(cred) && cred.pid == getpid() && cred.uid == getuid() &&
		  cred.gid == getgid(), "pid %d uid %u gid %u len %u", cred.pid, cred.uid, cred.gid,
		  len);
	len = sizeof(v);
	el_expect("so_sndbuf_default", getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, &len) == 0 &&
		  v > 0, "SO_SNDBUF %d", v);
	v = 65536;
	el_expect("so_sndbuf_set", setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) == 0 &&
		  getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, &len) == 0 && v == 131072,
		  "SO_SNDBUF %d", v);
	v = 32768;
	el_expect("so_rcvbuf_set", setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) == 0 &&
		  getsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &v, &len) == 0 && v == 65536,
		  "SO_RCVBUF %d", v);
	v = 1;
	el_expect("so_passcred", setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &v, sizeof(v)) == 0 &&
		  getsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &v, &len) == 0 && v == 1,
		  "SO_PASSCRED %d", v);
	errno = 0;
	el_expect("setsockopt_short", setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &v, 2) == -1 &&
		  errno == EINVAL, "errno %d", errno);
	errno = 0;
	d = 0;
	len = sizeof(d);
	el_expect("getsockopt_unknown", getsockopt(sv[0], SOL_SOCKET, 9999, &d, &len) == -1 &&
		  errno == ENOPROTOOPT, "errno %d", errno);
	close(sv[0]);
	close(sv[1]);
	d = socket(AF_UNIX, SOCK_STREAM, 0);
	len = sizeof(cred);
	el_expect("so_peercred_none", getsockopt(d, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
		  cred.pid == 0 && cred.uid == (uid_t)-1 && cred.gid == (gid_t)-1,
		  "pid %d uid %d gid %d", cred.pid, (int)cred.uid, (int)cred.gid);
	close(d);
}

void check_stream_data(void)
{
	static char buf[8192];
	int sv[2];
	long total = 0, back = 0;
	ssize_t n;
	struct sockaddr_un a;
	socklen_t len = sizeof(a);

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv)) {
		el_fail("stream_data", "socketpair: %s", strerror(errno));
		return;
	}
	el_expect("getsockname_unbound", getsockname(sv[0], (struct sockaddr *)&a, &len) == 0 &&
		  len == sizeof(sa_family_t) && a.sun_family == AF_UNIX, "len %u family %d", len,
		  a.sun_family);
	len = sizeof(a);
	el_expect("getpeername_unbound", getpeername(sv[0], (struct sockaddr *)&a, &len) == 0 &&
		  len == sizeof(sa_family_t), "len %u", len);
	errno = 0;
	el_expect("read_empty_eagain", read(sv[0], buf, 1) == -1 && errno == EAGAIN, "errno %d",
		  errno);
	el_expect("zero_read", read(sv[0], buf, 0) == 0, "%s", strerror(errno));
	el_expect("zero_write", write(sv[0], buf, 0) == 0, "%s", strerror(errno));
	el_expect("write_read", write(sv[0], "ab", 2) == 2 && write(sv[0], "cd", 2) == 2 &&
		  recv(sv[1], buf, 2, MSG_PEEK) == 2 && !memcmp(buf, "ab", 2) &&
		  read(sv[1], buf, sizeof(buf)) == 4 && !memcmp(buf, "abcd", 4),
		  "writes did not merge into one stream");
	el_expect("peek_across", write(sv[0], "xy", 2) == 2 && write(sv[0], "z", 1) == 1 &&
		  recv(sv[1], buf, 3, MSG_PEEK) == 3 && !memcmp(buf, "xyz", 3) &&
		  recv(sv[1], buf, 1, 0) == 1 && recv(sv[1], buf, 5, 0) == 2 &&
		  !memcmp(buf, "yz", 2), "peek or partial read wrong");
	errno = 0;
	el_expect("dontwait", recv(sv[1], buf, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN, "errno %d",
		  errno);
	memset(buf, 's', sizeof(buf));
	while ((n = write(sv[0], buf, sizeof(buf))) > 0)
		total += n;
	el_expect("fill_eagain", total >= 65536 && errno == EAGAIN, "took %ld then errno %d", total,
		  errno);
	while ((n = read(sv[1], buf, 3000)) > 0)
		back += n;
	el_expect("drain_all", back == total && errno == EAGAIN, "wrote %ld read %ld", total, back);
	errno = 0;
	el_expect("sendto_isconn", sendto(sv[0], "q", 1, 0, (struct sockaddr *)&a,
					  ux_addr(&a, "/tmp/nowhere")) == -1 && errno == EISCONN,
		  "errno %d", errno);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	sigset_t pipe_set;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, 0); /* EPIPE checks see SIGPIPE as pending */
	check_basics();
	check_options();
	check_stream_data();
	check_names();
	check_connect();
	check_backlog();
	check_dgram();
	check_seqpacket();
	check_msg();
	check_rights();
	check_blocking();
	check_signals();
	check_timeouts();
	check_close();
	return el_summary("unixcheck");
}
