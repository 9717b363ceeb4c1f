/*
 * filecheck: shared file memory.  A MAP_SHARED mapping of a /dev/shm file
 * is the file itself: a child's stores through its inherited mapping, and
 * through a mapping of its own, reach the parent's mapping and read(2);
 * pwrite(2) reaches every mapping; an unlinked file's mapping lives on.
 * POSIX shared memory (shm_open, shm_unlink) and a named semaphore
 * (sem_open) passed between two processes that mapped it apart.  System V
 * shared memory (shmget, shmat, shmdt, shmctl).
 */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecheck.h"

#define SHM_SIZE 8192

static void check_shared_file(void)
{
	int fd = open("/dev/shm/filecheck-map", O_CREAT | O_RDWR | O_TRUNC, 0600);
	char *p, *q, buf[16] = "";
	pid_t pid;

	if (fd < 0 || ftruncate(fd, SHM_SIZE)) {
		el_fail("shared_map", "create: %s", strerror(errno));
		return;
	}
	p = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		el_fail("shared_map", "mmap: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char *c = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		memcpy(p, "inherited", 10);
		if (c != MAP_FAILED)
			memcpy(c + 4096, "own", 4);
		_exit(c == MAP_FAILED);
	}
	el_expect("shared_map_fork", pid > 0 && fc_wait(pid) == 0 && !strcmp(p, "inherited") &&
		  !strcmp(p + 4096, "own"), "parent sees '%s' and '%s'", p, p + 4096);
	el_expect("shared_map_read", pread(fd, buf, 10, 0) == 10 && !strcmp(buf, "inherited"),
		  "read gives '%s'", buf);
	el_expect("shared_map_write", pwrite(fd, "written", 8, 100) == 8 &&
		  !strcmp(p + 100, "written"), "the mapping has '%s'", p + 100);
	q = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096);
	el_expect("shared_map_offset", q != MAP_FAILED && !strcmp(q, "own"), "mmap at 4096");
	el_expect("shared_map_unlink_close", unlink("/dev/shm/filecheck-map") == 0 && close(fd) == 0,
		  "%s", strerror(errno));
	p[0] = 'I';
	el_expect("shared_map_outlives_name", p[0] == 'I' && q != MAP_FAILED && !strcmp(q, "own"),
		  "the mapping changed with the name");
	munmap(p, SHM_SIZE);
	if (q != MAP_FAILED)
		munmap(q, 4096);
}

static void check_posix_shm(void)
{
	int fd = shm_open("/filecheck-posix", O_CREAT | O_EXCL | O_RDWR, 0600);
	struct stat st = {0};
	long *p;
	pid_t pid;

	if (!el_expect("shm_open", fd >= 0 && ftruncate(fd, 4096) == 0 && fstat(fd, &st) == 0 &&
		       st.st_size == 4096, "%s", strerror(errno)))
		return;
	el_expect("shm_open_in_dev_shm", access("/dev/shm/filecheck-posix", F_OK) == 0,
		  "not in /dev/shm");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	pid = fork();
	if (pid == 0) {
		int cfd = shm_open("/filecheck-posix", O_RDWR, 0);
		long *c = cfd < 0 ? MAP_FAILED
				  : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);

		if (c == MAP_FAILED)
			_exit(1);
		c[10] = 12345;
		_exit(0);
	}
	el_expect("shm_between_processes", p != MAP_FAILED && pid > 0 && fc_wait(pid) == 0 &&
		  p[10] == 12345, "p[10] = %ld", p != MAP_FAILED ? p[10] : -1);
	errno = 0;
	el_expect("shm_unlink", shm_unlink("/filecheck-posix") == 0 &&
		  shm_open("/filecheck-posix", O_RDWR, 0) == -1 && errno == ENOENT, "errno %d", errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);
}

