/*
 * Robust futex lists and PI futexes: robust mutexes whose owner
 * thread or process dies (EOWNERDEAD, pthread_mutex_consistent,
 * ENOTRECOVERABLE), the kernel's robust-list walk on raw words,
 * set/get_robust_list, PI mutexes under contention between threads, and the
 * raw FUTEX_*_PI errors (EDEADLK, EPERM, ESRCH, ETIMEDOUT, EAGAIN).  Checks
 * Linux's behaviour: it passes on a Linux host.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* <linux/futex.h>, which musl does not ship. */
#define FUTEX_LOCK_PI    6
#define FUTEX_UNLOCK_PI  7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_WAITERS    0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK   0x3fffffffu

struct robust_list {
	struct robust_list *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

static long futex(uint32_t *w, int op, uint32_t val, const struct timespec *ts)
{
	long r = syscall(SYS_futex, w, op, val, ts, 0, 0);

	return r < 0 ? -errno : r;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* --- robust mutexes (musl / glibc over the robust list) --- */

static pthread_mutex_t rmutex;
static volatile int locked_flag;

static void *lock_and_exit(void *arg)
{
	pthread_mutex_lock(&rmutex);
	locked_flag = 1;
	if (arg)
		usleep(50000); /* let the main thread block on it first */
	return 0;
}

static void init_robust(pthread_mutex_t *m, int pshared)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (pshared)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static void check_robust_thread(int wait_first)
{
	const char *name = wait_first ? "robust_thread_dies_while_waited" : "robust_thread_died";
	pthread_t t;
	int r, r2 = -1, r3 = -1;

	init_robust(&rmutex, 0);
	locked_flag = 0;
	pthread_create(&t, 0, lock_and_exit, wait_first ? (void *)1 : 0);
	if (wait_first)
		while (!locked_flag)
			sched_yield();
	else
		pthread_join(t, 0);
	r = pthread_mutex_lock(&rmutex);
	if (r == EOWNERDEAD) {
		r2 = pthread_mutex_consistent(&rmutex);
		pthread_mutex_unlock(&rmutex);
		r3 = pthread_mutex_lock(&rmutex);
		pthread_mutex_unlock(&rmutex);
	}
	if (wait_first)
		pthread_join(t, 0);
	el_expect(name, r == EOWNERDEAD && r2 == 0 && r3 == 0, "lock %s, consistent %d, relock %d",
		  strerror(r), r2, r3);
}

static void check_robust_process(void)
{
	pthread_mutex_t *m =
		mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int r, r2 = -1, st;
	pid_t pid;

	init_robust(m, 1);
	pid = fork();
	if (!pid) {
		pthread_mutex_lock(m);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	r = pthread_mutex_lock(m);
	if (r == EOWNERDEAD) {
		pthread_mutex_unlock(m); /* not made consistent: unusable from now on */
		r2 = pthread_mutex_lock(m);
	}
	el_expect("robust_process_died", r == EOWNERDEAD && r2 == ENOTRECOVERABLE,
		  "lock %s, then %s", strerror(r), strerror(r2));
	munmap(m, 4096);
}

/* --- the robust-list walk on raw words --- */

struct rentry {
	struct rentry *next;
	uint32_t word;
};

static void check_robust_raw(void)
{
	struct rentry *e = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct robust_list_head *head = (void *)(e + 4);
	pid_t pid;
	int st;

	pid = fork();
	if (!pid) {
		uint32_t me = (uint32_t)gettid_();

		/* head -> e0 -> e1 -> head; e2 is the pending op; e3 is owned by another tid. */
		head->list.next = (void *)&e[0];
		head->futex_offset = offsetof(struct rentry, word);
		head->list_op_pending = (void *)&e[2];
		e[0].next = (void *)&e[1];
		e[0].word = me | FUTEX_WAITERS;
		e[1].next = (void *)&e[3];
		e[1].word = me;
		e[2].word = me;
		e[3].next = (void *)head;
		e[3].word = 1;
		if (syscall(SYS_set_robust_list, head, sizeof(*head)))
			_exit(2);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	el_expect("robust_walk_marks_owner_died",
		  WIFEXITED(st) && !WEXITSTATUS(st) &&
			  e[0].word == (FUTEX_WAITERS | FUTEX_OWNER_DIED) &&
			  e[1].word == FUTEX_OWNER_DIED && e[2].word == FUTEX_OWNER_DIED &&
			  e[3].word == 1,
		  "status %#x, words %#x %#x %#x %#x", st, e[0].word, e[1].word, e[2].word,
		  e[3].word);

	/* A list that loops on itself: the walk is bounded and the process still exits. */
	pid = fork();
	if (!pid) {
		head->list.next = (void *)&e[0];
		head->futex_offset = offsetof(struct rentry, word);
		head->list_op_pending = 0;
		e[0].next = (void *)&e[0];
		e[0].word = (uint32_t)gettid_();
		syscall(SYS_set_robust_list, head, sizeof(*head));
		_exit(0);
	}
	waitpid(pid, &st, 0);
	el_expect("robust_walk_loop_bounded", WIFEXITED(st) && e[0].word == FUTEX_OWNER_DIED,
		  "status %#x, word %#x", st, e[0].word);

	/* exec releases the old image's robust list as exit does. */
	e[0].word = 0;
	pid = fork();
	if (!pid) {
		char *argv[] = {"futexcheck", "exit", 0};

		head->list.next = (void *)&e[0];
		head->futex_offset = offsetof(struct rentry, word);
		head->list_op_pending = 0;
		e[0].next = (void *)head;
		e[0].word = (uint32_t)gettid_();
		syscall(SYS_set_robust_list, head, sizeof(*head));
		execv("/proc/self/exe", argv);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	el_expect("robust_walk_at_exec",
		  WIFEXITED(st) && !WEXITSTATUS(st) && e[0].word == FUTEX_OWNER_DIED,
		  "status %#x, word %#x", st, e[0].word);
	munmap(e, 4096);
}

static void check_robust_syscalls(void)
{
	struct robust_list_head head = {0}, *got = 0;
	size_t len = 0;
	pid_t pid;
	int st;

	el_expect("set_robust_list_einval",
		  syscall(SYS_set_robust_list, &head, 8) == -1 && errno == EINVAL, "errno %s",
		  strerror(errno));
	pid = fork();
	if (!pid) {
		head.list.next = &head.list;
		if (syscall(SYS_set_robust_list, &head, sizeof(head)) ||
		    syscall(SYS_get_robust_list, 0, &got, &len) || got != &head ||
		    len != sizeof(head))
			_exit(1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	el_expect("get_robust_list_self", WIFEXITED(st) && !WEXITSTATUS(st), "status %#x", st);
	el_expect("get_robust_list_esrch",
		  syscall(SYS_get_robust_list, 0x3ffffff0, &got, &len) == -1 && errno == ESRCH,
		  "errno %s", strerror(errno));
}

/* --- PI mutexes --- */

static pthread_mutex_t pimutex;
static long counter;
enum { PI_THREADS = 4, PI_ROUNDS = 300 };

static void *pi_worker(void *arg)
{
	int i, bad = 0;

	(void)arg;
	for (i = 0; i < PI_ROUNDS; i++) {
		if (pthread_mutex_lock(&pimutex)) {
			bad++;
			continue;
		}
		long c = counter;

		if (i % 8 == 0)
			sched_yield(); /* others find it held and sleep in FUTEX_LOCK_PI */
		counter = c + 1;
		pthread_mutex_unlock(&pimutex);
	}
	return (void *)(long)bad;
}

static void *pi_trylock_other(void *arg)
{
	(void)arg;
	return (void *)(long)pthread_mutex_trylock(&pimutex);
}

static void check_pi_mutex(void)
{
	pthread_mutexattr_t a;
	pthread_t t[PI_THREADS];
	void *res;
	long bad = 0;
	int i, r, rt = -1;

	pthread_mutexattr_init(&a);
	r = pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pimutex, &a);
	el_expect("pi_mutex_lock_unlock",
		  !r && !pthread_mutex_lock(&pimutex) &&
			  (*(uint32_t *)&pimutex & FUTEX_TID_MASK) != 0 &&
			  !pthread_mutex_unlock(&pimutex),
		  "setprotocol %d", r);
	pthread_mutex_lock(&pimutex);
	pthread_create(&t[0], 0, pi_trylock_other, 0);
	pthread_join(t[0], &res);
	rt = (int)(long)res;
	pthread_mutex_unlock(&pimutex);
	el_expect("pi_mutex_trylock_busy", rt == EBUSY, "trylock %s", strerror(rt));
	counter = 0;
	for (i = 0; i < PI_THREADS; i++)
		pthread_create(&t[i], 0, pi_worker, 0);
	for (i = 0; i < PI_THREADS; i++) {
		pthread_join(t[i], &res);
		bad += (long)res;
	}
	el_expect("pi_mutex_contention", counter == PI_THREADS * PI_ROUNDS && !bad,
		  "counter %ld of %d, %ld failed locks", counter, PI_THREADS * PI_ROUNDS, bad);
	pthread_mutex_destroy(&pimutex);
}

/* --- raw PI futex operations --- */

static uint32_t piword;
static volatile int holder_state;

static void *pi_holder(void *arg)
{
	piword = (uint32_t)gettid_();
	holder_state = 1;
	if (arg) {
		usleep(50000); /* the main thread blocks on it meanwhile */
		return 0;      /* and it exits holding it */
	}
	while (holder_state == 1)
		usleep(1000);
	usleep(20000); /* the main thread blocks on it meanwhile */
	futex(&piword, FUTEX_UNLOCK_PI, 0, 0);
	return 0;
}

static void check_pi_raw(void)
{
	uint32_t me = (uint32_t)gettid_();
	struct timespec past = {0, 0};
	pthread_t t;
	long r;

	piword = 0;
	r = futex(&piword, FUTEX_LOCK_PI, 0, 0);
	el_expect("lock_pi_free_word", r == 0 && piword == me, "r %ld, word %#x (tid %#x)", r,
		  piword, me);
	r = futex(&piword, FUTEX_LOCK_PI, 0, 0);
	el_expect("lock_pi_edeadlk", r == -EDEADLK, "r %ld", r);
	r = futex(&piword, FUTEX_UNLOCK_PI, 0, 0);
	el_expect("unlock_pi_free", r == 0 && piword == 0, "r %ld, word %#x", r, piword);
	r = futex(&piword, FUTEX_UNLOCK_PI, 0, 0);
	el_expect("unlock_pi_eperm", r == -EPERM, "r %ld", r);
	piword = 0x3ffffff0;
	r = futex(&piword, FUTEX_LOCK_PI, 0, 0);
	el_expect("lock_pi_esrch", r == -ESRCH, "r %ld", r);

	/* Held by a live thread: trylock, a timed-out lock, then a lock handed over at unlock. */
	holder_state = 0;
	pthread_create(&t, 0, pi_holder, 0);
	while (!holder_state)
		sched_yield();
	r = futex(&piword, FUTEX_TRYLOCK_PI, 0, 0);
	el_expect("trylock_pi_held", r == -EAGAIN, "r %ld (want EWOULDBLOCK, the waiters bit set)",
		  r);
	clock_gettime(CLOCK_REALTIME, &past);
	past.tv_nsec = 0;
	r = futex(&piword, FUTEX_LOCK_PI, 0, &past);
	el_expect("lock_pi_timeout", r == -ETIMEDOUT && (piword & FUTEX_WAITERS), "r %ld, word %#x",
		  r, piword);
	holder_state = 2;
	r = futex(&piword, FUTEX_LOCK_PI, 0, 0);
	el_expect("lock_pi_handed_over", r == 0 && (piword & FUTEX_TID_MASK) == me,
		  "r %ld, word %#x", r, piword);
	pthread_join(t, 0);
	futex(&piword, FUTEX_UNLOCK_PI, 0, 0);
	el_expect("unlock_pi_last", piword == 0, "word %#x", piword);

	/* The owner exits holding it (no robust list): the waiter gets it. */
	piword = 0;
	holder_state = 0;
	pthread_create(&t, 0, pi_holder, (void *)1);
	while (!holder_state)
		sched_yield();
	r = futex(&piword, FUTEX_LOCK_PI, 0, 0);
	el_expect("lock_pi_owner_exited", r == 0 && (piword & FUTEX_TID_MASK) == me,
		  "r %ld, word %#x", r, piword);
	pthread_join(t, 0);
	futex(&piword, FUTEX_UNLOCK_PI, 0, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0; /* the program robust_walk_at_exec execs */
	check_robust_thread(0);
	check_robust_thread(1);
	check_robust_process();
	check_robust_raw();
	check_robust_syscalls();
	check_pi_mutex();
	check_pi_raw();
	return el_summary("futexcheck");
}
