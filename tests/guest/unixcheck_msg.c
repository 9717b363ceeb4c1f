/*
 * unixcheck (unixcheck.h): datagrams (boundaries, MSG_TRUNC, names,
 * connected peers), seqpacket, sendmsg/recvmsg with iovecs, and
 * descriptors passed by SCM_RIGHTS.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "unixcheck.h"

void check_dgram(void)
{
	int sv[2], srv, cli, third;
	char buf[64], path[64];
	struct sockaddr_un a, b;
	socklen_t alen, len;
	static char big[300000];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv)) {
		el_fail("dgram", "socketpair: %s", strerror(errno));
		return;
	}
	el_expect("dgram_boundaries", send(sv[0], "abc", 3, 0) == 3 && send(sv[0], "defgh", 5, 0) == 5 &&
		  recv(sv[1], buf, sizeof(buf), 0) == 3 && recv(sv[1], buf, sizeof(buf), 0) == 5 &&
		  !memcmp(buf, "defgh", 5), "message boundaries lost");
	el_expect("dgram_empty", send(sv[0], "", 0, 0) == 0 && recv(sv[1], buf, sizeof(buf), 0) == 0,
		  "%s", strerror(errno));
	errno = 0;
	el_expect("dgram_eagain", recv(sv[1], buf, sizeof(buf), 0) == -1 && errno == EAGAIN,
		  "errno %d", errno);
	el_expect("dgram_trunc_len", send(sv[0], "0123456789", 10, 0) == 10 &&
		  recv(sv[1], buf, 4, MSG_TRUNC) == 10, "%s", strerror(errno));
	el_expect("dgram_trunc_rest_gone", send(sv[0], "0123456789", 10, 0) == 10 &&
		  recv(sv[1], buf, 4, 0) == 4 && recv(sv[1], buf, sizeof(buf), 0) == -1 &&
		  errno == EAGAIN, "errno %d", errno);
	el_expect("dgram_peek", send(sv[0], "pk", 2, 0) == 2 && recv(sv[1], buf, 1, MSG_PEEK) == 1 &&
		  recv(sv[1], buf, sizeof(buf), 0) == 2, "%s", strerror(errno));
	errno = 0;
	el_expect("dgram_emsgsize", send(sv[0], big, sizeof(big), 0) == -1 && errno == EMSGSIZE,
		  "errno %d", errno);
	errno = 0;
	el_expect("dgram_peer_shut_rd", shutdown(sv[1], SHUT_RD) == 0 && send(sv[0], "x", 1, 0) == -1 &&
		  errno == EPIPE && !ux_sigpipe_pending(), "errno %d", errno);
	errno = 0;
	el_expect("dgram_shut_wr", shutdown(sv[1], SHUT_WR) == 0 && send(sv[1], "x", 1, 0) == -1 &&
		  errno == EPIPE, "errno %d", errno);
	close(sv[1]);
	errno = 0;
	el_expect("dgram_no_eof", recv(sv[0], buf, sizeof(buf), 0) == -1 && errno == EAGAIN,
		  "a datagram socket whose peer closed reads errno %d", errno);
	close(sv[0]);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, sv))
		return;
	close(sv[0]);
	close(sv[1]);

	snprintf(path, sizeof(path), "/tmp/unixcheck-d%d", (int)getpid());
	unlink(path);
	srv = socket(AF_UNIX, SOCK_DGRAM, 0);
	cli = socket(AF_UNIX, SOCK_DGRAM, 0);
	third = socket(AF_UNIX, SOCK_DGRAM, 0);
	alen = ux_addr(&a, path);
	errno = 0;
	el_expect("dgram_enotconn", send(cli, "x", 1, 0) == -1 && errno == ENOTCONN, "errno %d",
		  errno);
	errno = 0;
	el_expect("sendto_enoent", sendto(cli, "x", 1, 0, (struct sockaddr *)&a, alen) == -1 &&
		  errno == ENOENT, "errno %d", errno);
	if (!el_expect("dgram_bind", bind(srv, (struct sockaddr *)&a, alen) == 0, "%s",
		       strerror(errno)))
		return;
	len = sizeof(b);
	el_expect("recvfrom_unbound_sender",
		  sendto(cli, "hi", 2, 0, (struct sockaddr *)&a, alen) == 2 &&
		  recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&b, &len) == 2 && len == 0,
		  "len %u", len);
	bind(cli, (struct sockaddr *)&b, ux_addr(&b, "@unixcheck-dgram-cli"));
	len = sizeof(b);
	memset(&b, 0, sizeof(b));
	el_expect("recvfrom_name", sendto(cli, "yo", 2, 0, (struct sockaddr *)&a, alen) == 2 &&
		  recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&b, &len) == 2 &&
		  len == offsetof(struct sockaddr_un, sun_path) + 20 && b.sun_path[0] == 0 &&
		  !memcmp(b.sun_path + 1, "unixcheck-dgram-cli", 19), "len %u", len);
	el_expect("dgram_connect", connect(srv, (struct sockaddr *)&b, len) == 0, "%s",
		  strerror(errno));
	errno = 0;
	el_expect("dgram_eperm", sendto(third, "x", 1, 0, (struct sockaddr *)&a, alen) == -1 &&
		  errno == EPERM, "errno %d", errno);
	el_expect("dgram_connected_send", send(srv, "back", 4, 0) == 4 &&
		  recv(cli, buf, sizeof(buf), 0) == 4, "%s", strerror(errno));
	b.sun_family = AF_UNSPEC;
	el_expect("dgram_disconnect", connect(srv, (struct sockaddr *)&b, sizeof(b.sun_family)) == 0 &&
		  sendto(third, "x", 1, 0, (struct sockaddr *)&a, alen) == 1, "%s", strerror(errno));
	/* A peer that closed: the first send is refused, then the socket is unconnected. */
	connect(third, (struct sockaddr *)&a, alen);
	close(srv);
	errno = 0;
	el_expect("dgram_peer_closed", send(third, "x", 1, 0) == -1 && errno == ECONNREFUSED,
		  "errno %d", errno);
	errno = 0;
	el_expect("dgram_then_enotconn", send(third, "x", 1, 0) == -1 && errno == ENOTCONN,
		  "errno %d", errno);
	close(cli);
	close(third);
	unlink(path);
}

