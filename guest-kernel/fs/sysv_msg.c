/*
 * System V message queues: msgget, msgsnd, msgrcv, msgctl (IPC_STAT,
 * IPC_SET, IPC_RMID, IPC_INFO, MSG_INFO), to msgget(2)/msgsnd(2)/msgctl(2).
 * A queue holds its messages in send order; a message's text lives in
 * page-sized chunks (MSGMAX 8192 bytes: at most two).  A queue is full when
 * a message would take its bytes past msg_qbytes (MSGMNB 16384 by default)
 * or its count past msg_qbytes, as Linux's msg_fits_inqueue.  Senders wait
 * on &q->qnum, receivers on q; both are woken by a change and re-check.  A
 * wait ends with -EINTR on a signal (never restarted, as Linux's SysV IPC),
 * with -EIDRM when the queue is removed (its seq changes).  At most
 * QUEUES_MAX queues (Linux's MSGMNI is 32000): ENOSPC beyond.  Permission
 * bits are stored and shown but only IPC_SET/IPC_RMID check the caller
 * (owner, creator or privileged: EPERM).  MSG_COPY is not supported
 * (ENOSYS, as a kernel without CONFIG_CHECKPOINT_RESTORE).
 */
#include "fs/sysv_ipc.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define MSG_INFO 12
#define MSG_NOERROR 010000
#define MSG_EXCEPT 020000
#define MSG_COPY 040000
#define MSGMAX 8192
#define MSGMNB 16384
#define QUEUES_MAX 64
#define CHUNK PAGE_SIZE
#define CHUNKS ((MSGMAX + CHUNK - 1) / CHUNK)

struct msqid_ds_user {
	struct ipc_perm_user perm;
	int64_t stime, rtime, ctime;
	uint64_t cbytes, qnum, qbytes;
	int32_t lspid, lrpid;
	uint64_t unused[2];
};
_Static_assert(sizeof(struct msqid_ds_user) == 120, "struct msqid64_ds of x86-64 Linux");

struct msginfo_user {
	int32_t msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	uint16_t msgseg;
};
_Static_assert(sizeof(struct msginfo_user) == 32, "struct msginfo of x86-64 Linux");

struct msg {
	struct msg *next;
	int64_t type;
	uint64_t size;
	char *chunk[CHUNKS];
};

struct queue {
	bool used;
	int32_t key;
	uint32_t uid, gid, cuid, cgid, mode;
	uint16_t seq;
	int64_t stime, rtime, ctime;
	uint64_t cbytes, qnum, qbytes;
	int lspid, lrpid;
	struct msg *head, **tail;
};

static struct queue queues[QUEUES_MAX];

static int queue_id(const struct queue *q)
{
	return q->seq * QUEUES_MAX + (int)(q - queues);
}

static struct queue *queue_of(uint64_t id)
{
	struct queue *q;

	if ((int)id < 0)
		return 0;
	q = &queues[(int)id % QUEUES_MAX];
	return q->used && queue_id(q) == (int)id ? q : 0;
}

static void msg_free(struct msg *m)
{
	unsigned i;

	for (i = 0; i < CHUNKS; i++)
		if (m->chunk[i])
			kfree(m->chunk[i], CHUNK);
	kfree(m, sizeof(*m));
}

static long queue_create(int32_t key, uint32_t flg)
{
	struct queue *q = 0;
	uint16_t seq;
	unsigned i;

	for (i = 0; i < QUEUES_MAX && !q; i++)
		if (!queues[i].used)
			q = &queues[i];
	if (!q)
		return -ENOSPC;
	seq = (uint16_t)(q->seq + 1);
	*q = (struct queue){.used = true, .key = key, .mode = flg & 0777, .seq = seq,
			    .uid = current->cred.euid, .gid = current->cred.egid,
			    .cuid = current->cred.euid, .cgid = current->cred.egid,
			    .ctime = sysv_now_sec(), .qbytes = MSGMNB};
	q->tail = &q->head;
	return queue_id(q);
}

