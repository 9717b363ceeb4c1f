/*
 * AF_UNIX data (unix_sock.h): user memory as a buffer or an iovec array,
 * and sending and receiving as Linux's unix_stream_sendmsg,
 * unix_stream_read_generic, unix_dgram_sendmsg and unix_dgram_recvmsg.
 */
#include "fs/unix_sock.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "sys/uio.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

void uio_init_buf(struct uio *u, uint64_t buf, uint64_t len)
{
	*u = (struct uio){.base = buf, .left = min_u64(len, MAX_RW_COUNT)};
	u->resid = u->left;
}

int uio_init_vec(struct uio *u, uint64_t uiov, uint64_t nr)
{
	struct iovec_user v;
	uint64_t i, total = 0;

	if (nr > UIO_MAXIOV)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (copy_from_user(&v, uiov + i * sizeof(v), sizeof(v)))
			return -EFAULT;
		if ((int64_t)v.len < 0)
			return -EINVAL;
		if (!user_range_ok(v.base, v.len))
			return -EFAULT;
		total += min_u64(v.len, MAX_RW_COUNT);
	}
	*u = (struct uio){.uiov = uiov, .nr = nr, .resid = min_u64(total, MAX_RW_COUNT)};
	return 0;
}

/* The next non-empty piece: 0 or -EFAULT (the array changed under us). */
static int uio_next(struct uio *u)
{
	struct iovec_user v;

	while (!u->left) {
		if (u->idx >= u->nr)
			return -EFAULT;
		if (copy_from_user(&v, u->uiov + u->idx++ * sizeof(v), sizeof(v)))
			return -EFAULT;
		u->base = v.base;
		u->left = min_u64(v.len, u->resid);
	}
	return 0;
}

static int uio_move(struct uio *u, void *k, size_t n, bool to_user)
{
	while (n) {
		size_t c;

		if (uio_next(u))
			return -EFAULT;
		c = (size_t)min_u64(n, u->left);
		if (to_user ? copy_to_user(u->base, k, c) : copy_from_user(k, u->base, c))
			return -EFAULT;
		u->base += c;
		u->left -= c;
		u->resid -= c;
		k = (uint8_t *)k + c;
		n -= c;
	}
	return 0;
}

int uio_to_user(struct uio *u, const void *src, size_t n)
{
	return uio_move(u, (void *)src, n, true);
}

int uio_from_user(struct uio *u, void *dst, size_t n)
{
	return uio_move(u, dst, n, false);
}

static uint32_t chunks_for(size_t len)
{
	return (uint32_t)((len + PAGE_SIZE - 1) / PAGE_SIZE);
}

/* A message of len bytes copied from u: the message or NULL with *err. */
static struct unix_skb *skb_from_user(struct uio *u, size_t len, int *err)
{
	uint32_t i, n = chunks_for(len);
	struct unix_skb *skb = kzalloc(sizeof(*skb) + n * sizeof(skb->chunk[0]));

	*err = -ENOMEM;
	if (!skb)
		return 0;
	skb->len = (uint32_t)len;
	for (i = 0; i < n; i++) {
		size_t c = i + 1 < n ? PAGE_SIZE : len - (size_t)i * PAGE_SIZE;

		skb->chunk[i] = kzalloc(c);
		skb->nchunks = i + 1;
		if (!skb->chunk[i]) {
			skb->nchunks = i;
			break;
		}
		if (uio_from_user(u, skb->chunk[i], c)) {
			*err = -EFAULT;
			break;
		}
	}
	if (i < n) {
		unix_skb_free(skb);
		return 0;
	}
	*err = 0;
	return skb;
}

/* Copies skb's bytes [off, off + n) out: 0 or -EFAULT. */
static int skb_to_user(const struct unix_skb *skb, size_t off, size_t n, struct uio *u)
{
	while (n) {
		size_t i = off / PAGE_SIZE, o = off % PAGE_SIZE;
		size_t c = (size_t)min_u64(n, PAGE_SIZE - o);

		if (uio_to_user(u, skb->chunk[i] + o, c))
			return -EFAULT;
		off += c;
		n -= c;
	}
	return 0;
}

/* The descriptors of m go with skb (their references move): 0 or -ENOMEM. */
static int attach_fds(struct unix_skb *skb, struct unix_msg *m)
{
	if (!m->nfp)
		return 0;
	skb->fp = kzalloc(m->nfp * sizeof(skb->fp[0]));
	if (!skb->fp)
		return -ENOMEM;
	memcpy(skb->fp, m->fp, m->nfp * sizeof(skb->fp[0]));
	skb->nfp = m->nfp;
	m->nfp = 0;
	return 0;
}

