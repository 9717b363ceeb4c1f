/*
 * threadcheck futex: FUTEX_WAIT and FUTEX_WAKE (shared and private) raw.
 *   - WAIT on a word that differs from the value: EAGAIN at once;
 *   - WAIT with a 20 ms timeout: ETIMEDOUT, after at least 20 ms;
 *   - WAKE with nobody waiting: 0; misaligned address EINVAL, NULL EFAULT,
 *     an unknown op ENOSYS;
 *   - a thread asleep in WAIT is woken: WAKE answers 1 once it sleeps;
 *   - three asleep, one WAKE of INT_MAX answers 3.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "threadcheck.h"

static volatile int word, ready;

static long elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000l + (b->tv_nsec - a->tv_nsec);
}

static void alone(int priv)
{
	const struct timespec ms20 = {.tv_nsec = 20000000};
	struct timespec t0, t1;
	static volatile int w[2];
	long r;
	const char *kind = priv ? "private" : "shared";

	w[0] = 5;
	r = tc_futex(&w[0], TC_FUTEX_WAIT | priv, 4, NULL);
	el_expect(priv ? "futex.private_wait_mismatch_eagain" : "futex.wait_mismatch_eagain",
		  r == -EAGAIN, "%s WAIT(5 != 4): %ld", kind, r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = tc_futex(&w[0], TC_FUTEX_WAIT | priv, 5, &ms20);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	el_expect(priv ? "futex.private_wait_timeout" : "futex.wait_timeout",
		  r == -ETIMEDOUT && elapsed_ns(&t0, &t1) >= 20000000l,
		  "%s WAIT 20 ms: %ld after %ld ns", kind, r, elapsed_ns(&t0, &t1));
	r = tc_futex(&w[0], TC_FUTEX_WAKE | priv, 1, NULL);
	el_expect(priv ? "futex.private_wake_nobody" : "futex.wake_nobody", r == 0,
		  "%s WAKE: %ld", kind, r);
}

static void errors(void)
{
	static volatile int w[2];
	long r;

	r = tc_futex((volatile int *)((char *)w + 1), TC_FUTEX_WAIT, 0, NULL);
	el_expect("futex.misaligned_einval", r == -EINVAL, "WAIT at an odd address: %ld", r);
	r = tc_futex(NULL, TC_FUTEX_WAIT, 0, NULL);
	el_expect("futex.null_efault", r == -EFAULT, "WAIT at NULL: %ld", r);
	r = tc_futex(&w[0], 99, 0, NULL);
	el_expect("futex.unknown_op_enosys", r == -ENOSYS, "op 99: %ld", r);
}

static void *sleeper(void *arg)
{
	int priv = *(int *)arg;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	while (word == 0)
		tc_futex(&word, TC_FUTEX_WAIT | priv, 0, NULL);
	return NULL;
}

/* WAKE (without changing the word) until it reports a sleeper, then let it go. */
static void wake_one(int priv)
{
	pthread_t t;
	long r = 0;
	int tries = 0;

	word = ready = 0;
	pthread_create(&t, NULL, sleeper, &priv);
	while (!ready)
		sched_yield();
	for (; tries < 2000 && r == 0; tries++) {
		tc_nap_ms(1);
		r = tc_futex(&word, TC_FUTEX_WAKE | priv, 1, NULL);
	}
	word = 1;
	tc_futex(&word, TC_FUTEX_WAKE | priv, 1, NULL);
	pthread_join(t, NULL);
	el_expect(priv ? "futex.private_wake_one_sleeper" : "futex.wake_one_sleeper", r == 1,
		  "WAKE answered %ld after %d tries", r, tries);
}

static void wake_all(int priv)
{
	long r = 0;

	for (int attempt = 0; attempt < 3 && r != 3; attempt++) {
		pthread_t t[3];

		word = ready = 0;
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, sleeper, &priv);
		while (ready < 3)
			sched_yield();
		tc_nap_ms(50); /* all three asleep by now */
		word = 1;
		r = tc_futex(&word, TC_FUTEX_WAKE | priv, INT_MAX, NULL);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
	}
	el_expect(priv ? "futex.private_wake_all_three" : "futex.wake_all_three", r == 3,
		  "WAKE(INT_MAX) answered %ld", r);
}

void tc_futex_group(void)
{
	alone(0);
	alone(TC_FUTEX_PRIVATE);
	errors();
	wake_one(0);
	wake_one(TC_FUTEX_PRIVATE);
	wake_all(0);
	wake_all(TC_FUTEX_PRIVATE);
}