SYSCALL_DEFINE2(msgget, int32_t, key, uint32_t, flg)
{
	unsigned i;

	if (key != IPC_PRIVATE) {
		for (i = 0; i < QUEUES_MAX; i++) {
			if (!queues[i].used || queues[i].key != key)
				continue;
			if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
				return -EEXIST;
			return queue_id(&queues[i]);
		}
		if (!(flg & IPC_CREAT))
			return -ENOENT;
	}
	return queue_create(key, flg);
}

/* Waits on chan for q to change: 0 to re-check, -EINTR, or -EIDRM (q removed). */
static long queue_wait(struct queue *q, const void *chan)
{
	uint16_t seq = q->seq;

	if (sched_block(chan, 0, true) == -EINTR && signal_pending(current))
		return -EINTR;
	return q->used && q->seq == seq ? 0 : -EIDRM;
}

SYSCALL_DEFINE4(msgsnd, uint64_t, msqid, uint64_t, msgp, uint64_t, msgsz, uint32_t, flg)
{
	struct queue *q = queue_of(msqid);
	uint64_t size = msgsz, off;
	struct msg *m;
	int64_t type;
	unsigned i;
	long err;

	if (!q || (int64_t)size < 0 || size > MSGMAX)
		return -EINVAL;
	if (copy_from_user(&type, msgp, sizeof(type)))
		return -EFAULT;
	if (type < 1)
		return -EINVAL;
	m = kzalloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->type = type;
	m->size = size;
	for (i = 0, off = 0; off < size; i++, off += CHUNK) {
		uint64_t n = size - off < CHUNK ? size - off : CHUNK;

		m->chunk[i] = kzalloc(CHUNK);
		if (!m->chunk[i]) {
			msg_free(m);
			return -ENOMEM;
		}
		if (copy_from_user(m->chunk[i], msgp + sizeof(type) + off, n)) {
			msg_free(m);
			return -EFAULT;
		}
	}
	while (q->cbytes + size > q->qbytes || q->qnum + 1 > q->qbytes) {
		if (flg & IPC_NOWAIT)
			err = -EAGAIN;
		else
			err = queue_wait(q, &q->qnum);
		if (err) {
			msg_free(m);
			return err;
		}
	}
	*q->tail = m;
	q->tail = &m->next;
	q->qnum++;
	q->cbytes += size;
	q->lspid = current->tgid;
	q->stime = sysv_now_sec();
	wake_up(q);
	return 0;
}

/* The link to the message msgrcv's type and flags pick, or NULL. */
static struct msg **msg_pick(struct queue *q, int64_t type, uint32_t flg)
{
	struct msg **p, **best = 0;

	for (p = &q->head; *p; p = &(*p)->next) {
		int64_t t = (*p)->type;

		if (type == 0)
			return p;
		if (type > 0 && ((flg & MSG_EXCEPT) ? t != type : t == type))
			return p;
		if (type < 0 && t <= -type && (!best || t < (*best)->type))
			best = p;
	}
	return best;
}

SYSCALL_DEFINE5(msgrcv, uint64_t, msqid, uint64_t, msgp, int64_t, msgsz, int64_t, msgtyp, uint32_t,
		flg)
{
	struct queue *q = queue_of(msqid);
	int64_t size = msgsz, type = msgtyp;
	struct msg **p, *m;
	uint64_t n, off;
	unsigned i;
	long err;

	if (flg & MSG_COPY)
		return -ENOSYS;
	if (!q || size < 0)
		return -EINVAL;
	if (type == INT64_MIN)
		type++; /* as Linux: -type must exist */
	for (;;) {
		p = msg_pick(q, type, flg);
		if (p && (*p)->size > (uint64_t)size && !(flg & MSG_NOERROR))
			return -E2BIG;
		if (p)
			break;
		if (flg & IPC_NOWAIT)
			return -ENOMSG;
		err = queue_wait(q, q);
		if (err)
			return err;
	}
	m = *p;
	n = m->size < (uint64_t)size ? m->size : (uint64_t)size;
	if (copy_to_user(msgp, &m->type, sizeof(m->type)))
		return -EFAULT;
	for (i = 0, off = 0; off < n; i++, off += CHUNK)
		if (copy_to_user(msgp + sizeof(m->type) + off, m->chunk[i],
				 n - off < CHUNK ? n - off : CHUNK))
			return -EFAULT;
	*p = m->next;
	if (q->tail == &m->next)
		q->tail = p;
	q->qnum--;
	q->cbytes -= m->size;
	q->lrpid = current->tgid;
	q->rtime = sysv_now_sec();
	msg_free(m);
	wake_up(&q->qnum);
	return (long)n;
}

