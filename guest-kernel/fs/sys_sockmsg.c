/*
 * Socket data syscalls: sendto, recvfrom, sendmsg, recvmsg (struct msghdr
 * with its iovec, name and SCM_RIGHTS control messages), and readv/writev
 * on a socket as one message each (unix_sock.h).
 */
#include "fs/unix_sock.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "sys/uio.h"

#define SCM_RIGHTS 1
#define SOCKADDR_STORAGE 128
#define CMSG_HDR 16 /* struct cmsghdr: size_t len, int level, int type */
#define CMSG_ALIGN(n) (((n) + 7) & ~(uint64_t)7)

struct msghdr_user {
	uint64_t name;
	int32_t namelen, pad0;
	uint64_t iov, iovlen, control, controllen;
	int32_t flags, pad1;
};
_Static_assert(sizeof(struct msghdr_user) == 56, "struct msghdr of x86-64 Linux");

struct cmsghdr_user {
	uint64_t len;
	int32_t level, type;
};

static struct unix_sock *sock_fd(uint64_t fd, struct file **f, long *err)
{
	struct unix_sock *s;

	*f = fd_get((int)fd);
	s = unix_of(*f);
	*err = !*f ? -EBADF : !s ? -ENOTSOCK : 0;
	return s;
}

/* A destination name (uaddr 0 or ulen 0: none) into m: 0 or -errno. */
static int dest_from_user(uint64_t uaddr, uint64_t ulen, uint8_t *buf, struct unix_msg *m)
{
	int err;

	if (!uaddr || !(int)ulen)
		return 0;
	if ((int)ulen < 0 || (int)ulen > SOCKADDR_STORAGE)
		return -EINVAL;
	err = unix_addr_from_user(uaddr, ulen, buf, &m->namelen);
	if (err)
		return err;
	if (m->namelen == UNIX_PATH_OFF)
		return -EINVAL;
	m->name = buf;
	return 0;
}

static void drop_fds(struct unix_msg *m)
{
	uint32_t i;

	for (i = 0; i < m->nfp; i++)
		file_put(m->fp[i]);
	m->nfp = 0;
}

static long send_common(struct unix_sock *s, struct file *f, struct uio *u, int flags,
			struct unix_msg *m)
{
	long ret = unix_send(s, u, flags, f->flags & O_NONBLOCK, m);

	drop_fds(m); /* what the message did not take */
	return ret;
}

SYSCALL_DEFINE6(sendto, uint64_t, fd, uint64_t, buff, uint64_t, len, int, flags, uint64_t, addr,
		uint64_t, addr_len)
{
	uint8_t name[UNIX_NAME_MAX];
	struct unix_msg m = {0};
	struct file *f;
	struct uio u;
	long err;
	struct unix_sock *s = sock_fd(fd, &f, &err);

	if (!s)
		return err;
	if (!user_range_ok(buff, len))
		return -EFAULT;
	err = dest_from_user(addr, addr_len, name, &m);
	if (err)
		return err;
	uio_init_buf(&u, buff, len);
	return send_common(s, f, &u, flags, &m);
}

SYSCALL_DEFINE6(recvfrom, uint64_t, fd, uint64_t, ubuf, uint64_t, size, int, flags, uint64_t, addr,
		uint64_t, addr_len)
{
	struct unix_msg m = {0};
	struct file *f;
	struct uio u;
	long err, ret;
	struct unix_sock *s = sock_fd(fd, &f, &err);

	if (!s)
		return err;
	if (!user_range_ok(ubuf, size))
		return -EFAULT;
	uio_init_buf(&u, ubuf, size);
	ret = unix_recv(s, &u, flags, f->flags & O_NONBLOCK, &m);
	unix_msg_done(&m); /* recvfrom has no room for descriptors: they are closed */
	if (ret >= 0 && addr) {
		err = unix_addr_to_user(m.from, m.fromlen, addr, addr_len);
		if (err)
			return err;
	}
	return ret;
}

/* SCM_RIGHTS from the control buffer into m (references taken): 0 or -errno. */
static long control_from_user(uint64_t uctl, uint64_t len, struct unix_msg *m, struct file **fp)
{
	uint64_t off = 0;

	if (len > 0x7fffffff)
		return -ENOBUFS;
	while (len - off >= CMSG_HDR) {
		struct cmsghdr_user h;
		uint32_t i, n;

		if (copy_from_user(&h, uctl + off, sizeof(h)))
			return -EFAULT;
		if (h.len < CMSG_HDR || h.len > len - off)
			return -EINVAL;
		if (h.level == SOL_SOCKET) {
			/* SCM_CREDENTIALS is not implemented: refused, not ignored. */
			if (h.type != SCM_RIGHTS || m->nfp)
				return -EINVAL;
			n = (uint32_t)((h.len - CMSG_HDR) / sizeof(int));
			if (n > SCM_MAX_FD)
				return -EINVAL;
			for (i = 0; i < n; i++) {
				int fd;
				struct file *pf;

				if (copy_from_user(&fd, uctl + off + CMSG_HDR + i * sizeof(int), sizeof(fd)))
					return -EFAULT;
				pf = fd_get(fd);
				if (!pf)
					return -EBADF;
				pf->refs++;
				fp[m->nfp++] = pf;
			}
		}
		off += CMSG_ALIGN(h.len);
		if (off > len)
			break;
	}
	return 0;
}

