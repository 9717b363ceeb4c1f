/*
 * AF_UNIX sockets (unix_sock.h): the objects, their names, their queues,
 * the file operations and the last close.
 */
#include "fs/path.h"
#include "fs/poll.h"
#include "fs/unix_sock.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "time/time.h"

static struct unix_sock *bound_list; /* every live socket with a name */
static uint32_t autobind_next;

static const struct file_ops unix_file_ops;

struct unix_sock *unix_of(const struct file *f)
{
	return f && f->ops == &unix_file_ops ? f->priv : 0;
}

void unix_get(struct unix_sock *s)
{
	s->refs++;
}

void unix_put(struct unix_sock *s)
{
	if (--s->refs)
		return;
	unix_purge(s);
	kfree(s, sizeof(*s));
}

void unix_wake(struct unix_sock *s)
{
	wake_up(&s->wait);
	poll_notify();
}

int unix_wait(struct unix_sock *chan, int64_t timeo, uint64_t *deadline)
{
	int r;

	if (timeo > 0 && !*deadline)
		*deadline = time_monotonic_ns() + (uint64_t)timeo;
	r = sched_block(&chan->wait, timeo > 0 ? *deadline : 0, true);
	if (r == -ETIMEDOUT)
		return -EAGAIN;
	if (r == -EINTR && signal_pending(current))
		return timeo > 0 ? -EINTR : -ERESTARTSYS;
	return 0;
}

long unix_unread(const struct file *f)
{
	const struct unix_sock *s = unix_of(f);
	const struct unix_skb *skb;
	long n = 0;

	if (!s)
		return -ENOTTY;
	if (s->state == UNIX_LISTEN)
		return -EINVAL;
	if (s->type != SOCK_STREAM)
		return s->rq_head ? (long)s->rq_head->len : 0;
	for (skb = s->rq_head; skb; skb = skb->next)
		n += skb->len - skb->off;
	return n;
}

void unix_sigpipe(void)
{
	struct ksiginfo info = {.signo = SIGPIPE, .code = SI_USER, .pid = current->tgid};

	signal_send(current, SIGPIPE, &info, false);
}

void unix_skb_free(struct unix_skb *skb)
{
	uint32_t i;

	for (i = 0; i < skb->nchunks; i++) {
		uint32_t n = i + 1 < skb->nchunks ? PAGE_SIZE : skb->len - i * PAGE_SIZE;

		kfree(skb->chunk[i], n);
	}
	for (i = 0; i < skb->nfp; i++)
		file_put(skb->fp[i]);
	if (skb->fp)
		kfree(skb->fp, skb->nfp * sizeof(skb->fp[0]));
	if (skb->from) {
		skb->from->wmem -= skb->cost;
		unix_wake(skb->from);
		unix_put(skb->from);
	}
	kfree(skb, sizeof(*skb) + skb->nchunks * sizeof(skb->chunk[0]));
}

struct unix_skb *unix_dequeue(struct unix_sock *s)
{
	struct unix_skb *skb = s->rq_head;

	if (skb) {
		s->rq_head = skb->next;
		if (!s->rq_head)
			s->rq_tail = 0;
		s->rq_len--;
		skb->next = 0;
		unix_wake(s); /* room for datagrams waiting on the queue length */
	}
	return skb;
}

void unix_purge(struct unix_sock *s)
{
	struct unix_skb *skb;

	while ((skb = unix_dequeue(s)))
		unix_skb_free(skb);
}

struct unix_sock *unix_alloc(int type)
{
	struct unix_sock *s = kzalloc(sizeof(*s));

	if (!s)
		return 0;
	s->type = type;
	s->refs = 1;
	s->sndbuf = UNIX_BUF_DEFAULT;
	s->rcvbuf = UNIX_BUF_DEFAULT;
	return s;
}

int unix_file(struct unix_sock *s, uint32_t flags, struct file **out)
{
	struct inode *node = kzalloc(sizeof(*node));
	int err;

	if (!node)
		return -ENOMEM;
	node->ino = vfs_next_ino();
	node->mode = S_IFSOCK | 0777;
	node->nlink = 1;
	node->dev = 0x08; /* 0:8, a sockfs of its own */
	node->ops = &unix_file_ops;
	*out = file_open(node, O_RDWR | (flags & O_NONBLOCK), &err);
	if (!*out) {
		node->nlink = 0;
		vfs_release(node);
		return err;
	}
	(*out)->priv = s;
	return 0;
}