/* Queues skb from s on to: charged to s. */
static void skb_queue(struct unix_sock *s, struct unix_sock *to, struct unix_skb *skb)
{
	skb->from = s;
	unix_get(s);
	skb->cost = skb->len + UNIX_SKB_COST;
	s->wmem += skb->cost;
	if (to->rq_tail)
		to->rq_tail->next = skb;
	else
		to->rq_head = skb;
	to->rq_tail = skb;
	to->rq_len++;
	unix_wake(to);
}

static long stream_send(struct unix_sock *s, struct uio *u, int flags, bool nonblock,
			struct unix_msg *m)
{
	struct unix_sock *peer = s->peer;
	uint64_t sent = 0, total = u->resid, deadline = 0;
	int err;

	if (m->name)
		return s->state == UNIX_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
	if (!peer)
		return -ENOTCONN;
	for (;;) {
		struct unix_skb *skb;
		size_t size;

		if ((s->shutdown & SEND_SHUTDOWN) || peer->dead || (peer->shutdown & RCV_SHUTDOWN)) {
			if (!sent && !(flags & MSG_NOSIGNAL))
				unix_sigpipe();
			return sent ? (long)sent : -EPIPE;
		}
		if (sent == total)
			return (long)sent;
		if (s->wmem >= s->sndbuf) {
			if (nonblock)
				return sent ? (long)sent : -EAGAIN;
			err = unix_wait(s, s->sndtimeo, &deadline);
			if (err)
				return sent ? (long)sent : err;
			continue;
		}
		size = (size_t)min_u64(min_u64(total - sent, s->sndbuf / 2 - 64), UNIX_STREAM_SKB_MAX);
		skb = skb_from_user(u, size, &err);
		if (skb && (err = attach_fds(skb, m)))
			unix_skb_free(skb);
		if (!skb || err)
			return sent ? (long)sent : err;
		skb_queue(s, peer, skb);
		sent += size;
	}
}

/* Datagrams and seqpacket messages: one message, whole, or nothing. */
static long dgram_send(struct unix_sock *s, struct uio *u, bool nonblock, struct unix_msg *m)
{
	uint64_t len = u->resid, deadline = 0;
	struct unix_sock *other;
	struct unix_skb *skb;
	int err;

	if (s->type == SOCK_SEQPACKET) {
		if (s->err) {
			err = -s->err;
			s->err = 0;
			return err;
		}
		if (s->state != UNIX_ESTABLISHED)
			return -ENOTCONN;
		m->name = 0;
	}
	if (s->shutdown & SEND_SHUTDOWN)
		return -EPIPE;
	if (!m->name && !s->peer)
		return -ENOTCONN;
	if (len > s->sndbuf - 32)
		return -EMSGSIZE;
	for (;;) {
		if (m->name) {
			err = unix_find(m->name, m->namelen, s->type, &other);
			if (err)
				return err;
		} else {
			other = s->peer;
			if (!other)
				return -ENOTCONN;
			unix_get(other);
		}
		err = 0;
		if (other->dead) {
			/* The peer closed: seqpacket says EPIPE; a datagram socket is disconnected. */
			err = s->type == SOCK_SEQPACKET ? -EPIPE : -ECONNREFUSED;
			if (s->peer == other && s->type == SOCK_DGRAM) {
				s->peer = 0;
				s->state = UNIX_CLOSE;
				unix_put(other);
			}
		} else if (other->peer && other->peer != s) {
			err = -EPERM;
		} else if (other->shutdown & RCV_SHUTDOWN) {
			err = -EPIPE;
		} else if ((other != s && other->peer != s && other->rq_len > UNIX_DGRAM_QLEN) ||
			   s->wmem >= s->sndbuf) {
			bool queue_full = s->wmem < s->sndbuf;

			err = nonblock ? -EAGAIN
				       : unix_wait(queue_full ? other : s, s->sndtimeo, &deadline);
			if (!err) {
				unix_put(other);
				continue;
			}
		}
		if (err) {
			unix_put(other);
			return err;
		}
		break;
	}
	skb = skb_from_user(u, (size_t)len, &err);
	if (skb && (err = attach_fds(skb, m)))
		unix_skb_free(skb);
	else if (skb)
		skb_queue(s, other, skb);
	unix_put(other);
	return err ? err : (long)len;
}