static long do_sendmsg(uint64_t fd, uint64_t umsg, uint64_t flags)
{
	uint8_t name[UNIX_NAME_MAX];
	struct file *fp[SCM_MAX_FD];
	struct unix_msg m = {.fp = fp};
	struct msghdr_user h;
	struct file *f;
	struct uio u;
	long err;
	struct unix_sock *s = sock_fd(fd, &f, &err);

	if (!s)
		return err;
	if (copy_from_user(&h, umsg, sizeof(h)))
		return -EFAULT;
	if (h.iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	err = dest_from_user(h.name, (uint64_t)(int64_t)h.namelen, name, &m);
	if (!err)
		err = uio_init_vec(&u, h.iov, h.iovlen);
	if (!err)
		err = control_from_user(h.control, h.controllen, &m, fp);
	if (err) {
		drop_fds(&m);
		return err;
	}
	return send_common(s, f, &u, (int)flags, &m);
}

SYSCALL_DEFINE3(sendmsg, uint64_t, fd, uint64_t, msg, uint64_t, flags)
{
	return do_sendmsg(fd, msg, flags);
}

/*
 * The received descriptors as one SCM_RIGHTS message in the user's control
 * buffer: as many as fit (the rest closed, MSG_CTRUNC); the bytes used.
 */
static uint64_t control_to_user(const struct unix_msg *m, uint64_t uctl, uint64_t len,
				bool cloexec, uint32_t *flags)
{
	const struct unix_skb *skb = m->fp_skb;
	uint32_t i, fit = len >= CMSG_HDR ? (uint32_t)((len - CMSG_HDR) / sizeof(int)) : 0, k = 0;
	struct cmsghdr_user h = {.level = SOL_SOCKET, .type = SCM_RIGHTS};

	if (!skb)
		return 0;
	if (fit < skb->nfp)
		*flags |= MSG_CTRUNC;
	for (i = 0; i < skb->nfp && i < fit; i++) {
		struct file *pf = skb->fp[i];
		int nfd;

		pf->refs++;
		nfd = fd_install(&current->files->t, pf, 0, cloexec);
		if (nfd < 0) {
			file_put(pf);
			*flags |= MSG_CTRUNC;
			break;
		}
		if (copy_to_user(uctl + CMSG_HDR + k * sizeof(int), &nfd, sizeof(nfd))) {
			fd_close(&current->files->t, nfd);
			*flags |= MSG_CTRUNC;
			break;
		}
		k++;
	}
	if (!k)
		return 0;
	h.len = CMSG_HDR + k * sizeof(int);
	if (copy_to_user(uctl, &h, sizeof(h)))
		return 0;
	return CMSG_ALIGN(h.len) < len ? CMSG_ALIGN(h.len) : len;
}

static long do_recvmsg(uint64_t fd, uint64_t umsg, uint64_t flags)
{
	/* msg_flags starts as Linux's: MSG_CMSG_CLOEXEC echoed back. */
	struct unix_msg m = {.flags_out = (uint32_t)flags & MSG_CMSG_CLOEXEC};
	struct msghdr_user h;
	struct file *f;
	struct uio u;
	uint64_t ctl_used = 0;
	long err, ret;
	struct unix_sock *s = sock_fd(fd, &f, &err);

	if (!s)
		return err;
	if (copy_from_user(&h, umsg, sizeof(h)))
		return -EFAULT;
	if (h.iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	if (h.name && h.namelen < 0)
		return -EINVAL;
	err = uio_init_vec(&u, h.iov, h.iovlen);
	if (err)
		return err;
	ret = unix_recv(s, &u, (int)flags, f->flags & O_NONBLOCK, &m);
	if (ret >= 0 && m.fp_skb && h.control)
		ctl_used = control_to_user(&m, h.control, h.controllen, flags & MSG_CMSG_CLOEXEC,
					   &m.flags_out);
	else if (ret >= 0 && m.fp_skb)
		m.flags_out |= MSG_CTRUNC;
	unix_msg_done(&m);
	if (ret < 0)
		return ret;
	if (h.name) {
		err = unix_addr_to_user(m.from, m.fromlen, h.name,
					umsg + offsetof(struct msghdr_user, namelen));
		if (err)
			return err;
	}
	if (copy_to_user(umsg + offsetof(struct msghdr_user, controllen), &ctl_used,
			 sizeof(ctl_used)) ||
	    copy_to_user(umsg + offsetof(struct msghdr_user, flags), &(int){(int)m.flags_out},
			 sizeof(int)))
		return -EFAULT;
	return ret;
}

SYSCALL_DEFINE3(recvmsg, uint64_t, fd, uint64_t, msg, uint64_t, flags)
{
	return do_recvmsg(fd, msg, flags);
}

long unix_readv(struct file *f, uint64_t uiov, uint64_t nr)
{
	struct unix_msg m = {0};
	struct uio u;
	long ret = uio_init_vec(&u, uiov, nr);

	if (ret)
		return ret;
	ret = unix_recv(f->priv, &u, 0, f->flags & O_NONBLOCK, &m);
	unix_msg_done(&m);
	return ret;
}

long unix_writev(struct file *f, uint64_t uiov, uint64_t nr)
{
	struct unix_msg m = {0};
	struct uio u;
	long ret = uio_init_vec(&u, uiov, nr);

	return ret ? ret : unix_send(f->priv, &u, 0, f->flags & O_NONBLOCK, &m);
}
