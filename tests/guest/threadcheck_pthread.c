/*
 * threadcheck mutex: 4 threads each add 1 to a shared
 * counter 100000 times under one pthread mutex, yielding inside the lock
 * every 1000 so that the others find it taken (futex waits); the total must
 * be exact.  Each thread also checks its TLS (__thread, starts from the TLS
 * image, distinct address, FS base = pthread_self()), its tid (distinct) and
 * pid (the process's), and returns a value that pthread_join must hand back.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/sys.h"
#include "threadcheck.h"

#define NTHREADS 4
#define ROUNDS 100000
#define ARCH_GET_FS 0x1003

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static __thread int tls_value = 7;

struct worker {
	int index;
	long tid, pid;
	int tls_initial, tls_kept;
	uintptr_t tls_addr, fs_base, self;
	long busy;  /* trylock found the mutex taken */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t fs = 0;

	w->tid = tc_gettid();
	w->pid = getpid();
	w->tls_initial = tls_value;
	tls_value = 100 + w->index;
	w->tls_addr = (uintptr_t)&tls_value;
	el_syscall2(SYS_arch_prctl, ARCH_GET_FS, (long)&fs);
	w->fs_base = (uintptr_t)fs;
	w->self = (uintptr_t)pthread_self();
	for (int i = 0; i < ROUNDS; i++) {
		if (pthread_mutex_trylock(&lock)) {
			w->busy++;
			pthread_mutex_lock(&lock);
		}
		counter++;
		if (i % 1000 == 999)
			sched_yield(); /* holding the lock: the others must wait for it */
		pthread_mutex_unlock(&lock);
	}
	w->tls_kept = tls_value == 100 + w->index;
	return (void *)(uintptr_t)(0x1000 + w->index);
}

void tc_pthread(void)
{
	pthread_t th[NTHREADS];
	struct worker w[NTHREADS];
	void *ret[NTHREADS];
	int created = 0, joined_ok = 1, tls_ok = 1, ids_ok = 1, err = 0;
	long busy = 0, main_tid = tc_gettid();

	memset(w, 0, sizeof(w));
	counter = 0;
	for (int i = 0; i < NTHREADS; i++) {
		w[i].index = i;
		err = pthread_create(&th[i], NULL, work, &w[i]);
		if (err)
			break;
		created++;
	}
	el_expect("mutex.pthread_create_4", created == NTHREADS, "created %d: %s", created,
		  strerror(err));
	for (int i = 0; i < created; i++) {
		err = pthread_join(th[i], &ret[i]);
		joined_ok &= !err && ret[i] == (void *)(uintptr_t)(0x1000 + i);
	}
	el_expect("mutex.pthread_join_values", joined_ok, "a join failed or returned the wrong value");
	el_expect("mutex.counter_exact", counter == (long)created * ROUNDS,
		  "counter %ld, want %ld: the mutex let two threads in", counter,
		  (long)created * ROUNDS);
	for (int i = 0; i < created; i++) {
		busy += w[i].busy;
		tls_ok &= w[i].tls_initial == 7 && w[i].tls_kept && w[i].tls_addr != (uintptr_t)&tls_value &&
			  w[i].fs_base == w[i].self;
		ids_ok &= w[i].tid != main_tid && w[i].tid > 0 && w[i].pid == getpid();
		for (int j = 0; j < i; j++) {
			tls_ok &= w[i].tls_addr != w[j].tls_addr;
			ids_ok &= w[i].tid != w[j].tid;
		}
	}
	el_expect("mutex.contended", busy > 0,
		  "no thread ever found the mutex taken, though its holder yields inside");
	el_expect("mutex.tls_per_thread", tls_ok && tls_value == 7,
		  "TLS: initial values, per-thread addresses or FS base = pthread_self() wrong "
		  "(main's value now %d)",
		  tls_value);
	el_expect("mutex.tids_distinct_pid_shared", ids_ok, "tids not distinct or pid differs");
}
