/*
 * --timeout (timeout.h).  The signal goes to the vCPU thread only
 * (SIGEV_THREAD_ID), so the handler's thread-local state is that thread's.
 * The handler stays installed for the life of the process: a signal that
 * was already pending when the timer is deleted must not kill entrylab.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kvm.h"
#include "timeout.h"

/* glibc before 2.39 names the thread-id field only internally. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static _Thread_local struct kvm_run *volatile timeout_run;
static _Thread_local volatile sig_atomic_t timeout_hit;

static void timeout_handler(int sig)
{
	(void)sig;
	timeout_hit = 1;
	if (timeout_run)
		timeout_run->immediate_exit = 1;
}

static int timeout_sig(void)
{
	return SIGRTMIN + 2;
}

static pthread_once_t timeout_once = PTHREAD_ONCE_INIT;

static void timeout_install(void)
{
	struct sigaction sa = {.sa_handler = timeout_handler};

	sigemptyset(&sa.sa_mask);
	sigaction(timeout_sig(), &sa, NULL);
}

int timeout_arm(struct el_timeout *t, struct kvm_run *run, double seconds, char *err,
		size_t errlen)
{
	struct sigevent sev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = timeout_sig()};
	struct itimerspec its = {0};
	sigset_t set;

	t->armed = false;
	pthread_once(&timeout_once, timeout_install);
	sigemptyset(&set);
	sigaddset(&set, timeout_sig());
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	timeout_hit = 0;
	timeout_run = run;

	sev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, &t->timer)) {
		snprintf(err, errlen, "cannot create the --timeout timer: %s", strerror(errno));
		return -1;
	}
	its.it_value.tv_sec = (time_t)seconds;
	its.it_value.tv_nsec = (long)((seconds - (double)its.it_value.tv_sec) * 1e9);
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;
	if (timer_settime(t->timer, 0, &its, NULL)) {
		snprintf(err, errlen, "cannot start the --timeout timer: %s", strerror(errno));
		timer_delete(t->timer);
		return -1;
	}
	t->armed = true;
	return 0;
}

bool timeout_fired(void)
{
	return timeout_hit;
}

void timeout_disarm(struct el_timeout *t)
{
	if (t->armed)
		timer_delete(t->timer);
	t->armed = false;
	timeout_run = NULL;
	timeout_hit = 0;
}
