/*
 * AF_UNIX sockets (unix_sock.c: objects, names, queues, close; unix_io.c:
 * sending and receiving; sys_socket.c and sys_sockmsg.c: the syscalls).
 * Linux's semantics (unix(7), net/unix/af_unix.c) for SOCK_STREAM,
 * SOCK_DGRAM and SOCK_SEQPACKET:
 *
 *   - Every socket has one receive queue of messages (struct unix_skb).  A
 *     message is charged to its sender's send buffer (wmem against sndbuf,
 *     Linux's default 212992) until the receiver takes it: the sender of a
 *     full buffer sleeps, or gets -EAGAIN.  Datagrams to a socket not
 *     connected back to the sender also stop at UNIX_DGRAM_QLEN queued
 *     messages (net.unix.max_dgram_qlen).
 *   - Names: a path creates an S_IFSOCK node (the bound socket keeps it
 *     alive by counting as an open of it); an abstract name starts with a
 *     NUL byte; an empty name autobinds to "\0" and five hex digits.
 *   - A connect queues a new socket (the "embryo", already connected to
 *     the caller, who may send at once) on the listener until accept takes
 *     it; at most backlog + 1 wait, as on Linux.
 *   - The last close of a stream or seqpacket socket shuts its peer down
 *     both ways (EOF, EPIPE), and leaves ECONNRESET as the peer's pending
 *     error when it had unread data or was never accepted.
 *   - Sleeps are interruptible: a signal ends them in -ERESTARTSYS (or what
 *     was moved).  Readiness changes call poll_notify() (fs/poll.h).
 *
 * One CPU and a non-preemptible kernel: nothing runs between a check and
 * the change that follows it, so no locks.  Not implemented: SCM_RIGHTS
 * garbage collection (a socket passed over itself leaks), SCM_CREDENTIALS
 * (-EINVAL), MSG_OOB (-EOPNOTSUPP).
 */
#ifndef EL_FS_UNIX_SOCK_H
#define EL_FS_UNIX_SOCK_H

#include "fs/file.h"

#define AF_UNSPEC 0
#define AF_UNIX 1
#define SOL_SOCKET 1 /* setsockopt's and a control message's level */

#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_SEQPACKET 5
#define SOCK_TYPE_MASK 0xf
#define SOCK_MAX 10
#define SOCK_NONBLOCK O_NONBLOCK
#define SOCK_CLOEXEC O_CLOEXEC

#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
#define RCV_SHUTDOWN 1u
#define SEND_SHUTDOWN 2u
#define SHUTDOWN_MASK 3u

#define MSG_OOB 0x1
#define MSG_PEEK 0x2
#define MSG_CTRUNC 0x8
#define MSG_TRUNC 0x20
#define MSG_DONTWAIT 0x40
#define MSG_EOR 0x80
#define MSG_WAITALL 0x100
#define MSG_NOSIGNAL 0x4000
#define MSG_CMSG_CLOEXEC 0x40000000

#define UNIX_PATH_OFF 2        /* offsetof(struct sockaddr_un, sun_path) */
#define UNIX_ADDR_MAX 110      /* sizeof(struct sockaddr_un) */
#define UNIX_NAME_MAX 111      /* a name as kept: a full 108-byte path and the NUL Linux adds */
#define UNIX_BUF_DEFAULT 212992 /* net.core.wmem_default, rmem_default */
#define UNIX_BUF_MAX 212992     /* net.core.wmem_max, rmem_max */
#define UNIX_SNDBUF_MIN 4608    /* SOCK_MIN_SNDBUF */
#define UNIX_RCVBUF_MIN 2304    /* SOCK_MIN_RCVBUF */
#define UNIX_DGRAM_QLEN 10      /* net.unix.max_dgram_qlen */
#define UNIX_SOMAXCONN 4096     /* net.core.somaxconn */
#define UNIX_SKB_COST 512       /* charged per message besides its bytes (Linux's truesize) */
#define UNIX_STREAM_SKB_MAX 65536
#define SCM_MAX_FD 253

enum unix_state { UNIX_CLOSE, UNIX_LISTEN, UNIX_ESTABLISHED };

/* One queued message: its bytes in page-sized chunks, and the descriptors passed with it. */
struct unix_skb {
	struct unix_skb *next;
	struct unix_sock *from; /* the sender (a reference): its wmem and, for datagrams, its name */
	uint32_t len, off;      /* bytes, and how many a stream reader already took */
	uint32_t cost;          /* charged to from->wmem */
	uint32_t nfp, nchunks;
	struct file **fp;       /* SCM_RIGHTS: nfp references, or NULL */
	uint8_t *chunk[];       /* PAGE_SIZE each, the last one just long enough */
};

struct unix_sock {
	int type;                 /* SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET */
	enum unix_state state;
	uint32_t refs;            /* the file (or the listener's queue), the peer, queued messages */
	uint32_t shutdown;        /* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int err;                  /* pending error (SO_ERROR), positive */
	bool dead;                /* closed: found by no name, sends to it fail */
	bool passcred;            /* SO_PASSCRED: accepted and reported only */
	bool reuseaddr;           /* SO_REUSEADDR: likewise */
	int64_t rcvtimeo, sndtimeo; /* SO_RCVTIMEO/SO_SNDTIMEO in ns: 0 none, -1 do not wait */
	struct unix_sock *peer;   /* a reference */
	struct unix_skb *rq_head, *rq_tail;
	uint32_t rq_len;          /* messages queued */
	uint32_t wmem;            /* charged by this socket's messages in flight */
	uint32_t sndbuf, rcvbuf;
	struct unix_sock *acc_head, *acc_tail, *acc_next; /* a listener's embryos */
	uint32_t acc_len, backlog;
	int peer_pid;             /* SO_PEERCRED (uid and gid: 0, everything runs as root) */
	bool has_peercred;
	uint32_t addr_len;        /* 0: unbound; else the sockaddr_un length getsockname reports */
	uint8_t addr[UNIX_NAME_MAX];
	struct inode *node;       /* bound to a path: its S_IFSOCK node */
	struct unix_sock *bound_next;
	char wait;                /* sleep channel (its address): data, room, connections */
};

