/*
 * threadcheck signals: which thread a signal reaches.
 *   - tgkill(pid, tid of B, sig): B's handler runs (gettid() = B);
 *   - kill(pid, SIGUSR2) with the main thread blocking it: B takes it;
 *   - kill(pid, SIGPROF) with B blocking it: the main thread takes it.
 * B spins on sched_yield, so every return from the kernel may deliver.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/sys.h"
#include "threadcheck.h"

static volatile int stop, b_ready, got;
static volatile long handler_tid, b_tid;

static void on_signal(int sig)
{
	(void)sig;
	handler_tid = tc_gettid();
	got++;
}

static void *spin_b(void *arg)
{
	sigset_t prof;

	(void)arg;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &prof, NULL);
	b_tid = tc_gettid();
	b_ready = 1;
	while (!stop)
		sched_yield();
	return NULL;
}

/* Waits (yielding) until the handler ran; 0 on timeout. */
static int wait_handler(int before)
{
	for (int i = 0; i < 200000 && got == before; i++)
		sched_yield();
	return got != before;
}

void tc_signals(void)
{
	pthread_t b;
	sigset_t usr2;
	long main_tid = tc_gettid();
	int before;

	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	signal(SIGPROF, on_signal);
	stop = b_ready = got = 0;
	if (pthread_create(&b, NULL, spin_b, NULL)) {
		el_fail("signals.thread", "pthread_create failed");
		return;
	}
	while (!b_ready)
		sched_yield();

	before = got;
	el_syscall3(SYS_tgkill, getpid(), b_tid, SIGUSR1);
	el_expect("signals.tgkill_reaches_that_thread", wait_handler(before) && handler_tid == b_tid,
		  "handler ran in tid %ld, target %ld (main %ld)", handler_tid, b_tid, main_tid);

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	before = got;
	kill(getpid(), SIGUSR2);
	el_expect("signals.process_signal_to_unblocking_thread",
		  wait_handler(before) && handler_tid == b_tid,
		  "SIGUSR2 (blocked in main) handled in tid %ld, want B %ld", handler_tid, b_tid);
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);

	before = got;
	kill(getpid(), SIGPROF);
	el_expect("signals.process_signal_to_main_when_b_blocks",
		  wait_handler(before) && handler_tid == main_tid,
		  "SIGPROF (blocked in B) handled in tid %ld, want main %ld", handler_tid, main_tid);

	stop = 1;
	pthread_join(b, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGPROF, SIG_DFL);
}