/* The child waits on a named semaphore the parent posts: a futex in a file both mapped. */
static void check_named_semaphore(void)
{
	sem_t *s = sem_open("/filecheck-sem", O_CREAT | O_EXCL, 0600, 0);
	int val = -1;
	pid_t pid;

	if (!el_expect("sem_open", s != SEM_FAILED, "%s", strerror(errno)))
		return;
	pid = fork();
	if (pid == 0) {
		sem_t *c = sem_open("/filecheck-sem", 0);

		_exit(c == SEM_FAILED || sem_wait(c) || sem_post(c) ? 1 : 0);
	}
	fc_sleep_ms(50); /* the child waits by now (or finds the post already made) */
	el_expect("sem_post_wakes_other_process", sem_post(s) == 0 && pid > 0 && fc_wait(pid) == 0,
		  "the child did not get the post");
	el_expect("sem_value", sem_getvalue(s, &val) == 0 && val == 1, "value %d", val);
	el_expect("sem_unlink", sem_close(s) == 0 && sem_unlink("/filecheck-sem") == 0,
		  "%s", strerror(errno));
}

/*
 * System V shared memory: a private segment attached by parent and child
 * (fork shares the attach, a second attach of the child's own, read-only,
 * sees the same bytes), IPC_STAT's size, creator and attach count, keys
 * (IPC_EXCL, ENOENT, EINVAL for a larger size), shmdt and IPC_RMID.
 */
static void check_sysv_shm(void)
{
	int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600), kid, kid2;
	struct shmid_ds ds = {0};
	char *p;
	pid_t pid;

	if (!el_expect("shmget", id >= 0, "%s", strerror(errno)))
		return;
	p = shmat(id, NULL, 0);
	if (!el_expect("shmat", p != (void *)-1, "%s", strerror(errno)))
		return;
	el_expect("shm_ipc_stat", shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_segsz == 8192 &&
		  ds.shm_cpid == getpid() && ds.shm_nattch == 1 && (ds.shm_perm.mode & 0777) == 0600,
		  "segsz %zu cpid %d nattch %lu mode %o", (size_t)ds.shm_segsz, (int)ds.shm_cpid,
		  (unsigned long)ds.shm_nattch, (unsigned)ds.shm_perm.mode);
	pid = fork();
	if (pid == 0) {
		const char *r = shmat(id, NULL, SHM_RDONLY);

		strcpy(p + 5000, "sysv");
		_exit(r == (void *)-1 || strcmp(r + 5000, "sysv") || shmdt(r) ? 1 : 0);
	}
	el_expect("shm_fork_shares", pid > 0 && fc_wait(pid) == 0 && !strcmp(p + 5000, "sysv"),
		  "parent sees '%s'", p + 5000);
	el_expect("shm_nattch_after_child", shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_nattch == 1,
		  "nattch %lu", (unsigned long)ds.shm_nattch);
	el_expect("shmdt", shmdt(p) == 0 && shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_nattch == 0,
		  "nattch %lu", (unsigned long)ds.shm_nattch);
	errno = 0;
	el_expect("shmdt_einval", shmdt(p) == -1 && errno == EINVAL, "errno %d", errno);
	el_expect("shm_rmid", shmctl(id, IPC_RMID, NULL) == 0 && shmat(id, NULL, 0) == (void *)-1 &&
		  errno == EINVAL, "errno %d", errno);
	kid = shmget(0x46430001, 4096, IPC_CREAT | IPC_EXCL | 0600);
	errno = 0;
	el_expect("shm_key_excl", kid >= 0 && shmget(0x46430001, 4096, IPC_CREAT | IPC_EXCL) == -1 &&
		  errno == EEXIST, "errno %d", errno);
	kid2 = shmget(0x46430001, 0, 0);
	el_expect("shm_key_lookup", kid2 == kid, "id %d, want %d", kid2, kid);
	errno = 0;
	el_expect("shm_key_larger_einval", shmget(0x46430001, 8192, 0) == -1 && errno == EINVAL,
		  "errno %d", errno);
	shmctl(kid, IPC_RMID, NULL);
	errno = 0;
	el_expect("shm_key_enoent", shmget(0x46430001, 4096, 0) == -1 && errno == ENOENT,
		  "errno %d", errno);
}

void filecheck_shm(void)
{
	check_shared_file();
	check_posix_shm();
	check_named_semaphore();
	check_sysv_shm();
}
