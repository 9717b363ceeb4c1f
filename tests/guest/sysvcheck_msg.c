/*
 * sysvcheck: message queues.  msgget with IPC_PRIVATE and keys
 * (IPC_CREAT, IPC_EXCL -> EEXIST, no key -> ENOENT), a fresh queue's
 * msqid_ds (msg_qbytes MSGMNB 16384), msgrcv's type selection (0, >0,
 * <0: the lowest type up to |type|, MSG_EXCEPT), E2BIG leaving the
 * message queued and MSG_NOERROR truncating it, EINVAL for type 0 and
 * past MSGMAX 8192, a full queue (EAGAIN with IPC_NOWAIT, a blocked
 * sender woken by a receive), an empty one (ENOMSG, a blocked receiver
 * woken by a send in another process, msg_lrpid/msg_lspid), EINTR for a
 * blocked msgrcv even under SA_RESTART, EIDRM when the queue is removed
 * under a waiter, IPC_SET of mode and msg_qbytes, IPC_INFO and MSG_INFO.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <unistd.h>

#include "sysvcheck.h"

#define MSGMNB 16384
#define MSGMAX 8192

struct m {
	long type;
	char text[MSGMAX + 1];
};

static struct m sm, rm;

static int put(int id, long type, const char *text, int flg)
{
	sm.type = type;
	strcpy(sm.text, text);
	return msgsnd(id, &sm, strlen(text) + 1, flg);
}

/* msgrcv into rm: the type received, or -1. */
static long get(int id, long type, int flg)
{
	memset(&rm, 0, sizeof(rm));
	return msgrcv(id, &rm, sizeof(rm.text), type, flg) < 0 ? -1 : rm.type;
}

static void check_get(int *idp)
{
	int key = sv_key(0x5e110000), id, id2;
	struct msqid_ds ds;

	id = msgget(IPC_PRIVATE, 0600);
	*idp = id;
	el_expect("msgget_private", id >= 0, "%s", strerror(errno));
	el_expect("msgctl_stat_fresh", msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 0 &&
		  ds.msg_cbytes == 0 && ds.msg_qbytes == MSGMNB && (ds.msg_perm.mode & 0777) == 0600 &&
		  ds.msg_perm.uid == geteuid() && ds.msg_perm.cuid == geteuid() &&
		  ds.msg_lspid == 0 && ds.msg_stime == 0 && ds.msg_ctime != 0,
		  "qnum %lu qbytes %lu mode %o", (unsigned long)ds.msg_qnum,
		  (unsigned long)ds.msg_qbytes, ds.msg_perm.mode);
	id2 = msgget(key, IPC_CREAT | 0644);
	el_expect("msgget_key", id2 >= 0 && id2 != id && msgget(key, 0) == id2 &&
		  msgget(key, IPC_CREAT) == id2, "%s", strerror(errno));
	el_expect("msgget_excl", msgget(key, IPC_CREAT | IPC_EXCL | 0600) == -1 && errno == EEXIST,
		  "errno %d", errno);
	el_expect("msgget_enoent", msgget(key + 1, 0600) == -1 && errno == ENOENT, "errno %d", errno);
	el_expect("msgctl_rmid_key", msgctl(id2, IPC_RMID, NULL) == 0 && msgget(key, 0) == -1 &&
		  errno == ENOENT && msgctl(id2, IPC_STAT, &ds) == -1 && errno == EINVAL,
		  "errno %d", errno);
}