void check_seqpacket(void)
{
	int sv[2];
	char buf[64];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv)) {
		el_fail("seqpacket", "socketpair: %s", strerror(errno));
		return;
	}
	el_expect("seqpacket_boundaries", write(sv[0], "one", 3) == 3 && write(sv[0], "three", 5) == 5 &&
		  read(sv[1], buf, sizeof(buf)) == 3 && read(sv[1], buf, 2) == 2 &&
		  read(sv[0], buf, 0) >= 0, "%s", strerror(errno));
	el_expect("seqpacket_trunc_discards", write(sv[0], "x", 1) == 1 &&
		  read(sv[1], buf, sizeof(buf)) == 1 && buf[0] == 'x', "the rest of a message stayed");
	close(sv[0]);
	el_expect("seqpacket_eof", read(sv[1], buf, sizeof(buf)) == 0, "%s", strerror(errno));
	errno = 0;
	el_expect("seqpacket_epipe", write(sv[1], "x", 1) == -1 && errno == EPIPE, "errno %d", errno);
	el_expect("seqpacket_no_sigpipe", !ux_sigpipe_pending(), "SIGPIPE for a seqpacket socket");
	close(sv[1]);
}

void check_msg(void)
{
	int sv[2];
	char a[] = "gat", b[] = "her", c[] = "ed!", r1[4] = {0}, r2[16] = {0};
	struct iovec out[3] = {{a, 3}, {b, 3}, {c, 3}}, in[2] = {{r1, 4}, {r2, 16}};
	struct msghdr m = {.msg_iov = out, .msg_iovlen = 3};
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		el_fail("msg", "socketpair: %s", strerror(errno));
		return;
	}
	el_expect("sendmsg_gather", sendmsg(sv[0], &m, 0) == 9, "%s", strerror(errno));
	memset(&m, 0, sizeof(m));
	m.msg_iov = in;
	m.msg_iovlen = 2;
	n = recvmsg(sv[1], &m, 0);
	el_expect("recvmsg_scatter", n == 9 && !memcmp(r1, "gath", 4) && !memcmp(r2, "ered!", 5) &&
		  m.msg_flags == 0, "n %zd flags %#x", n, m.msg_flags);
	el_expect("writev_one_message", writev(sv[0], out, 3) == 9 &&
		  recv(sv[1], r2, sizeof(r2), 0) == 9, "%s", strerror(errno));
	in[0].iov_len = 2;
	m.msg_iovlen = 1;
	el_expect("recvmsg_trunc", send(sv[0], "long message", 12, 0) == 12 &&
		  recvmsg(sv[1], &m, 0) == 2 && (m.msg_flags & MSG_TRUNC), "flags %#x", m.msg_flags);
	m.msg_iovlen = 2000;
	errno = 0;
	el_expect("sendmsg_iovlen", sendmsg(sv[0], &m, 0) == -1 && errno == EMSGSIZE, "errno %d",
		  errno);
	close(sv[0]);
	close(sv[1]);
}