long unix_send(struct unix_sock *s, struct uio *u, int flags, bool nonblock, struct unix_msg *m)
{
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	nonblock = nonblock || (flags & MSG_DONTWAIT) || s->sndtimeo < 0;
	if (s->type == SOCK_STREAM)
		return stream_send(s, u, flags, nonblock, m);
	return dgram_send(s, u, nonblock, m);
}

static void note_sender(struct unix_msg *m, const struct unix_skb *skb)
{
	if (skb->from && skb->from->addr_len) {
		memcpy(m->from, skb->from->addr, skb->from->addr_len);
		m->fromlen = skb->from->addr_len;
	}
}

/* A consumed message with descriptors goes to the caller (m->fp_skb) to install them. */
static void skb_done(struct unix_sock *s, struct unix_skb *skb, struct unix_msg *m, bool peek)
{
	if (peek) {
		if (skb->nfp)
			m->fp_skb = skb;
		return;
	}
	if (s->rq_head == skb)
		unix_dequeue(s);
	if (skb->nfp) {
		m->fp_skb = skb;
		m->fp_owned = true;
	} else {
		unix_skb_free(skb);
	}
}

static long stream_recv(struct unix_sock *s, struct uio *u, int flags, bool nonblock,
			struct unix_msg *m)
{
	bool peek = flags & MSG_PEEK;
	uint64_t size = u->resid, copied = 0;
	uint64_t target = (flags & MSG_WAITALL) ? size : 1, deadline = 0;
	struct unix_skb *skb = 0;
	long err = 0;
	bool had_fp;

	if (s->state != UNIX_ESTABLISHED)
		return -EINVAL;
	if (!target)
		target = 1;
	do {
		uint64_t skip, chunk;

		skb = peek ? (skb ? skb->next : s->rq_head) : s->rq_head;
		if (!skb) {
			if (copied >= target || (peek && copied))
				break;
			if (s->err) {
				err = -s->err;
				s->err = 0;
				break;
			}
			if (s->shutdown & RCV_SHUTDOWN)
				break;
			if (nonblock) {
				err = -EAGAIN;
				break;
			}
			err = unix_wait(s, s->rcvtimeo, &deadline);
			if (err)
				break;
			continue;
		}
		if (copied && skb->nfp)
			break; /* descriptors come with the read that starts at their message */
		skip = skb->off;
		chunk = min_u64(skb->len - skip, size);
		if (skb_to_user(skb, skip, chunk, u)) {
			err = -EFAULT;
			break;
		}
		if (!copied)
			note_sender(m, skb);
		copied += chunk;
		size -= chunk;
		if (!peek)
			skb->off += (uint32_t)chunk;
		if (!peek && skb->off < skb->len)
			break;
		had_fp = skb->nfp != 0;
		skb_done(s, skb, m, peek);
		if (had_fp)
			break;
	} while (size);
	return copied ? (long)copied : err;
}

static long dgram_recv(struct unix_sock *s, struct uio *u, int flags, bool nonblock,
		       struct unix_msg *m)
{
	struct unix_skb *skb;
	uint64_t n, len, deadline = 0;
	int err;

	if (s->type == SOCK_SEQPACKET && s->state != UNIX_ESTABLISHED)
		return -ENOTCONN;
	for (;;) {
		if (s->err) {
			err = -s->err;
			s->err = 0;
			return err;
		}
		skb = s->rq_head;
		if (skb)
			break;
		if (s->shutdown & RCV_SHUTDOWN)
			return 0;
		if (nonblock)
			return -EAGAIN;
		err = unix_wait(s, s->rcvtimeo, &deadline);
		if (err)
			return err;
	}
	n = min_u64(skb->len, u->resid);
	err = skb_to_user(skb, 0, n, u);
	if (skb->len > n)
		m->flags_out |= MSG_TRUNC;
	len = skb->len;
	note_sender(m, skb);
	skb_done(s, skb, m, flags & MSG_PEEK);
	if (err)
		return err;
	return (flags & MSG_TRUNC) ? (long)len : (long)n;
}

long unix_recv(struct unix_sock *s, struct uio *u, int flags, bool nonblock, struct unix_msg *m)
{
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	nonblock = nonblock || (flags & MSG_DONTWAIT) || s->rcvtimeo < 0;
	if (s->type == SOCK_STREAM)
		return stream_recv(s, u, flags, nonblock, m);
	return dgram_recv(s, u, flags, nonblock, m);
}

void unix_msg_done(struct unix_msg *m)
{
	if (m->fp_skb && m->fp_owned)
		unix_skb_free(m->fp_skb);
	m->fp_skb = 0;
}