static void check_types(int id)
{
	struct msqid_ds ds;
	long a, b, c, d;

	el_expect("msgsnd_four", put(id, 3, "three", 0) == 0 && put(id, 1, "one", 0) == 0 &&
		  put(id, 2, "two", 0) == 0 && put(id, 5, "five", 0) == 0, "%s", strerror(errno));
	el_expect("msgctl_stat_counts", msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 4 &&
		  ds.msg_cbytes == 6 + 4 + 4 + 5 && ds.msg_lspid == getpid() && ds.msg_stime != 0,
		  "qnum %lu cbytes %lu lspid %d", (unsigned long)ds.msg_qnum,
		  (unsigned long)ds.msg_cbytes, (int)ds.msg_lspid);
	a = get(id, 2, 0);
	el_expect("msgrcv_type", a == 2 && !strcmp(rm.text, "two"), "type %ld '%s'", a, rm.text);
	b = get(id, -4, 0);
	el_expect("msgrcv_lowest", b == 1 && !strcmp(rm.text, "one"), "type %ld '%s'", b, rm.text);
	c = get(id, 3, MSG_EXCEPT);
	el_expect("msgrcv_except", c == 5 && !strcmp(rm.text, "five"), "type %ld '%s'", c, rm.text);
	d = get(id, 0, 0);
	el_expect("msgrcv_first", d == 3 && !strcmp(rm.text, "three") &&
		  msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 0 && ds.msg_cbytes == 0 &&
		  ds.msg_lrpid == getpid(), "type %ld qnum %lu", d, (unsigned long)ds.msg_qnum);
	el_expect("msgrcv_enomsg", get(id, 0, IPC_NOWAIT) == -1 && errno == ENOMSG, "errno %d", errno);
	el_expect("msgrcv_enomsg_type", put(id, 7, "seven", 0) == 0 &&
		  get(id, 6, IPC_NOWAIT) == -1 && errno == ENOMSG, "errno %d", errno);
	el_expect("msgrcv_e2big", msgrcv(id, &rm, 3, 0, IPC_NOWAIT) == -1 && errno == E2BIG &&
		  msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 1, "errno %d", errno);
	memset(&rm, 0, sizeof(rm));
	el_expect("msgrcv_noerror", msgrcv(id, &rm, 3, 0, MSG_NOERROR) == 3 &&
		  !memcmp(rm.text, "sev", 3) && rm.text[3] == 0 && msgctl(id, IPC_STAT, &ds) == 0 &&
		  ds.msg_qnum == 0, "text '%s' qnum %lu", rm.text, (unsigned long)ds.msg_qnum);
	el_expect("msgsnd_type0", put(id, 0, "x", 0) == -1 && errno == EINVAL, "errno %d", errno);
	sm.type = 1;
	el_expect("msgsnd_msgmax", msgsnd(id, &sm, MSGMAX + 1, 0) == -1 && errno == EINVAL &&
		  msgsnd(id, &sm, MSGMAX, 0) == 0 && msgrcv(id, &rm, MSGMAX, 0, 0) == MSGMAX,
		  "errno %d", errno);
	el_expect("msgrcv_negative_size", msgrcv(id, &rm, -1, 0, IPC_NOWAIT) == -1 &&
		  errno == EINVAL, "errno %d", errno);
}