/* Sends fd over sock with one byte. */
static int send_fd(int sock, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = {"F", 1};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

/* The descriptor received with one byte, -1 for none; *flags: msg_flags. */
static int recv_fd(int sock, size_t ctl_len, int rflags, int *flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(int)) * 2];
		struct cmsghdr align;
	} u;
	char byte;
	struct iovec iov = {&byte, 1};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = ctl_len};
	struct cmsghdr *c;
	int fd = -1;

	if (recvmsg(sock, &m, rflags) != 1)
		return -2;
	*flags = m.msg_flags;
	c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

void check_rights(void)
{
	int sv[2], p[2], fd, flags = 0, before;
	char buf[8];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(p)) {
		el_fail("rights", "socketpair/pipe: %s", strerror(errno));
		return;
	}
	el_expect("scm_rights_send", send_fd(sv[0], p[1]) == 0, "%s", strerror(errno));
	fd = recv_fd(sv[1], CMSG_SPACE(sizeof(int)), MSG_CMSG_CLOEXEC, &flags);
	el_expect("scm_rights_recv", fd >= 0 && fd != p[1] && flags == MSG_CMSG_CLOEXEC,
		  "fd %d flags %#x", fd,
		  flags);
	el_expect("scm_rights_cloexec", fcntl(fd, F_GETFD) == FD_CLOEXEC, "F_GETFD %d",
		  fcntl(fd, F_GETFD));
	el_expect("scm_rights_same_file", write(fd, "via", 3) == 3 && read(p[0], buf, 3) == 3 &&
		  !memcmp(buf, "via", 3), "the passed pipe end does not reach the pipe");
	close(fd);
	/* No room for the descriptor: MSG_CTRUNC, and it is closed (the next fd is the same number). */
	before = dup(0);
	close(before);
	send_fd(sv[0], p[1]);
	fd = recv_fd(sv[1], 0, 0, &flags);
	el_expect("scm_rights_ctrunc", fd == -1 && (flags & MSG_CTRUNC) && dup(0) == before,
		  "fd %d flags %#x", fd, flags);
	close(before);
	close(p[1]);
	/* The pipe's write end lived on in flight only: with it closed, EOF. */
	el_expect("scm_rights_dropped_closed", read(p[0], buf, 1) == 0, "%s", strerror(errno));
	close(p[0]);
	/* A socket passed over a socket: the received end talks to its old peer. */
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, p) == 0) {
		send_fd(sv[0], p[1]);
		close(p[1]);
		fd = recv_fd(sv[1], CMSG_SPACE(sizeof(int)), 0, &flags);
		el_expect("scm_rights_socket", fd >= 0 && send(fd, "sock", 4, 0) == 4 &&
			  recv(p[0], buf, sizeof(buf), 0) == 4 && !memcmp(buf, "sock", 4),
			  "fd %d: %s", fd, strerror(errno));
		close(fd);
		close(p[0]);
	}
	close(sv[0]);
	close(sv[1]);
}
