/*
 * sysvcheck: semaphores.  semget's limits (nsems 0 and past SEMMSL 32000:
 * EINVAL, a key's set asked for more: EINVAL, IPC_EXCL, ENOENT),
 * SETVAL/GETVAL/GETPID with ERANGE past SEMVMX 32767, SETALL/GETALL,
 * semop arrays applied in order and all or nothing (EAGAIN under
 * IPC_NOWAIT leaves no change), wait-for-zero, ERANGE, EFBIG, E2BIG past
 * SEMOPM 500, semtimedop's EAGAIN at the timeout, a waiter counted by
 * GETNCNT/GETZCNT and woken by another process, EINTR even under
 * SA_RESTART, EIDRM on removal, SEM_UNDO applied at exit (clamped to 0,
 * cleared by SETVAL), IPC_STAT/IPC_SET, IPC_INFO and SEM_INFO.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <time.h>
#include <unistd.h>

#include "sysvcheck.h"

#define SEMMSL 32000
#define SEMVMX 32767
#define SEMOPM 500

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *info;
};

static int op1(int id, unsigned short num, short op, short flg)
{
	struct sembuf b = {num, op, flg};

	return semop(id, &b, 1);
}

static int val(int id, int num)
{
	return semctl(id, num, GETVAL);
}

static int setval(int id, int num, int v)
{
	union semun u = {.val = v};

	return semctl(id, num, SETVAL, u);
}

static void check_get(void)
{
	int key = sv_key(0x5e120000), id, big;
	struct semid_ds ds;
	union semun u = {.buf = &ds};

	id = semget(IPC_PRIVATE, 3, 0600);
	el_expect("semget_private", id >= 0 && semctl(id, 0, IPC_STAT, u) == 0 &&
		  ds.sem_nsems == 3 && (ds.sem_perm.mode & 0777) == 0600 && ds.sem_otime == 0 &&
		  ds.sem_ctime != 0 && ds.sem_perm.uid == geteuid() && val(id, 2) == 0,
		  "id %d nsems %lu", id, (unsigned long)ds.sem_nsems);
	semctl(id, 0, IPC_RMID);
	el_expect("semget_zero", semget(IPC_PRIVATE, 0, 0600) == -1 && errno == EINVAL,
		  "errno %d", errno);
	el_expect("semget_semmsl", semget(IPC_PRIVATE, SEMMSL + 1, 0600) == -1 && errno == EINVAL,
		  "errno %d", errno);
	big = semget(IPC_PRIVATE, SEMMSL, 0600);
	el_expect("semget_semmsl_max", big >= 0 && setval(big, SEMMSL - 1, 9) == 0 &&
		  val(big, SEMMSL - 1) == 9 && op1(big, SEMMSL - 1, -9, 0) == 0 &&
		  semctl(big, SEMMSL, GETVAL) == -1 && errno == EINVAL, "errno %d", errno);
	semctl(big, 0, IPC_RMID);
	id = semget(key, 2, IPC_CREAT | 0600);
	el_expect("semget_key", id >= 0 && semget(key, 0, 0) == id && semget(key, 2, 0) == id,
		  "%s", strerror(errno));
	el_expect("semget_key_more", semget(key, 3, 0) == -1 && errno == EINVAL, "errno %d", errno);
	el_expect("semget_excl", semget(key, 2, IPC_CREAT | IPC_EXCL | 0600) == -1 &&
		  errno == EEXIST, "errno %d", errno);
	el_expect("semget_enoent", semget(key + 1, 1, 0600) == -1 && errno == ENOENT,
		  "errno %d", errno);
	el_expect("semctl_rmid_key", semctl(id, 0, IPC_RMID) == 0 && semget(key, 0, 0) == -1 &&
		  errno == ENOENT && val(id, 0) == -1 && errno == EINVAL, "errno %d", errno);
}

static void check_values(int id)
{
	unsigned short all[3] = {4, 5, 6}, got[3] = {0, 0, 0};
	union semun u = {.array = all}, g = {.array = got};

	el_expect("semctl_setval", setval(id, 0, 7) == 0 && val(id, 0) == 7 &&
		  semctl(id, 0, GETPID) == getpid(), "val %d", val(id, 0));
	el_expect("semctl_setval_erange", setval(id, 0, SEMVMX + 1) == -1 && errno == ERANGE &&
		  setval(id, 0, -1) == -1 && errno == ERANGE && val(id, 0) == 7, "errno %d", errno);
	el_expect("semctl_setval_semvmx", setval(id, 1, SEMVMX) == 0 && val(id, 1) == SEMVMX,
		  "val %d", val(id, 1));
	el_expect("semctl_setall", semctl(id, 0, SETALL, u) == 0 && semctl(id, 0, GETALL, g) == 0 &&
		  got[0] == 4 && got[1] == 5 && got[2] == 6, "got %u %u %u", got[0], got[1], got[2]);
	el_expect("semctl_getval_einval", semctl(id, 3, GETVAL) == -1 && errno == EINVAL,
		  "errno %d", errno);
}

static void check_ops(int id)
{
	struct sembuf two[2] = {{0, 1, 0}, {1, -1, IPC_NOWAIT}};
	struct sembuf same[2] = {{2, 2, 0}, {2, -1, 0}};
	static struct sembuf many[SEMOPM + 1];
	struct semid_ds ds;
	union semun u = {.buf = &ds};

	setval(id, 0, 1);
	setval(id, 1, 0);
	setval(id, 2, 0);
	el_expect("semop_all_or_nothing", semop(id, two, 2) == -1 && errno == EAGAIN &&
		  val(id, 0) == 1 && val(id, 1) == 0, "errno %d val %d", errno, val(id, 0));
	el_expect("semop_in_order", semop(id, same, 2) == 0 && val(id, 2) == 1 &&
		  semctl(id, 2, GETPID) == getpid() && semctl(id, 0, IPC_STAT, u) == 0 &&
		  ds.sem_otime != 0, "val %d", val(id, 2));
	el_expect("semop_zero_nowait", op1(id, 0, 0, IPC_NOWAIT) == -1 && errno == EAGAIN &&
		  op1(id, 1, 0, IPC_NOWAIT) == 0, "errno %d", errno);
	setval(id, 0, SEMVMX);
	el_expect("semop_erange", op1(id, 0, 1, 0) == -1 && errno == ERANGE && val(id, 0) == SEMVMX,
		  "errno %d", errno);
	el_expect("semop_efbig", op1(id, 3, 1, 0) == -1 && errno == EFBIG, "errno %d", errno);
	el_expect("semop_nsops", semop(id, many, 0) == -1 && errno == EINVAL &&
		  semop(id, many, SEMOPM + 1) == -1 && errno == E2BIG, "errno %d", errno);
	setval(id, 0, 0);
	{
		struct sembuf b = {0, -1, 0};
		struct timespec ts = {0, 50000000}, t0, t1;
		long ms;
		int r;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = semtimedop(id, &b, 1, &ts);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		el_expect("semtimedop_timeout", r == -1 && errno == EAGAIN && ms >= 45,
			  "ret %d errno %d after %ld ms", r, errno, ms);
	}
}

static void check_wait(int id)
{
	pid_t a, b;

	setval(id, 0, 0);
	setval(id, 1, 1);
	a = fork();
	if (a == 0)
		_exit(op1(id, 0, -2, 0) == 0 ? 0 : 1);
	b = fork();
	if (b == 0)
		_exit(op1(id, 1, 0, 0) == 0 ? 0 : 1);
	sv_sleep_ms(50);
	el_expect("semctl_getncnt", semctl(id, 0, GETNCNT) == 1 && semctl(id, 1, GETZCNT) == 1 &&
		  semctl(id, 0, GETZCNT) == 0, "ncnt %d zcnt %d", semctl(id, 0, GETNCNT),
		  semctl(id, 1, GETZCNT));
	op1(id, 0, 1, 0);
	sv_sleep_ms(20);
	el_expect("semop_still_waits", semctl(id, 0, GETNCNT) == 1 && val(id, 0) == 1,
		  "ncnt %d val %d", semctl(id, 0, GETNCNT), val(id, 0));
	el_expect("semop_woken", op1(id, 0, 1, 0) == 0 && sv_wait(a) == 0 && val(id, 0) == 0 &&
		  semctl(id, 0, GETPID) == a && semctl(id, 0, GETNCNT) == 0, "val %d", val(id, 0));
	el_expect("semop_zero_woken", op1(id, 1, -1, 0) == 0 && sv_wait(b) == 0 &&
		  semctl(id, 1, GETZCNT) == 0, "zcnt %d", semctl(id, 1, GETZCNT));
	a = fork();
	if (a == 0) {
		_exit(op1(id, 0, -1, 0) == -1 && errno == EINTR ? 0 : 1);
	}
	sv_sleep_ms(50);
	kill(a, SIGUSR1);
	el_expect("semop_eintr", sv_wait(a) == 0, "a signal with SA_RESTART did not end semop "
		  "with EINTR");
}

static void check_undo(int id)
{
	int p[2];
	pid_t a;
	char c;

	setval(id, 2, 0);
	a = fork();
	if (a == 0)
		_exit(op1(id, 2, 3, SEM_UNDO) == 0 && val(id, 2) == 3 ? 0 : 1);
	el_expect("sem_undo_exit", sv_wait(a) == 0 && val(id, 2) == 0, "val %d", val(id, 2));
	setval(id, 2, 5);
	a = fork();
	if (a == 0)
		_exit(op1(id, 2, -2, SEM_UNDO) == 0 && op1(id, 2, -1, SEM_UNDO) == 0 ? 0 : 1);
	el_expect("sem_undo_down", sv_wait(a) == 0 && val(id, 2) == 5, "val %d", val(id, 2));
	setval(id, 2, 0);
	if (pipe(p))
		return;
	a = fork();
	if (a == 0) {
		close(p[1]);
		op1(id, 2, 2, SEM_UNDO);
		_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	close(p[0]);
	sv_sleep_ms(30);
	op1(id, 2, -2, 0);
	close(p[1]);
	el_expect("sem_undo_clamped", sv_wait(a) == 0 && val(id, 2) == 0, "val %d", val(id, 2));
	if (pipe(p))
		return;
	a = fork();
	if (a == 0) {
		close(p[1]);
		op1(id, 2, 2, SEM_UNDO);
		_exit(read(p[0], &c, 1) == 0 ? 0 : 1);
	}
	close(p[0]);
	sv_sleep_ms(30);
	setval(id, 2, 7);
	close(p[1]);
	el_expect("sem_undo_setval_clears", sv_wait(a) == 0 && val(id, 2) == 7, "val %d",
		  val(id, 2));
	setval(id, 2, SEMVMX);
	el_expect("sem_undo_erange", op1(id, 2, -SEMVMX, SEM_UNDO) == 0 && op1(id, 2, 1, 0) == 0 &&
		  op1(id, 2, -1, SEM_UNDO) == -1 && errno == ERANGE && val(id, 2) == 1,
		  "errno %d val %d", errno, val(id, 2));
	setval(id, 2, 0);
}

static void check_ctl(int id)
{
	struct semid_ds ds;
	struct seminfo si;
	union semun u = {.buf = &ds}, i = {.info = &si};
	pid_t a;
	int max;

	semctl(id, 0, IPC_STAT, u);
	ds.sem_perm.mode = 0640;
	el_expect("semctl_set", semctl(id, 0, IPC_SET, u) == 0 && semctl(id, 0, IPC_STAT, u) == 0 &&
		  (ds.sem_perm.mode & 0777) == 0640, "mode %o", ds.sem_perm.mode);
	memset(&si, 0, sizeof(si));
	max = semctl(0, 0, IPC_INFO, i);
	el_expect("semctl_ipc_info", max >= 0 && si.semmsl == SEMMSL && si.semvmx == SEMVMX &&
		  si.semopm == SEMOPM && si.semmni > 0, "ret %d semmsl %d semvmx %d semopm %d", max,
		  si.semmsl, si.semvmx, si.semopm);
	memset(&si, 0, sizeof(si));
	max = semctl(0, 0, SEM_INFO, i);
	el_expect("semctl_sem_info", max >= 0 && si.semusz >= 1 && si.semaem >= 3,
		  "ret %d sets %d sems %d", max, si.semusz, si.semaem);
	setval(id, 0, 0);
	a = fork();
	if (a == 0)
		_exit(op1(id, 0, -1, 0) == -1 && errno == EIDRM ? 0 : 1);
	sv_sleep_ms(50);
	el_expect("semop_eidrm", semctl(id, 0, IPC_RMID) == 0 && sv_wait(a) == 0,
		  "the waiter did not see EIDRM");
	el_expect("semop_removed", op1(id, 0, 1, 0) == -1 && errno == EINVAL, "errno %d", errno);
}

void sysvcheck_sem(void)
{
	int id;

	check_get();
	id = semget(IPC_PRIVATE, 3, 0600);
	if (!el_expect("semget_set", id >= 0, "%s", strerror(errno)))
		return;
	check_values(id);
	check_ops(id);
	check_wait(id);
	check_undo(id);
	check_ctl(id);
}
