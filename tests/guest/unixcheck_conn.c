/*
 * unixcheck (unixcheck.h): names (paths, abstract, autobind), listen,
 * connect, accept and accept4, the backlog.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "unixcheck.h"

static char path[64], path2[64];

/* A sun_path of 108 bytes and no NUL: Linux takes it whole and reports 111 bytes. */
static void check_full_path(void)
{
	struct sockaddr_un a;
	struct {
		struct sockaddr_un u;
		char extra[16];
	} g;
	socklen_t len = sizeof(g);
	char p[sizeof(a.sun_path) + 1];
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c = socket(AF_UNIX, SOCK_STREAM, 0);

	memset(&a, 'u', sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, "/tmp/", 5);
	memcpy(p, a.sun_path, sizeof(a.sun_path));
	p[sizeof(a.sun_path)] = 0;
	unlink(p);
	memset(&g, 0, sizeof(g));
	el_expect("full_path_bind", bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
		  getsockname(s, (struct sockaddr *)&g, &len) == 0 && len == sizeof(a) + 1 &&
		  g.u.sun_path[sizeof(a.sun_path) - 1] == 'u', "%s, len %u", strerror(errno), len);
	el_expect("full_path_connect", listen(s, 1) == 0 &&
		  connect(c, (struct sockaddr *)&a, sizeof(a)) == 0, "%s", strerror(errno));
	close(c);
	close(s);
	unlink(p);
}

void check_names(void)
{
	struct sockaddr_un a, b;
	socklen_t alen, len;
	struct stat st;
	char abs[64];
	int s1 = socket(AF_UNIX, SOCK_STREAM, 0), s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	int s3 = socket(AF_UNIX, SOCK_DGRAM, 0), s4;

	snprintf(path, sizeof(path), "/tmp/unixcheck-%d", (int)getpid());
	snprintf(path2, sizeof(path2), "/tmp/unixcheck2-%d", (int)getpid());
	unlink(path);
	alen = ux_addr(&a, path);
	el_expect("bind_path", bind(s1, (struct sockaddr *)&a, alen) == 0, "%s", strerror(errno));
	el_expect("bind_creates_sock", stat(path, &st) == 0 && S_ISSOCK(st.st_mode),
		  "mode %o", st.st_mode);
	errno = 0;
	el_expect("bind_addrinuse", bind(s2, (struct sockaddr *)&a, alen) == -1 &&
		  errno == EADDRINUSE, "errno %d", errno);
	errno = 0;
	el_expect("bind_twice", bind(s1, (struct sockaddr *)&b, ux_addr(&b, path2)) == -1 &&
		  errno == EINVAL, "errno %d", errno);
	len = sizeof(b);
	el_expect("getsockname_path", getsockname(s1, (struct sockaddr *)&b, &len) == 0 &&
		  len == alen && !strcmp(b.sun_path, path), "len %u (want %u) %s", len, alen,
		  b.sun_path);
	errno = 0;
	el_expect("open_sock_enxio", open(path, O_RDWR) == -1 && errno == ENXIO, "errno %d", errno);
	errno = 0;
	el_expect("bind_missing_dir", bind(s2, (struct sockaddr *)&b,
					   ux_addr(&b, "/tmp/no-such-dir/s")) == -1 &&
		  errno == ENOENT, "errno %d", errno);
	errno = 0;
	el_expect("bind_short", bind(s2, (struct sockaddr *)&b, 1) == -1 && errno == EINVAL,
		  "errno %d", errno);
	b.sun_family = AF_INET;
	errno = 0;
	el_expect("bind_family", bind(s2, (struct sockaddr *)&b, alen) == -1 && errno == EINVAL,
		  "errno %d", errno);
	snprintf(abs, sizeof(abs), "@unixcheck-%d", (int)getpid());
	alen = ux_addr(&a, abs);
	el_expect("bind_abstract", bind(s2, (struct sockaddr *)&a, alen) == 0, "%s",
		  strerror(errno));
	len = sizeof(b);
	el_expect("getsockname_abstract", getsockname(s2, (struct sockaddr *)&b, &len) == 0 &&
		  len == alen && !memcmp(&a, &b, alen), "len %u want %u", len, alen);
	s4 = socket(AF_UNIX, SOCK_STREAM, 0);
	errno = 0;
	el_expect("abstract_addrinuse", bind(s4, (struct sockaddr *)&a, alen) == -1 &&
		  errno == EADDRINUSE, "errno %d", errno);
	/* Linux keeps one abstract namespace per socket type. */
	el_expect("abstract_per_type", bind(s3, (struct sockaddr *)&a, alen) == 0, "%s",
		  strerror(errno));
	close(s3);
	close(s2);
	s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	el_expect("abstract_freed_on_close", bind(s2, (struct sockaddr *)&a, alen) == 0, "%s",
		  strerror(errno));
	s3 = socket(AF_UNIX, SOCK_DGRAM, 0);
	b.sun_family = AF_UNIX;
	el_expect("autobind", bind(s3, (struct sockaddr *)&b, sizeof(sa_family_t)) == 0, "%s",
		  strerror(errno));
	len = sizeof(b);
	el_expect("autobind_name", getsockname(s3, (struct sockaddr *)&b, &len) == 0 &&
		  len == offsetof(struct sockaddr_un, sun_path) + 6 && b.sun_path[0] == 0 &&
		  isxdigit((unsigned char)b.sun_path[1]) && isxdigit((unsigned char)b.sun_path[5]),
		  "len %u", len);
	/* Autobind on a bound socket keeps its name and succeeds. */
	len = sizeof(a);
	el_expect("autobind_again", bind(s3, (struct sockaddr *)&a, sizeof(sa_family_t)) == 0 &&
		  getsockname(s3, (struct sockaddr *)&a, &len) == 0 && !memcmp(&a, &b, len),
		  "%s", strerror(errno));
	close(s4);
	close(s1);
	close(s2);
	close(s3);
	el_expect("file_stays_after_close", stat(path, &st) == 0 && S_ISSOCK(st.st_mode), "%s",
		  strerror(errno));
	s1 = socket(AF_UNIX, SOCK_STREAM, 0);
	alen = ux_addr(&a, path);
	errno = 0;
	el_expect("connect_closed_listener", connect(s1, (struct sockaddr *)&a, alen) == -1 &&
		  errno == ECONNREFUSED, "errno %d", errno);
	errno = 0;
	el_expect("bind_stale_file", bind(s1, (struct sockaddr *)&a, alen) == -1 &&
		  errno == EADDRINUSE, "errno %d", errno);
	el_expect("unlink_sock", unlink(path) == 0, "%s", strerror(errno));
	close(s1);
	check_full_path();
}