int unix_create(int type, uint32_t flags, struct file **out)
{
	struct unix_sock *s = unix_alloc(type);
	int err;

	if (!s)
		return -ENOMEM;
	err = unix_file(s, flags, out);
	if (err)
		unix_put(s);
	return err;
}

int unix_create_pair(int type, uint32_t flags, struct file **a, struct file **b)
{
	struct unix_sock *sa, *sb;
	int err = unix_create(type, flags, a);

	if (err)
		return err;
	err = unix_create(type, flags, b);
	if (err) {
		file_put(*a);
		return err;
	}
	sa = (*a)->priv;
	sb = (*b)->priv;
	sa->peer = sb;
	sb->peer = sa;
	unix_get(sa);
	unix_get(sb);
	sa->state = sb->state = UNIX_ESTABLISHED;
	sa->peer_pid = sb->peer_pid = current->tgid;
	sa->has_peercred = sb->has_peercred = true;
	return 0;
}

int unix_addr_from_user(uint64_t uaddr, uint64_t len, uint8_t *name, uint32_t *namelen)
{
	uint16_t family;

	if ((int)len < UNIX_PATH_OFF || (int)len > UNIX_ADDR_MAX)
		return -EINVAL;
	if (copy_from_user(name, uaddr, len))
		return -EFAULT;
	memcpy(&family, name, sizeof(family));
	if (family != AF_UNIX)
		return -EINVAL;
	*namelen = (uint32_t)len;
	if (len > UNIX_PATH_OFF && name[UNIX_PATH_OFF]) {
		/* A path ends at its first NUL or at len, where a NUL is added (index <= 110). */
		size_t n = 0;

		while (UNIX_PATH_OFF + n < len && name[UNIX_PATH_OFF + n])
			n++;
		name[UNIX_PATH_OFF + n] = 0;
		*namelen = (uint32_t)(UNIX_PATH_OFF + n + 1);
	}
	return 0;
}

static bool is_abstract(const uint8_t *name)
{
	return !name[UNIX_PATH_OFF];
}

/* Linux keeps one abstract namespace per socket type. */
static struct unix_sock *find_abstract(const uint8_t *name, uint32_t namelen, int type)
{
	struct unix_sock *s;

	for (s = bound_list; s; s = s->bound_next)
		if (!s->node && s->type == type && s->addr_len == namelen &&
		    !memcmp(s->addr, name, namelen))
			return s;
	return 0;
}

static void bind_set(struct unix_sock *s, const uint8_t *name, uint32_t namelen, struct inode *node)
{
	memcpy(s->addr, name, namelen);
	s->addr_len = namelen;
	s->node = node;
	s->bound_next = bound_list;
	bound_list = s;
}

/* The empty name: "\0" and five hex digits nobody holds (Linux's 2^20 names). */
static int autobind(struct unix_sock *s)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t name[UNIX_PATH_OFF + 6] = {AF_UNIX, 0, 0};
	uint32_t tries, v;
	int i;

	for (tries = 0; tries < (1u << 20); tries++) {
		v = autobind_next++ & 0xfffff;
		for (i = 0; i < 5; i++)
			name[UNIX_PATH_OFF + 5 - i] = (uint8_t)hex[(v >> (4 * i)) & 0xf];
		if (!find_abstract(name, sizeof(name), s->type)) {
			bind_set(s, name, sizeof(name), 0);
			return 0;
		}
	}
	return -ENOSPC;
}

int unix_bind(struct unix_sock *s, const uint8_t *name, uint32_t namelen)
{
	struct lookup l;
	struct inode *node;
	int err;

	if (namelen == UNIX_PATH_OFF)
		return s->addr_len ? 0 : autobind(s); /* a bound socket keeps its name */
	if (s->addr_len)
		return -EINVAL;
	if (is_abstract(name)) {
		if (find_abstract(name, namelen, s->type))
			return -EADDRINUSE;
		bind_set(s, name, namelen, 0);
		return 0;
	}
	err = vfs_resolve(current->cwd, (const char *)name + UNIX_PATH_OFF, false, &l);
	if (err)
		return err;
	if (l.node)
		return -EADDRINUSE;
	if (l.trailing_slash)
		return -ENOENT;
	if (!(l.dir->flags & INODE_WRITABLE))
		return -EROFS;
	node = vfs_create(l.dir, l.name, l.namelen, S_IFSOCK | (0777 & ~current->umask));
	if (!node)
		return -ENOSPC;
	node->opens++; /* the binding keeps the node while it lasts, linked or not */
	bind_set(s, name, namelen, node);
	return 0;
}

