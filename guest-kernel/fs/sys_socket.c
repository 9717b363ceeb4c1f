/*
 * Socket syscalls other than data (sys_sockmsg.c): socket, socketpair,
 * bind, listen, connect, accept, accept4, shutdown, getsockname,
 * getpeername, getsockopt, setsockopt.  AF_UNIX only (unix_sock.h): any
 * other family is -EAFNOSUPPORT.
 */
#include "fs/unix_sock.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define AF_MAX 46
#define SO_REUSEADDR 2
#define SO_TYPE 3
#define SO_ERROR 4
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_PASSCRED 16
#define SO_PEERCRED 17
#define SO_RCVTIMEO 20
#define SO_SNDTIMEO 21
#define SO_ACCEPTCONN 30
#define SO_PROTOCOL 38
#define SO_DOMAIN 39
#define SO_RCVTIMEO_NEW 66 /* the same struct on x86-64: two 64-bit fields */
#define SO_SNDTIMEO_NEW 67

struct timeval_user {
	int64_t sec, usec;
};

static int64_t *timeo_of(struct unix_sock *s, uint64_t opt)
{
	if (opt == SO_RCVTIMEO || opt == SO_RCVTIMEO_NEW)
		return &s->rcvtimeo;
	if (opt == SO_SNDTIMEO || opt == SO_SNDTIMEO_NEW)
		return &s->sndtimeo;
	return 0;
}

/* Linux's sock_set_timeout: -EDOM for usec outside 0..999999, a negative time never waits. */
static long set_timeo(int64_t *t, uint64_t uval, uint64_t len)
{
	struct timeval_user tv;

	if ((int)len < (int)sizeof(tv))
		return -EINVAL;
	if (copy_from_user(&tv, uval, sizeof(tv)))
		return -EFAULT;
	if (tv.usec < 0 || tv.usec >= 1000000)
		return -EDOM;
	if (tv.sec < 0)
		*t = -1;
	else if (tv.sec > 1000000000 || (!tv.sec && !tv.usec))
		*t = 0; /* no timeout */
	else
		*t = tv.sec * 1000000000 + tv.usec * 1000;
	return 0;
}

/* The socket of descriptor fd: it, or NULL with -EBADF / -ENOTSOCK in *err. */
static struct unix_sock *sock_fd(uint64_t fd, long *err)
{
	struct file *f = fd_get((int)fd);
	struct unix_sock *s = unix_of(f);

	*err = !f ? -EBADF : !s ? -ENOTSOCK : 0;
	return s;
}