static void check_full(int id)
{
	struct msqid_ds ds;
	pid_t pid;
	int i, ok = 1, st;

	sm.type = 9;
	memset(sm.text, 'f', 1024);
	for (i = 0; i < MSGMNB / 1024; i++)
		ok &= msgsnd(id, &sm, 1024, IPC_NOWAIT) == 0;
	el_expect("msgsnd_full_eagain", ok && msgsnd(id, &sm, 1, IPC_NOWAIT) == -1 &&
		  errno == EAGAIN, "errno %d", errno);
	pid = fork();
	if (pid == 0) {
		sm.type = 10;
		_exit(msgsnd(id, &sm, 1024, 0) == 0 ? 0 : 1);
	}
	sv_sleep_ms(50);
	el_expect("msgsnd_blocks", msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 16,
		  "qnum %lu", (unsigned long)ds.msg_qnum);
	el_expect("msgsnd_woken", msgrcv(id, &rm, 1024, 9, 0) == 1024 && (st = sv_wait(pid)) == 0 &&
		  msgctl(id, IPC_STAT, &ds) == 0 && ds.msg_qnum == 16 && ds.msg_lspid == pid,
		  "qnum %lu lspid %d", (unsigned long)ds.msg_qnum, (int)ds.msg_lspid);
	for (i = 0; i < 16; i++)
		msgrcv(id, &rm, 1024, 0, IPC_NOWAIT);
	ds.msg_qbytes = 100;
	ds.msg_perm.mode = 0640;
	el_expect("msgctl_set", msgctl(id, IPC_SET, &ds) == 0 && msgctl(id, IPC_STAT, &ds) == 0 &&
		  ds.msg_qbytes == 100 && (ds.msg_perm.mode & 0777) == 0640 &&
		  msgsnd(id, &sm, 100, IPC_NOWAIT) == 0 && msgsnd(id, &sm, 1, IPC_NOWAIT) == -1 &&
		  errno == EAGAIN, "qbytes %lu errno %d", (unsigned long)ds.msg_qbytes, errno);
	msgrcv(id, &rm, 1024, 0, IPC_NOWAIT);
	ds.msg_qbytes = MSGMNB;
	msgctl(id, IPC_SET, &ds);
}

static void check_wait(int id)
{
	struct msqid_ds ds;
	pid_t pid;
	int st;

	pid = fork();
	if (pid == 0)
		_exit(get(id, 42, 0) == 42 && !strcmp(rm.text, "wake") ? 0 : 1);
	sv_sleep_ms(50);
	st = put(id, 42, "wake", 0);
	el_expect("msgrcv_woken", st == 0 && sv_wait(pid) == 0 && msgctl(id, IPC_STAT, &ds) == 0 &&
		  ds.msg_lrpid == pid && ds.msg_qnum == 0, "lrpid %d child %d",
		  (int)ds.msg_lrpid, (int)pid);
	pid = fork();
	if (pid == 0) {
		_exit(get(id, 0, 0) == -1 && errno == EINTR ? 0 : 1);
	}
	sv_sleep_ms(50);
	kill(pid, SIGUSR1);
	el_expect("msgrcv_eintr", sv_wait(pid) == 0, "a signal with SA_RESTART did not end msgrcv "
		  "with EINTR");
	pid = fork();
	if (pid == 0)
		_exit(get(id, 0, 0) == -1 && errno == EIDRM ? 0 : 1);
	sv_sleep_ms(50);
	el_expect("msgrcv_eidrm", msgctl(id, IPC_RMID, NULL) == 0 && sv_wait(pid) == 0,
		  "the waiter did not see EIDRM");
	el_expect("msgsnd_removed", put(id, 1, "x", IPC_NOWAIT) == -1 && errno == EINVAL,
		  "errno %d", errno);
}

static void check_info(void)
{
	struct msginfo mi;
	int max;

	memset(&mi, 0, sizeof(mi));
	max = msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
	el_expect("msgctl_ipc_info", max >= 0 && mi.msgmax == MSGMAX && mi.msgmnb == MSGMNB &&
		  mi.msgmni > 0, "ret %d msgmax %d msgmnb %d", max, mi.msgmax, mi.msgmnb);
	memset(&mi, 0, sizeof(mi));
	max = msgctl(0, MSG_INFO, (struct msqid_ds *)&mi);
	el_expect("msgctl_msg_info", max >= 0 && mi.msgpool >= 1 && mi.msgmap >= 1 &&
		  mi.msgtql >= 3, "ret %d queues %d msgs %d bytes %d", max, mi.msgpool,
		  mi.msgmap, mi.msgtql);
}

void sysvcheck_msg(void)
{
	int id, id2;

	check_get(&id);
	if (id < 0)
		return;
	check_types(id);
	check_full(id);
	id2 = msgget(IPC_PRIVATE, 0600);
	put(id2, 1, "abc", 0);
	check_info();
	msgctl(id2, IPC_RMID, NULL);
	check_wait(id);
}