int unix_find(const uint8_t *name, uint32_t namelen, int type, struct unix_sock **out)
{
	struct unix_sock *s = 0;

	if (namelen == UNIX_PATH_OFF)
		return -EINVAL;
	if (is_abstract(name)) {
		s = find_abstract(name, namelen, type);
	} else {
		struct inode *node;
		int err = vfs_lookup(current->cwd, (const char *)name + UNIX_PATH_OFF, true, &node);

		if (err)
			return err;
		if (!S_ISSOCK(node->mode))
			return -ECONNREFUSED;
		for (s = bound_list; s && s->node != node; s = s->bound_next)
			;
	}
	if (!s)
		return -ECONNREFUSED;
	if (s->type != type)
		return -EPROTOTYPE;
	unix_get(s);
	*out = s;
	return 0;
}

static void unbind(struct unix_sock *s)
{
	struct unix_sock **pp;

	if (!s->addr_len)
		return;
	for (pp = &bound_list; *pp; pp = &(*pp)->bound_next) {
		if (*pp == s) {
			*pp = s->bound_next;
			break;
		}
	}
	if (s->node) {
		s->node->opens--;
		vfs_release(s->node);
		s->node = 0;
	}
}

int unix_addr_to_user(const uint8_t *addr, uint32_t len, uint64_t uaddr, uint64_t ulen)
{
	int ulenv;

	if (!uaddr)
		return 0;
	if (copy_from_user(&ulenv, ulen, sizeof(ulenv)))
		return -EFAULT;
	if (ulenv > (int)len)
		ulenv = (int)len;
	if (ulenv < 0)
		return -EINVAL;
	if (ulenv && copy_to_user(uaddr, addr, (size_t)ulenv))
		return -EFAULT;
	return copy_to_user(ulen, &(int){(int)len}, sizeof(int));
}

/* The last close (Linux's unix_release_sock); embryo: never accepted. */
static void unix_release_sock(struct unix_sock *s, bool embryo)
{
	struct unix_sock *peer = s->peer, *e;

	unbind(s);
	s->dead = true;
	s->state = UNIX_CLOSE;
	s->shutdown = SHUTDOWN_MASK;
	if (peer) {
		if (s->type != SOCK_DGRAM) {
			peer->shutdown = SHUTDOWN_MASK;
			if (s->rq_head || embryo)
				peer->err = ECONNRESET;
			unix_wake(peer);
		}
		s->peer = 0;
		unix_put(peer);
	}
	while ((e = s->acc_head)) {
		s->acc_head = e->acc_next;
		unix_release_sock(e, true);
	}
	s->acc_tail = 0;
	s->acc_len = 0;
	unix_purge(s);
	unix_wake(s);
	unix_put(s);
}

static void unix_file_release(struct file *f)
{
	f->inode->nlink = 0; /* file_put frees the node after this */
	unix_release_sock(f->priv, false);
}

static long unix_file_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct unix_msg m = {0};
	struct uio u;

	(void)off;
	if (!len)
		return 0;
	uio_init_buf(&u, ubuf, len);
	return unix_recv(f->priv, &u, 0, f->flags & O_NONBLOCK, &m);
}

static long unix_file_write(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct unix_msg m = {0};
	struct uio u;

	(void)off;
	uio_init_buf(&u, ubuf, len);
	return unix_send(f->priv, &u, 0, f->flags & O_NONBLOCK, &m);
}

/* Linux's unix_writable: not listening and at most a quarter of sndbuf in flight. */
static bool writable(const struct unix_sock *s)
{
	return s->state != UNIX_LISTEN && (uint64_t)s->wmem * 4 <= s->sndbuf;
}

/* Linux's unix_poll (stream) and unix_dgram_poll (datagram, seqpacket). */
static uint32_t unix_file_poll(struct file *f)
{
	struct unix_sock *s = f->priv, *peer = s->peer;
	uint32_t mask = 0;

	if (s->err)
		mask |= POLLERR;
	if (s->shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (s->shutdown & RCV_SHUTDOWN)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (s->rq_head || (s->state == UNIX_LISTEN && s->acc_head))
		mask |= POLLIN | POLLRDNORM;
	if (s->type != SOCK_DGRAM && s->state == UNIX_CLOSE)
		mask |= POLLHUP;
	if (writable(s) && !(s->type != SOCK_STREAM && peer && peer->peer != s && !peer->dead &&
			     peer->rq_len > UNIX_DGRAM_QLEN))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

static const struct file_ops unix_file_ops = {
	.read = unix_file_read,
	.write = unix_file_write,
	.release = unix_file_release,
	.poll = unix_file_poll,
};
