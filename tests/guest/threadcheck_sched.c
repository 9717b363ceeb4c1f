/*
 * threadcheck sched: one CPU.
 *   - sched_getaffinity names at least one CPU; pinning to CPU 0 works, a
 *     mask of only a CPU that does not exist is EINVAL;
 *   - two threads on CPU 0 that sched_yield in turn interleave;
 *   - a thread that spins without system calls cannot keep the CPU: the
 *     other thread on CPU 0 gets to run (timer preemption) within 3 s.
 * The last two pin every thread to CPU 0, so on a host they mean the same.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "threadcheck.h"

#define STEPS 20

static void affinity(void)
{
	cpu_set_t set, only_far;
	int r;

	CPU_ZERO(&set);
	r = sched_getaffinity(0, sizeof(set), &set);
	el_expect("sched.getaffinity", r == 0 && CPU_COUNT(&set) >= 1, "r %d, %d CPUs", r,
		  CPU_COUNT(&set));
	r = tc_pin_cpu0();
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	el_expect("sched.pin_cpu0", r == 0 && CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set),
		  "setaffinity %d (%s), now %d CPUs", r, strerror(-r), CPU_COUNT(&set));
	CPU_ZERO(&only_far);
	CPU_SET(CPU_SETSIZE - 1, &only_far);
	r = sched_setaffinity(0, sizeof(only_far), &only_far);
	el_expect("sched.no_such_cpu_einval", r == -1 && errno == EINVAL, "r %d (%s)", r,
		  strerror(errno));
	el_expect("sched.yield_returns_0", sched_yield() == 0, "sched_yield failed");
}

static pthread_barrier_t start;
static char steps[2 * STEPS + 1];
static int n_steps;

static void *stepper(void *arg)
{
	char id = *(char *)arg;

	pthread_barrier_wait(&start);
	for (int i = 0; i < STEPS; i++) {
		steps[__atomic_fetch_add(&n_steps, 1, __ATOMIC_SEQ_CST)] = id;
		sched_yield();
	}
	return NULL;
}

static void interleave(void)
{
	static char a = 'a', b = 'b';
	pthread_t ta, tb;
	int switches = 0;

	n_steps = 0;
	memset(steps, 0, sizeof(steps));
	pthread_barrier_init(&start, NULL, 2);
	pthread_create(&ta, NULL, stepper, &a);
	pthread_create(&tb, NULL, stepper, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&start);
	for (int i = 1; i < n_steps; i++)
		switches += steps[i] != steps[i - 1];
	el_expect("sched.yield_interleaves", n_steps == 2 * STEPS && switches >= STEPS,
		  "%d switches in %s (want at least %d)", switches, steps, STEPS);
}

static volatile int released, spinner_started;
static volatile long spun_ms;

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000l + t.tv_nsec / 1000000;
}

/*
 * Spins without a system call (the vDSO clock), until released or SPIN_GIVE_UP_MS
 * pass.  The check is one of order (the main thread ran again before the
 * spinner gave up), so the give-up is far beyond a quantum (4 ms) plus any
 * delay emulation or a busy host adds to the timer interrupt.
 */
#define SPIN_GIVE_UP_MS 20000l
static void *spinner(void *arg)
{
	long t0 = now_ms(), t = t0;

	(void)arg;
	spinner_started = 1;
	while (!released && (t = now_ms()) - t0 < SPIN_GIVE_UP_MS)
		;
	spun_ms = t - t0;
	return NULL;
}

static void preemption(void)
{
	pthread_t t;

	released = spinner_started = 0;
	pthread_create(&t, NULL, spinner, NULL);
	while (!spinner_started)
		sched_yield(); /* hand it the CPU: from here only preemption gives it back */
	released = 1;
	pthread_join(t, NULL);
	el_expect("sched.spinning_thread_preempted", spun_ms < SPIN_GIVE_UP_MS,
		  "the spinning thread kept the CPU for %ld ms: no preemption", spun_ms);
}

void tc_sched(void)
{
	affinity();
	interleave();
	preemption();
}