/* socket(2)'s type argument: the base type (checked for AF_UNIX) and the flags. */
static long check_type(uint64_t family, uint64_t type, uint64_t protocol, int *base)
{
	if ((uint32_t)type & ~(uint32_t)(SOCK_TYPE_MASK | SOCK_NONBLOCK | SOCK_CLOEXEC))
		return -EINVAL;
	*base = (int)(type & SOCK_TYPE_MASK);
	if ((int)family < 0 || (int)family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (*base >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT; /* no IP here: only AF_UNIX */
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	if (*base == SOCK_RAW)
		*base = SOCK_DGRAM; /* as Linux's unix_create */
	if (*base != SOCK_STREAM && *base != SOCK_DGRAM && *base != SOCK_SEQPACKET)
		return -ESOCKTNOSUPPORT;
	return 0;
}

static bool fd_free_exists(void)
{
	int fd;

	for (fd = 0; fd < FD_MAX; fd++)
		if (!current->files->t.fd[fd])
			return true;
	return false;
}

static long install(struct file *f, uint64_t type)
{
	int fd = fd_install(&current->files->t, f, 0, type & SOCK_CLOEXEC);

	if (fd < 0)
		file_put(f);
	return fd;
}

SYSCALL_DEFINE3(socket, uint64_t, family, uint64_t, type, uint64_t, protocol)
{
	struct file *f;
	int base;
	long err = check_type(family, type, protocol, &base);

	if (err)
		return err;
	if (!fd_free_exists())
		return -EMFILE;
	err = unix_create(base, (uint32_t)type & O_NONBLOCK, &f);
	return err ? err : install(f, type);
}

SYSCALL_DEFINE4(socketpair, uint64_t, family, uint64_t, type, uint64_t, protocol, uint64_t,
		usockvec)
{
	struct fd_table *t = &current->files->t;
	struct file *fa, *fb;
	int base, fds[2];
	long err = check_type(family, type, protocol, &base);

	if (err)
		return err;
	err = unix_create_pair(base, (uint32_t)type & O_NONBLOCK, &fa, &fb);
	if (err)
		return err;
	fds[0] = fd_install(t, fa, 0, type & SOCK_CLOEXEC);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(t, fb, 0, type & SOCK_CLOEXEC);
	if (fds[1] < 0 || copy_to_user(usockvec, fds, sizeof(fds))) {
		if (fds[0] >= 0)
			fd_close(t, fds[0]);
		else
			file_put(fa);
		if (fds[1] >= 0)
			fd_close(t, fds[1]);
		else
			file_put(fb);
		return fds[1] < 0 ? -EMFILE : -EFAULT;
	}
	return 0;
}

SYSCALL_DEFINE3(bind, uint64_t, fd, uint64_t, umyaddr, uint64_t, addrlen)
{
	uint8_t name[UNIX_NAME_MAX];
	uint32_t namelen;
	long err;
	struct unix_sock *s = sock_fd(fd, &err);

	if (!s)
		return err;
	err = unix_addr_from_user(umyaddr, addrlen, name, &namelen);
	return err ? err : unix_bind(s, name, namelen);
}

SYSCALL_DEFINE2(listen, uint64_t, fd, uint32_t, backlog)
{
	long err;
	struct unix_sock *s = sock_fd(fd, &err);

	if (!s)
		return err;
	if (s->type == SOCK_DGRAM)
		return -EOPNOTSUPP;
	if (!s->addr_len || (s->state != UNIX_CLOSE && s->state != UNIX_LISTEN))
		return -EINVAL;
	s->backlog = backlog > UNIX_SOMAXCONN ? UNIX_SOMAXCONN : backlog;
	s->state = UNIX_LISTEN;
	s->peer_pid = current->tgid; /* what a connecting peer's SO_PEERCRED reports */
	s->has_peercred = true;
	unix_wake(s); /* a larger backlog lets waiting connects in */
	return 0;
}

/* Stream and seqpacket: a new embryo, connected to s, queued on the listener. */
static long stream_connect(struct unix_sock *s, const uint8_t *name, uint32_t namelen,
			   bool nonblock)
{
	struct unix_sock *l, *e;
	uint64_t deadline = 0;
	long err;

	nonblock = nonblock || s->sndtimeo < 0;
	for (;;) {
		if (s->state == UNIX_ESTABLISHED)
			return -EISCONN;
		if (s->state == UNIX_LISTEN)
			return -EINVAL;
		err = unix_find(name, namelen, s->type, &l);
		if (err)
			return err;
		if (l->state != UNIX_LISTEN || l->dead) {
			unix_put(l);
			return -ECONNREFUSED;
		}
		if (l->acc_len <= l->backlog)
			break;
		err = nonblock ? -EAGAIN : unix_wait(l, s->sndtimeo, &deadline);
		unix_put(l);
		if (err)
			return err;
	}
	e = unix_alloc(s->type);
	if (!e) {
		unix_put(l);
		return -ENOMEM;
	}
	e->state = s->state = UNIX_ESTABLISHED;
	e->peer = s;
	unix_get(s);
	s->peer = e;
	unix_get(e);
	memcpy(e->addr, l->addr, l->addr_len); /* accept's socket has the listener's name */
	e->addr_len = l->addr_len;
	e->peer_pid = current->tgid;
	e->has_peercred = true;
	s->peer_pid = l->peer_pid;
	s->has_peercred = true;
	if (l->acc_tail)
		l->acc_tail->acc_next = e;
	else
		l->acc_head = e;
	l->acc_tail = e;
	l->acc_len++;
	unix_wake(l);
	unix_put(l);
	return 0;
}

/* Datagrams: a default destination (AF_UNSPEC: none). */
static long dgram_connect(struct unix_sock *s, const uint8_t *name, uint32_t namelen)
{
	struct unix_sock *other = 0;
	long err;

	if (name) {
		err = unix_find(name, namelen, s->type, &other);
		if (err)
			return err;
		if (other->peer && other->peer != s) {
			unix_put(other);
			return -EPERM;
		}
	}
	if (s->peer)
		unix_put(s->peer);
	s->peer = other;
	s->state = other ? UNIX_ESTABLISHED : UNIX_CLOSE;
	unix_wake(s);
	return 0;
}

SYSCALL_DEFINE3(connect, uint64_t, fd, uint64_t, uservaddr, uint64_t, addrlen)
{
	uint8_t name[UNIX_NAME_MAX];
	uint32_t namelen;
	uint16_t family;
	long err;
	struct unix_sock *s = sock_fd(fd, &err);
	struct file *f = fd_get((int)fd);

	if (!s)
		return err;
	if (s->type == SOCK_DGRAM && (int)addrlen >= (int)sizeof(family)) {
		if (copy_from_user(&family, uservaddr, sizeof(family)))
			return -EFAULT;
		if (family == AF_UNSPEC)
			return dgram_connect(s, 0, 0);
	}
	err = unix_addr_from_user(uservaddr, addrlen, name, &namelen);
	if (err)
		return err;
	if (namelen == UNIX_PATH_OFF)
		return -EINVAL;
	if (s->type == SOCK_DGRAM)
		return dgram_connect(s, name, namelen);
	return stream_connect(s, name, namelen, f->flags & O_NONBLOCK);
}

static long do_accept(uint64_t fd, uint64_t uaddr, uint64_t ulen, uint64_t flags)
{
	static const uint8_t unnamed[UNIX_PATH_OFF] = {AF_UNIX, 0};
	struct file *f = fd_get((int)fd), *nf;
	struct unix_sock *e;
	uint64_t deadline = 0;
	long err;
	struct unix_sock *s = sock_fd(fd, &err);

	if (flags & ~(uint64_t)(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	if (!s)
		return err;
	if (s->type == SOCK_DGRAM)
		return -EOPNOTSUPP;
	if (!fd_free_exists())
		return -EMFILE;
	for (;;) {
		if (s->state != UNIX_LISTEN)
			return -EINVAL;
		if (s->acc_head)
			break;
		if ((f->flags & O_NONBLOCK) || s->rcvtimeo < 0)
			return -EAGAIN;
		err = unix_wait(s, s->rcvtimeo, &deadline);
		if (err)
			return err;
	}
	e = s->acc_head;
	s->acc_head = e->acc_next;
	if (!s->acc_head)
		s->acc_tail = 0;
	s->acc_len--;
	e->acc_next = 0;
	unix_wake(s); /* room in the backlog */
	err = unix_file(e, (uint32_t)flags & O_NONBLOCK, &nf);
	if (err) {
		e->acc_next = s->acc_head; /* back at the head: the connection waits on */
		s->acc_head = e;
		if (!s->acc_tail)
			s->acc_tail = e;
		s->acc_len++;
		return err;
	}
	if (e->peer && e->peer->addr_len)
		err = unix_addr_to_user(e->peer->addr, e->peer->addr_len, uaddr, ulen);
	else
		err = unix_addr_to_user(unnamed, sizeof(unnamed), uaddr, ulen);
	if (err) {
		file_put(nf);
		return err;
	}
	return install(nf, flags);
}

SYSCALL_DEFINE3(accept, uint64_t, fd, uint64_t, upeer_sockaddr, uint64_t, upeer_addrlen)
{
	return do_accept(fd, upeer_sockaddr, upeer_addrlen, 0);
}

SYSCALL_DEFINE4(accept4, uint64_t, fd, uint64_t, upeer_sockaddr, uint64_t, upeer_addrlen, uint64_t,
		flags)
{
	return do_accept(fd, upeer_sockaddr, upeer_addrlen, flags);
}

SYSCALL_DEFINE2(shutdown, uint64_t, fd, int, how)
{
	long err;
	struct unix_sock *s = sock_fd(fd, &err);
	uint32_t mode, peer_mode = 0;

	if (!s)
		return err;
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	mode = (uint32_t)how + 1;
	s->shutdown |= mode;
	if (s->peer && s->type != SOCK_DGRAM) {
		if (mode & RCV_SHUTDOWN)
			peer_mode |= SEND_SHUTDOWN;
		if (mode & SEND_SHUTDOWN)
			peer_mode |= RCV_SHUTDOWN;
		s->peer->shutdown |= peer_mode;
		unix_wake(s->peer);
	}
	unix_wake(s);
	return 0;
}

static long do_getname(uint64_t fd, uint64_t uaddr, uint64_t ulen, bool peer)
{
	static const uint8_t unnamed[UNIX_PATH_OFF] = {AF_UNIX, 0};
	long err;
	struct unix_sock *s = sock_fd(fd, &err);

	if (!s)
		return err;
	if (peer) {
		if (!s->peer || s->state != UNIX_ESTABLISHED)
			return -ENOTCONN;
		s = s->peer;
	}
	if (!uaddr)
		return -EFAULT;
	if (!s->addr_len)
		return unix_addr_to_user(unnamed, sizeof(unnamed), uaddr, ulen);
	return unix_addr_to_user(s->addr, s->addr_len, uaddr, ulen);
}

SYSCALL_DEFINE3(getsockname, uint64_t, fd, uint64_t, usockaddr, uint64_t, usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, false);
}

SYSCALL_DEFINE3(getpeername, uint64_t, fd, uint64_t, usockaddr, uint64_t, usockaddr_len)
{
	return do_getname(fd, usockaddr, usockaddr_len, true);
}

SYSCALL_DEFINE5(getsockopt, uint64_t, fd, uint64_t, level, uint64_t, optname, uint64_t, optval,
		uint64_t, optlen)
{
	struct {
		int pid;
		uint32_t uid, gid;
	} cred;
	int len, v;
	const void *src = &v;
	long err;
	struct unix_sock *s = sock_fd(fd, &err);

	if (!s)
		return err;
	if (level != SOL_SOCKET)
		return -EOPNOTSUPP;
	if (copy_from_user(&len, optlen, sizeof(len)))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	if (timeo_of(s, optname)) {
		int64_t t = *timeo_of(s, optname);
		struct timeval_user tv = {t > 0 ? t / 1000000000 : 0, t > 0 ? t % 1000000000 / 1000 : 0};

		if (len > (int)sizeof(tv))
			len = sizeof(tv);
		if (copy_to_user(optval, &tv, (size_t)len))
			return -EFAULT;
		return copy_to_user(optlen, &len, sizeof(len));
	}
	switch (optname) {
	case SO_TYPE: v = s->type; break;
	case SO_ERROR: v = s->err; s->err = 0; break;
	case SO_SNDBUF: v = (int)s->sndbuf; break;
	case SO_RCVBUF: v = (int)s->rcvbuf; break;
	case SO_PASSCRED: v = s->passcred; break;
	case SO_REUSEADDR: v = s->reuseaddr; break;
	case SO_ACCEPTCONN: v = s->state == UNIX_LISTEN; break;
	case SO_DOMAIN: v = AF_UNIX; break;
	case SO_PROTOCOL: v = 0; break;
	case SO_PEERCRED:
		/* Nobody connected: pid 0, uid and gid -1, as Linux's cred_to_ucred without a cred. */
		cred.pid = s->has_peercred ? s->peer_pid : 0;
		cred.uid = cred.gid = s->has_peercred ? 0 : (uint32_t)-1;
		src = &cred;
		if (len > (int)sizeof(cred))
			len = sizeof(cred);
		goto out;
	default:
		return -ENOPROTOOPT;
	}
	if (len > (int)sizeof(v))
		len = sizeof(v);
out:
	if (copy_to_user(optval, src, (size_t)len))
		return -EFAULT;
	return copy_to_user(optlen, &len, sizeof(len));
}

SYSCALL_DEFINE5(setsockopt, uint64_t, fd, uint64_t, level, uint64_t, optname, uint64_t, optval,
		uint64_t, optlen)
{
	long err;
	struct unix_sock *s = sock_fd(fd, &err);
	uint32_t v;
	int val;

	if (!s)
		return err;
	if ((int)optlen < 0)
		return -EINVAL;
	if (level != SOL_SOCKET)
		return -EOPNOTSUPP;
	if (timeo_of(s, optname))
		return set_timeo(timeo_of(s, optname), optval, optlen);
	if ((int)optlen < (int)sizeof(int))
		return -EINVAL;
	if (copy_from_user(&val, optval, sizeof(val)))
		return -EFAULT;
	/* Buffer sizes as Linux's sock_setsockopt: capped at the max, doubled, a floor. */
	v = (uint32_t)val > UNIX_BUF_MAX ? UNIX_BUF_MAX : (uint32_t)val;
	switch (optname) {
	case SO_SNDBUF:
		s->sndbuf = v * 2 > UNIX_SNDBUF_MIN ? v * 2 : UNIX_SNDBUF_MIN;
		break;
	case SO_RCVBUF:
		s->rcvbuf = v * 2 > UNIX_RCVBUF_MIN ? v * 2 : UNIX_RCVBUF_MIN;
		break;
	case SO_PASSCRED:
		s->passcred = val != 0;
		break;
	case SO_REUSEADDR:
		s->reuseaddr = val != 0;
		break;
	default:
		return -ENOPROTOOPT;
	}
	unix_wake(s);
	return 0;
}
