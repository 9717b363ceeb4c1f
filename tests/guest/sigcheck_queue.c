/*
 * sigcheck queue (not in the default run): Linux's queueing rules beyond
 * the list.  Real-time signals queue (three sent while blocked run
 * the handler three times, standard ones once).  And the order: on the
 * unblocking return Linux dequeues the lowest-numbered deliverable signal,
 * builds its frame, blocks it, and repeats, so frames stack up 10, 37, 38
 * and the handlers run 38 first; the other two SIGRTMIN+2 wait, blocked,
 * until its handler returns.  Observed order: 38 37 37 37 10.
 */
#include <signal.h>

#include "sigcheck.h"

static int order[8], n_order;

static void log_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	if (n_order < 8)
		order[n_order++] = sig;
}

void sc_queue(void)
{
	int rt = SIGRTMIN + 2, rt2 = SIGRTMIN + 3;

	sc_install(rt, log_handler, 0);
	sc_install(rt2, log_handler, 0);
	sc_install(SIGUSR1, log_handler, 0);
	n_order = 0;
	sc_block(SC_BIT(rt) | SC_BIT(rt2) | SC_BIT(SIGUSR1));
	raise(rt2);
	raise(rt);
	raise(rt);
	raise(rt);
	raise(SIGUSR1);
	raise(SIGUSR1);
	sc_unblock(SC_BIT(rt) | SC_BIT(rt2) | SC_BIT(SIGUSR1));
	el_expect("queue.rt_signals_queue", n_order == 5,
		  "%d deliveries, want 5 (SIGUSR1 once, SIGRTMIN+2 three times, SIGRTMIN+3 once)",
		  n_order);
	el_expect("queue.frames_stack_lowest_first",
		  n_order == 5 && order[0] == rt2 && order[1] == rt && order[2] == rt &&
			  order[3] == rt && order[4] == SIGUSR1,
		  "handlers ran %d %d %d %d %d, want %d %d %d %d %d", order[0], order[1], order[2],
		  order[3], order[4], rt2, rt, rt, rt, SIGUSR1);
	sc_default(rt);
	sc_default(rt2);
	sc_default(SIGUSR1);
}
