/*
 * Signal state, split as Linux splits it: the actions (struct sighand,
 * shared by CLONE_SIGHAND and so by every thread of a process, with the
 * process-directed pending set) and each thread's own mask, pending set,
 * alternate stack and the information of its pending signals.
 *
 * The layout of what user mode sees (siginfo, the signal frame) is
 * proc/signal_frame.h's; this file is the kernel's bookkeeping only.
 */
#ifndef EL_PROC_SIGNAL_TYPES_H
#define EL_PROC_SIGNAL_TYPES_H

#include "kernel.h"
#include "proc/sigframe.h"

#define NSIG 64

/* Linux's struct sigaction as rt_sigaction passes it (kernel layout). */
struct k_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

/* What a pending signal carries to its handler's siginfo (one per signal number). */
struct ksiginfo {
	int32_t signo, errno_, code;
	int32_t pid, uid, status; /* kill/tkill/SIGCHLD */
	uint64_t addr;            /* SIGSEGV/SIGBUS/SIGILL/SIGFPE/SIGTRAP: si_addr */
	int32_t trapno;           /* the exception vector behind a synchronous signal */
	int32_t pad;
};

#define SIGRTMIN_KERNEL 32   /* real-time signals (32..64) queue; the others merge */
#define SIGQUEUE_EXTRA 32    /* queued instances beyond the first, per set */

struct sigpending_set {
	uint64_t set;                  /* bit signo-1 */
	struct ksiginfo info[NSIG];    /* the oldest pending instance of each */
	unsigned nq;                   /* later instances of real-time signals, oldest first */
	struct ksiginfo q[SIGQUEUE_EXTRA];
};

struct sighand {
	uint32_t refs;
	struct k_sigaction action[NSIG];
	struct sigpending_set shared;  /* process-directed (kill) */
};

struct sigthread {
	uint64_t blocked;              /* rt_sigprocmask; never SIGKILL or SIGSTOP */
	uint64_t saved_blocked;        /* rt_sigsuspend, pause: put back once a handler ran or nothing did */
	bool restore_blocked;          /* saved_blocked is live (Linux TIF_RESTORE_SIGMASK) */
	struct sigpending_set pending; /* thread-directed (tkill, tgkill, exceptions) */
	struct sigframe_altstack altstack; /* sigaltstack */
	struct sigframe_trap trap;     /* the last trap that made a signal: sigcontext trapno, err, cr2 */
};

#endif