void check_connect(void)
{
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c = socket(AF_UNIX, SOCK_STREAM, 0), s, d;
	struct sockaddr_un a, b;
	socklen_t alen = ux_addr(&a, path), len;
	struct ucred cred;
	char buf[16];
	pid_t pid;

	errno = 0;
	el_expect("listen_unbound", listen(l, 5) == -1 && errno == EINVAL, "errno %d", errno);
	errno = 0;
	el_expect("connect_enoent", connect(c, (struct sockaddr *)&a, alen) == -1 && errno == ENOENT,
		  "errno %d", errno);
	d = open("/tmp", O_RDONLY);
	errno = 0;
	el_expect("connect_dir", connect(c, (struct sockaddr *)&b, ux_addr(&b, "/tmp")) == -1 &&
		  errno == ECONNREFUSED, "errno %d", errno);
	close(d);
	if (!el_expect("bind_listener", bind(l, (struct sockaddr *)&a, alen) == 0, "%s",
		       strerror(errno)))
		return;
	errno = 0;
	el_expect("connect_not_listening", connect(c, (struct sockaddr *)&a, alen) == -1 &&
		  errno == ECONNREFUSED, "errno %d", errno);
	errno = 0;
	el_expect("read_unconnected", read(c, buf, 1) == -1 && errno == EINVAL, "errno %d", errno);
	errno = 0;
	el_expect("send_unconnected", send(c, "x", 1, MSG_NOSIGNAL) == -1 && errno == ENOTCONN,
		  "errno %d", errno);
	errno = 0;
	len = sizeof(b);
	el_expect("getpeername_enotconn", getpeername(c, (struct sockaddr *)&b, &len) == -1 &&
		  errno == ENOTCONN, "errno %d", errno);
	el_expect("listen", listen(l, 5) == 0, "%s", strerror(errno));
	d = socket(AF_UNIX, SOCK_DGRAM, 0);
	errno = 0;
	el_expect("connect_prototype", connect(d, (struct sockaddr *)&a, alen) == -1 &&
		  errno == EPROTOTYPE, "errno %d", errno);
	errno = 0;
	el_expect("listen_dgram", listen(d, 1) == -1 && errno == EOPNOTSUPP, "errno %d", errno);
	close(d);
	errno = 0;
	/* The raw call: musl's accept4 retries an EINVAL as accept (and would block). */
	el_expect("accept4_bad_flags", syscall(SYS_accept4, l, 0, 0, O_APPEND) == -1 && errno == EINVAL,
		  "errno %d", errno);
	pid = fork();
	if (pid == 0) {
		/* The child connects, says hello, checks its peer, and waits for the answer. */
		int ok;

		len = sizeof(cred);
		ok = connect(c, (struct sockaddr *)&a, alen) == 0 && write(c, "hello", 5) == 5 &&
		     getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
		     cred.pid == getppid() && read(c, buf, sizeof(buf)) == 3 && !memcmp(buf, "bye", 3);
		len = sizeof(b);
		ok = ok && getpeername(c, (struct sockaddr *)&b, &len) == 0 && len == alen &&
		     !strcmp(b.sun_path, path);
		_exit(ok ? 0 : 1);
	}
	len = sizeof(b);
	memset(&b, 0x55, sizeof(b));
	s = accept4(l, (struct sockaddr *)&b, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
	el_expect("accept4", s >= 0 && fcntl(s, F_GETFD) == FD_CLOEXEC &&
		  (fcntl(s, F_GETFL) & O_NONBLOCK), "fd %d: %s", s, strerror(errno));
	el_expect("accept_peer_unbound", len == sizeof(sa_family_t) && b.sun_family == AF_UNIX,
		  "len %u family %d", len, b.sun_family);
	len = sizeof(b);
	el_expect("accepted_name", getsockname(s, (struct sockaddr *)&b, &len) == 0 && len == alen &&
		  !strcmp(b.sun_path, path), "len %u %s", len, b.sun_path);
	len = sizeof(cred);
	el_expect("accepted_peercred", getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
		  cred.pid == pid, "pid %d want %d", cred.pid, (int)pid);
	fcntl(s, F_SETFL, 0);
	el_expect("accepted_data", read(s, buf, sizeof(buf)) == 5 && !memcmp(buf, "hello", 5) &&
		  write(s, "bye", 3) == 3, "%s", strerror(errno));
	el_expect("client_checks", ux_wait(pid) == 0, "the connecting child failed");
	errno = 0;
	fcntl(l, F_SETFL, O_NONBLOCK);
	el_expect("accept_eagain", accept(l, 0, 0) == -1 && errno == EAGAIN, "errno %d", errno);
	len = sizeof(d);
	el_expect("so_acceptconn", getsockopt(l, SOL_SOCKET, SO_ACCEPTCONN, &d, &len) == 0 && d == 1,
		  "SO_ACCEPTCONN %d", d);
	close(s);
	close(c);
	close(l);
	unlink(path);
}

void check_backlog(void)
{
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c[4], i, n = 0, s;
	struct sockaddr_un a;
	socklen_t alen = ux_addr(&a, path2);
	char buf[8];

	unlink(path2);
	if (bind(l, (struct sockaddr *)&a, alen) || listen(l, 1)) {
		el_fail("backlog", "bind/listen: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 4; i++)
		c[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	for (i = 0; i < 3; i++)
		if (connect(c[i], (struct sockaddr *)&a, alen) == 0)
			n++;
	el_expect("backlog_plus_one", n == 2 && errno == EAGAIN, "%d connected, errno %d", n, errno);
	el_expect("send_before_accept", write(c[0], "early", 5) == 5, "%s", strerror(errno));
	s = accept(l, 0, 0);
	el_expect("accept_first", s >= 0 && read(s, buf, sizeof(buf)) == 5 &&
		  !memcmp(buf, "early", 5), "%s", strerror(errno));
	el_expect("connect_after_accept", connect(c[3], (struct sockaddr *)&a, alen) == 0, "%s",
		  strerror(errno));
	close(s);
	/* The listener's close resets the connections it never accepted. */
	close(l);
	errno = 0;
	el_expect("unaccepted_reset", read(c[1], buf, 1) == -1 && errno == ECONNRESET, "errno %d",
		  errno);
	el_expect("unaccepted_then_eof", read(c[1], buf, 1) == 0, "%s", strerror(errno));
	errno = 0;
	el_expect("unaccepted_epipe", send(c[3], "x", 1, MSG_NOSIGNAL) == -1 && errno == EPIPE,
		  "errno %d", errno);
	for (i = 0; i < 4; i++)
		close(c[i]);
	unlink(path2);
}
