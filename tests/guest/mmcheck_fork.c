/*
 * mmcheck fork: what the child's address space holds.  Private memory is
 * the child's own copy (written, untouched, PROT_NONE pages alike),
 * MAP_SHARED memory is one memory for both (pages touched before the fork
 * or not), a mapped file stays readable in the child after the parent
 * unmapped it and the file was unlinked, and [vdso] is where it was.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmcheck.h"

#define P MC_PAGE

static unsigned char *priv, *shared, *nomem;
static const unsigned char *file_map;
static unsigned long vdso_start;

static int child_private(void *arg)
{
	(void)arg;
	if (priv[0] != 'A' || priv[P] != 0)
		return 1;
	priv[0] = 'B';
	priv[P] = 'C';
	if (mprotect(nomem, P, PROT_READ) || nomem[5] != 'N')
		return 2;
	return 0;
}

static int child_shared(void *arg)
{
	volatile unsigned char *s = shared;

	(void)arg;
	if (s[0] != 'S')
		return 1;
	s[0] = 's';
	s[2 * P] = 'T'; /* untouched before the fork */
	while (s[P] != 'G') /* the parent's go, in a page neither touched before */
		sched_yield();
	return s[3 * P] == 'U' ? 0 : 2; /* the parent wrote it after the fork */
}

static int child_file(void *arg)
{
	unsigned long s = 0, e;

	(void)arg;
	mc_find_map("[vdso]", &s, &e);
	if (s != vdso_start)
		return 3; /* where the parent has it, or nowhere as in the parent (vdso=off) */
	while (!*(volatile unsigned char *)(shared + P))
		sched_yield(); /* the parent unmapped its copy */
	return memcmp(file_map, "mapped file data", 16) ? 1 : 0;
}

static void private_copy(void)
{
	int r;

	priv = mc_map(2);
	nomem = mc_map(1);
	priv[0] = 'A';
	nomem[5] = 'N';
	mprotect(nomem, P, PROT_NONE);
	r = mc_in_child(child_private, 0);
	el_expect("fork: the child's private pages are copies (written, untouched, PROT_NONE)",
		  r == 0, "child status %d", r);
	el_expect("fork: the child's writes stay in the child", priv[0] == 'A' && priv[P] == 0,
		  "parent sees %c", priv[0]);
	munmap(priv, 2 * P);
	munmap(nomem, P);
}

static void shared_memory(void)
{
	pid_t pid;
	int status = -1;

	shared = mmap(NULL, 4 * P, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		el_fail("fork: MAP_SHARED", "mmap failed");
		return;
	}
	shared[0] = 'S';
	fflush(stdout);
	pid = fork();
	if (!pid)
		syscall(SYS_exit, child_shared(0));
	while (pid > 0 && *(volatile unsigned char *)(shared + 2 * P) != 'T')
		sched_yield();
	shared[3 * P] = 'U';
	shared[P] = 'G';
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		status = -1;
	el_expect("fork: MAP_SHARED is one memory for parent and child",
		  pid > 0 && WIFEXITED(status) &&
		  !WEXITSTATUS(status) && shared[0] == 's',
		  "status %#x, page 0 %c", status, shared[0]);
	munmap(shared, 4 * P);
}

static void mapped_file(void)
{
	static const char path[] = "/tmp/mmcheck-fork";
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600), status = -1;
	unsigned long e;
	pid_t pid, w;

	shared = mmap(NULL, 2 * P, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || write(fd, "mapped file data", 16) != 16 || shared == MAP_FAILED) {
		el_fail("fork: mapped file", "cannot create %s", path);
		return;
	}
	file_map = mmap(NULL, P, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(path);
	mc_find_map("[vdso]", &vdso_start, &e);
	fflush(stdout);
	pid = fork();
	if (!pid)
		syscall(SYS_exit, child_file(0));
	munmap((void *)file_map, P);
	shared[P] = 1;
	w = pid > 0 ? waitpid(pid, &status, 0) : -1;
	el_expect("fork: an unlinked file the child maps outlives the parent's munmap; [vdso] "
		  "stays", w == pid && WIFEXITED(status) && !WEXITSTATUS(status),
		  "fork %d, wait %d (%s), status %#x", (int)pid, (int)w, strerror(errno), status);
	munmap(shared, 2 * P);
}

void mc_fork(void)
{
	private_copy();
	shared_memory();
	mapped_file();
}