static bool queue_owner(const struct queue *q)
{
	uint32_t euid = current->cred.euid;

	return euid == q->uid || euid == q->cuid || cred_capable(current);
}

static long msg_info(int cmd, uint64_t uaddr)
{
	struct msginfo_user mi = {.msgmax = MSGMAX, .msgmnb = MSGMNB, .msgmni = QUEUES_MAX,
				  .msgssz = 16, .msgseg = 0xffff};
	int max_idx = 0;
	unsigned i;

	for (i = 0; i < QUEUES_MAX; i++)
		if (queues[i].used)
			max_idx = (int)i;
	if (cmd == MSG_INFO) {
		for (i = 0; i < QUEUES_MAX; i++) {
			if (!queues[i].used)
				continue;
			mi.msgpool++;
			mi.msgmap += (int32_t)queues[i].qnum;
			mi.msgtql += (int32_t)queues[i].cbytes;
		}
	} else {
		mi.msgpool = QUEUES_MAX * MSGMNB / 1024;
		mi.msgmap = MSGMNB;
		mi.msgtql = MSGMNB;
	}
	if (copy_to_user(uaddr, &mi, sizeof(mi)))
		return -EFAULT;
	return max_idx;
}

SYSCALL_DEFINE3(msgctl, uint64_t, msqid, uint64_t, ipc_cmd, uint64_t, buf)
{
	struct queue *q;
	struct msqid_ds_user ds;
	int cmd = (int)(ipc_cmd & ~(uint64_t)IPC_64);
	struct msg *m;

	if (cmd == IPC_INFO || cmd == MSG_INFO)
		return msg_info(cmd, buf);
	q = queue_of(msqid);
	if (!q)
		return -EINVAL;
	switch (cmd) {
	case IPC_STAT:
		memset(&ds, 0, sizeof(ds));
		ds.perm = (struct ipc_perm_user){.key = q->key, .uid = q->uid, .gid = q->gid,
						 .cuid = q->cuid, .cgid = q->cgid, .mode = q->mode,
						 .seq = q->seq};
		ds.stime = q->stime;
		ds.rtime = q->rtime;
		ds.ctime = q->ctime;
		ds.cbytes = q->cbytes;
		ds.qnum = q->qnum;
		ds.qbytes = q->qbytes;
		ds.lspid = q->lspid;
		ds.lrpid = q->lrpid;
		return copy_to_user(buf, &ds, sizeof(ds));
	case IPC_SET:
		if (copy_from_user(&ds, buf, sizeof(ds)))
			return -EFAULT;
		if (!queue_owner(q))
			return -EPERM;
		if (ds.qbytes > MSGMNB && !cred_capable(current))
			return -EPERM;
		q->uid = ds.perm.uid;
		q->gid = ds.perm.gid;
		q->mode = ds.perm.mode & 0777;
		q->qbytes = ds.qbytes;
		q->ctime = sysv_now_sec();
		wake_up(&q->qnum);
		return 0;
	case IPC_RMID:
		if (!queue_owner(q))
			return -EPERM;
		while ((m = q->head)) {
			q->head = m->next;
			msg_free(m);
		}
		q->used = false;
		q->seq++; /* the waiters see it gone: EIDRM */
		wake_up(q);
		wake_up(&q->qnum);
		return 0;
	default:
		return -EINVAL;
	}
}