/* The socket of f, or NULL when f is no socket. */
struct unix_sock *unix_of(const struct file *f);

/* A socket of type with Linux's defaults, not yet any file's (one reference), or NULL. */
struct unix_sock *unix_alloc(int type);
/* A file for s (it takes over the reference) on its own S_IFSOCK 0777 node, as sockfs gives. */
int unix_file(struct unix_sock *s, uint32_t flags, struct file **out);
/* A new socket of type (checked by the caller) and its file (flags: O_NONBLOCK or 0). */
int unix_create(int type, uint32_t flags, struct file **out);
/* A new connected pair (socketpair). */
int unix_create_pair(int type, uint32_t flags, struct file **a, struct file **b);

void unix_get(struct unix_sock *s);
void unix_put(struct unix_sock *s);
/* s's readiness changed: its sleepers and every poller re-check. */
void unix_wake(struct unix_sock *s);
/*
 * Sleeps on chan's channel under timeout timeo (ns, 0: none; *deadline, 0
 * at the first wait of a call, is set from it): 0 to re-check, -EAGAIN once
 * the timeout passed, on a signal -ERESTARTSYS (-EINTR with a timeout, as
 * Linux's sock_intr_errno).
 */
int unix_wait(struct unix_sock *chan, int64_t timeo, uint64_t *deadline);
/* Bytes waiting (FIONREAD): a stream's all, a datagram's next; -ENOTTY for no socket. */
long unix_unread(const struct file *f);

/*
 * A sockaddr_un from user space (addr, len) checked as Linux does (-EINVAL
 * for a length outside 2..110 or a family not AF_UNIX), into
 * name[UNIX_NAME_MAX]/namelen: namelen 2 means the empty name (autobind).
 * A path's length counts one NUL, so a full 108-byte path is 111 long, as
 * Linux's getsockname reports it.  0 or -errno.
 */
int unix_addr_from_user(uint64_t uaddr, uint64_t len, uint8_t *name, uint32_t *namelen);
/* Binds s to name (namelen > 2) or an autobind name (namelen 2): 0 or -errno. */
int unix_bind(struct unix_sock *s, const uint8_t *name, uint32_t namelen);
/* The live socket bound to name, a reference: 0 or -ENOENT, -ECONNREFUSED, -EPROTOTYPE. */
int unix_find(const uint8_t *name, uint32_t namelen, int type, struct unix_sock **out);

/* Frees a message: its descriptors, its charge (the sender learns there is room). */
void unix_skb_free(struct unix_skb *skb);
/* Takes the first message off s's queue (the caller frees or keeps it). */
struct unix_skb *unix_dequeue(struct unix_sock *s);
/* Drops every queued message of s. */
void unix_purge(struct unix_sock *s);

/* Copies an address out as Linux's move_addr_to_user: 0 or -errno; uaddr 0 copies nothing. */
int unix_addr_to_user(const uint8_t *addr, uint32_t len, uint64_t uaddr, uint64_t ulen);

/* As Linux's send_sig(SIGPIPE, current, 0). */
void unix_sigpipe(void);

/* User memory described by a buffer or an iovec array, consumed as data moves. */
struct uio {
	uint64_t uiov, nr, idx; /* iovec array (0: one buffer), entries, the next entry */
	uint64_t base, left;    /* the current piece */
	uint64_t resid;         /* bytes left in all (at most MAX_RW_COUNT) */
};
void uio_init_buf(struct uio *u, uint64_t buf, uint64_t len);
/* Checks the iovec array (count, lengths, pointers) as Linux does: 0 or -errno. */
int uio_init_vec(struct uio *u, uint64_t uiov, uint64_t nr);
/* Moves n bytes (n <= resid) between the kernel and the user pieces: 0 or -EFAULT. */
int uio_to_user(struct uio *u, const void *src, size_t n);
int uio_from_user(struct uio *u, void *dst, size_t n);

/* What a send or a receive carries besides data (sys_sockmsg.c fills and reads it). */
struct unix_msg {
	const uint8_t *name;  /* send: destination, or NULL */
	uint32_t namelen;
	uint8_t from[UNIX_NAME_MAX]; /* receive: the sender's name */
	uint32_t fromlen;     /* 0: no name (Linux leaves msg_namelen 0) */
	struct file **fp;     /* send: descriptors to pass (references held by the caller) */
	uint32_t nfp;
	struct unix_skb *fp_skb; /* receive: the message whose descriptors to install */
	bool fp_owned;        /* fp_skb was taken off the queue: unix_msg_done frees it */
	uint32_t flags_out;   /* receive: MSG_TRUNC ... */
};

/* Sends the bytes of u: the count sent or -errno (unix_io.c). */
long unix_send(struct unix_sock *s, struct uio *u, int flags, bool nonblock, struct unix_msg *m);
/* Receives into u: the count (or, with MSG_TRUNC, the datagram's length) or -errno. */
long unix_recv(struct unix_sock *s, struct uio *u, int flags, bool nonblock, struct unix_msg *m);
/* Frees what a receive left in m (after its descriptors were installed, or to drop them). */
void unix_msg_done(struct unix_msg *m);

/* readv/writev on a socket: one message (sys_rw.c calls these). */
long unix_readv(struct file *f, uint64_t uiov, uint64_t nr);
long unix_writev(struct file *f, uint64_t uiov, uint64_t nr);

#endif
