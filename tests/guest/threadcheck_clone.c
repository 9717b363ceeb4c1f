/*
 * threadcheck clone: the clone flags musl's pthreads rely on, used raw.
 *   thread: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|
 *   CHILD_SETTID|CHILD_CLEARTID with a TLS block of our own: the parent's
 *   ptid holds the tid before clone returns; in the child %fs:0 and
 *   ARCH_GET_FS give our block, *ctid is its tid, gettid is that tid and
 *   getpid ours; at its exit the kernel zeroes *ctid and futex-wakes us.
 *   process: CLONE_VM with SIGCHLD: a child in our memory that waitpid reaps.
 * The thread child touches no libc state (errno lives in TLS): raw syscalls.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/sys.h"
#include "threadcheck.h"

#define ARCH_GET_FS 0x1003
#define STACK_SIZE (64 * 1024)

long tc_raw_clone(unsigned long flags, void *stack_top, volatile int *ptid, volatile int *ctid,
		  void *tls, int (*fn)(void *), void *arg);

/* A TLS block as the x86-64 ABI wants: its first word points to itself. */
static struct tcb {
	struct tcb *self;
	uint64_t pad[31];
} __attribute__((aligned(64))) tcb;

static volatile int ptid, ctid;
static volatile struct {
	long tid, pid;
	int ctid_at_start;
	uint64_t fs0, fs_base;
	int ran;
} seen;

static int thread_fn(void *arg)
{
	uint64_t fs0, base = 0;

	(void)arg;
	__asm__ volatile("movq	%%fs:0, %0" : "=r"(fs0));
	seen.fs0 = fs0;
	el_syscall2(SYS_arch_prctl, ARCH_GET_FS, (long)&base);
	seen.fs_base = base;
	seen.tid = el_syscall1(SYS_gettid, 0);
	seen.pid = el_syscall1(SYS_getpid, 0);
	seen.ctid_at_start = ctid;
	seen.ran = 1;
	return 0;
}

static void thread_flags(char *stack)
{
	const unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
				    CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
	const struct timespec second = {.tv_sec = 1};
	uint64_t fs_before = 0, fs_after = 0;
	long tid;
	int waits = 0, timeouts = 0;

	tcb.self = &tcb;
	ptid = ctid = -1;
	memset((void *)&seen, 0, sizeof(seen));
	el_syscall2(SYS_arch_prctl, ARCH_GET_FS, (long)&fs_before);
	tid = tc_raw_clone(flags, stack + STACK_SIZE, &ptid, &ctid, &tcb, thread_fn, NULL);
	if (tid < 0) {
		el_fail("clone.thread", "clone: %s", strerror((int)-tid));
		return;
	}
	el_expect("clone.parent_settid", ptid == tid, "ptid %d, clone returned %ld", ptid, tid);
	for (int v; (v = ctid) != 0 && waits < 10; waits++)
		timeouts += tc_futex(&ctid, TC_FUTEX_WAIT, v, &second) == -ETIMEDOUT;
	el_syscall2(SYS_arch_prctl, ARCH_GET_FS, (long)&fs_after);
	el_expect("clone.child_ran_as_thread",
		  seen.ran && seen.tid == tid && seen.pid == getpid() && tid != tc_gettid(),
		  "ran %d tid %ld (clone said %ld) pid %ld (ours %d)", seen.ran, seen.tid, tid,
		  seen.pid, getpid());
	el_expect("clone.settls", seen.fs0 == (uintptr_t)&tcb && seen.fs_base == (uintptr_t)&tcb &&
			  fs_after == fs_before,
		  "child %%fs:0 %#llx FS base %#llx (our block %p); parent FS %#llx -> %#llx",
		  (unsigned long long)seen.fs0, (unsigned long long)seen.fs_base, (void *)&tcb,
		  (unsigned long long)fs_before, (unsigned long long)fs_after);
	el_expect("clone.child_settid", seen.ctid_at_start == tid, "*ctid in the child %d, tid %ld",
		  seen.ctid_at_start, tid);
	el_expect("clone.child_cleartid_and_wake", ctid == 0 && timeouts == 0,
		  "*ctid %d after the thread ended; %d waits, %d timed out (no futex wake)", ctid,
		  waits, timeouts);
}

static volatile int shared_word;

static int process_fn(void *arg)
{
	(void)arg;
	shared_word = 0x77;
	return 3;
}

static void process_with_vm(char *stack)
{
	long pid;
	int st = -1;

	shared_word = 0;
	pid = tc_raw_clone(CLONE_VM | SIGCHLD, stack + STACK_SIZE, NULL, NULL, NULL, process_fn,
			   NULL);
	if (pid < 0) {
		el_fail("clone.vm_process", "clone: %s", strerror((int)-pid));
		return;
	}
	el_expect("clone.vm_process", waitpid((pid_t)pid, &st, 0) == pid && WIFEXITED(st) &&
			  WEXITSTATUS(st) == 3 && shared_word == 0x77,
		  "status %#x, shared word %#x (want 3 and 0x77)", st, shared_word);
}

void tc_clone(void)
{
	char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);

	if (stack == MAP_FAILED) {
		el_fail("clone.stack", "mmap: %s", strerror(errno));
		return;
	}
	thread_flags(stack);
	process_with_vm(stack);
	munmap(stack, STACK_SIZE);
}
