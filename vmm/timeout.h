/*
 * --timeout: a POSIX timer that signals the vCPU thread.  The handler sets
 * run->immediate_exit, so KVM_RUN returns EINTR whether the signal lands
 * inside the guest or between two KVM_RUN calls; nothing can hang.
 */
#ifndef EL_TIMEOUT_H
#define EL_TIMEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct kvm_run;

struct el_timeout {
	timer_t timer;
	bool armed;
};

/* Arms for the calling thread (the vCPU thread).  -1 with a message in err. */
int timeout_arm(struct el_timeout *t, struct kvm_run *run, double seconds, char *err,
		size_t errlen);
/* True once the armed timer has fired on this thread. */
bool timeout_fired(void);
void timeout_disarm(struct el_timeout *t);

#endif
