/*
 * Tasks: Linux's task_struct in small.  A task is one thread of execution
 * with its own kernel stack, trap frame and saved CPU state; a process is a
 * thread group (tasks with one tgid) sharing an address space (mm), a file
 * table and the signal actions (sighand).  Sharing is by reference count,
 * as clone(2) asks: fork copies, CLONE_VM / CLONE_FILES / CLONE_SIGHAND
 * share.
 *
 * One CPU: `current` is the task on it.  The kernel is not preemptible:
 * tasks switch only in schedule() (on block, exit and yield, and at the
 * return to user mode when the timer asked for it, TASK_WORK_RESCHED).
 *
 * Every return to user mode tests current->work once (a test and a branch
 * on the syscall path); a non-zero word takes the slow path,
 * exit_to_user_work() (sched.h), which reschedules, stops for a tracer and
 * delivers pending signals, in that order, until nothing is left.
 */
#ifndef EL_PROC_PROCESS_H
#define EL_PROC_PROCESS_H

#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/thread.h"
#include "fs/file.h"
#include "kernel.h"
#include "mm/mm.h"
#include "proc/cred.h"
#include "proc/jobctl.h"
#include "proc/rlimit.h"
#include "proc/signal_types.h"
#include "proc/task_asm.h"

#define INIT_PID 1
#define PID_MAX 32768                /* pids wrap below this (/proc/sys/kernel/pid_max) */
#define EXE_PATH_MAX 256
#define TASK_MAX 64                  /* tasks alive at once, zombies included */
#define TASK_STACK_ORDER 2           /* 16 KiB kernel stack per task */
#define TASK_STACK_SIZE (4096ull << TASK_STACK_ORDER)

/* task.work: why the return to user mode must take the slow path. */
#define TASK_WORK_SIGPENDING 0x1u   /* a signal may be deliverable (signal.c decides) */
#define TASK_WORK_RESCHED 0x2u      /* schedule() before returning */
#define TASK_WORK_SYSCALL_TRACE 0x4u /* ptrace syscall-entry/exit stops (PTRACE_SYSCALL) */
#define TASK_WORK_SINGLESTEP 0x8u   /* ptrace single-step: report a step after a syscall */
#define TASK_WORK_NOTIFY 0x10u      /* other kernel work (exit_group kill, ptrace kill) */
/* The syscall frame is complete (sys/syscall.c), maybe rewritten (sigreturn, exec): full check. */
#define TASK_WORK_FRAME 0x20u
/* The mm has an LDT: every exit takes the slow path, which tests for an LDT SS (espfix.h). */
#define TASK_WORK_ESPFIX 0x40u

enum task_state {
	TASK_UNUSED = 0,
	TASK_RUNNABLE,        /* on the CPU or ready for it */
	TASK_BLOCKED,         /* interruptible sleep on task.wait_chan (a signal wakes it) */
	TASK_BLOCKED_NOINTR,  /* uninterruptible (vfork parent) */
	TASK_STOPPED,         /* ptrace stop (traced) or group stop */
	TASK_ZOMBIE,          /* exited, waiting for its parent's wait */
	TASK_DEAD,            /* reaped: the slot is freed after the switch away */
};

/* The file table, shared by CLONE_FILES. */
struct files {
	uint32_t refs;
	struct fd_table t;
};

struct task {
	/* --- identity --- */
	int pid;                        /* the thread id (gettid) */
	int tgid;                       /* the process id (getpid): the group leader's pid */
	enum task_state state;
	uint32_t work;                  /* TASK_WORK_*: tested on every return to user mode */
	char comm[16];                  /* program name, for messages */
	char exe_path[EXE_PATH_MAX];    /* the path execve was given (AT_EXECFN, messages) */
	uint64_t start_ns;              /* CLOCK_MONOTONIC at creation (/proc/PID/stat starttime) */

	/* --- family --- */
	struct task *parent;            /* real parent (wait, getppid); reparented to init */
	struct task *group_leader;      /* the thread group's first task (itself if leader) */
	int exit_signal;                /* sent to the parent at exit (SIGCHLD; 0 for threads) */
	int exit_code;                  /* wait status as wait4 reports it (Linux encoding) */
	bool group_exiting;             /* exit_group in progress: every other thread dies */
	bool group_dead;                /* leader: the last thread ended, wait may reap it */

	/* --- shared resources --- */
	struct mm *mm;                  /* refcounted (mm.refs) */
	struct files *files;
	struct inode *cwd;
	uint32_t umask;                 /* umask(2): 022 for init, copied by clone */
	struct sighand *sighand;        /* actions, refcounted (signal_types.h) */

	/* --- this thread's signal state (signal_types.h) --- */
	struct sigthread sig;

	/* --- threads --- */
	uint64_t set_child_tid;         /* CLONE_CHILD_SETTID: written by the child */
	uint64_t clear_child_tid;       /* set_tid_address / CLONE_CHILD_CLEARTID: zeroed, futex-woken at exit */
	uint64_t robust_list;           /* set_robust_list: user head, walked at exit and exec */

	/* --- scheduling --- */
	const void *wait_chan;          /* what a blocked task waits for (wake_up(key)) */
	uint64_t wake_deadline_ns;      /* CLOCK_MONOTONIC ns to wake a sleeper, 0: none */
	int wake_reason;                /* 0: woken by wake_up; -EINTR: by a signal; -ETIMEDOUT */
	struct task *vfork_parent;      /* CLONE_VFORK: woken when this task execs or exits */

	/* --- ptrace (proc/ptrace.c) --- */
	struct task *tracer;            /* non-NULL: traced */
	uint32_t ptrace_opts;           /* PTRACE_O_* */
	int ptrace_stop_sig;            /* what the stop reports to wait (signal or SIGTRAP|0x80) */
	int ptrace_resume_sig;          /* signal to deliver on resume (PTRACE_CONT data) */
	bool ptrace_stop_reported;      /* wait already returned this stop */
	bool ptrace_forced_tf;          /* PTRACE_SINGLESTEP set TF (the tracee did not) */
	struct ksiginfo ptrace_siginfo; /* the signal of a signal-delivery stop (GETSIGINFO) */
	uint64_t ptrace_eventmsg;       /* PTRACE_GETEVENTMSG: a new pid, an exit status, 1/2 at syscall stops */
	int ptrace_trap;                /* a PTRACE_EVENT_STOP due (SEIZE, INTERRUPT, SIGCONT): its stop code */
	uint8_t ptrace_syscall_op;      /* PTRACE_SYSCALL_INFO_* of the present stop */
	bool ptrace_listening;          /* PTRACE_LISTEN: stays in group stop until SIGCONT or SIGKILL */
	struct trap_frame *user_regs;   /* the frame at the top of the kernel stack (PEEKUSER) */

	/* --- CPU state and the kernel stack --- */
	uint64_t kernel_rsp;            /* saved by switch_to (arch/x86_64/switch.S) */
	uint64_t stack_base;            /* lowest address of the kernel stack (TASK_STACK_SIZE) */
	struct thread_arch arch;        /* FS/GS base, FPU image, I/O bitmap ... (thread.h) */

	/* --- prctl (sys_prctl.c) --- */
	int pdeathsig;                  /* PR_SET_PDEATHSIG: recorded, but never sent */
	bool undumpable;                /* PR_SET_DUMPABLE 0 (inherited) */
	bool no_new_privs;              /* PR_SET_NO_NEW_PRIVS (inherited) */

	struct cred cred;               /* ids and groups (cred.h): copied by fork, kept by exec */
	struct task_job job;            /* groups, session, group stop (jobctl.h; the leader's counts) */
	struct task_res res;            /* limits, accounting, nice (rlimit.h) */

	uint64_t frames_at_start;       /* frames in use before init's exec, for the leak check */
};
/* entry.S reads work (cmpl $0, TASK_WORK(task)): task_asm.h. */
_Static_assert(offsetof(struct task, work) == TASK_WORK && sizeof(((struct task *)0)->work) == 4,
	       "task.work: proc/task_asm.h");

/* The task on the CPU (per-CPU, so the entry asm reaches it: %gs:PERCPU_CURRENT). */
#define current (cpu0.current)

/* Every task slot (TASK_UNUSED ones included), for the scheduler, wait and kill. */
extern struct task task_table[TASK_MAX];
/*
 * Every slot at or above task_slots is TASK_UNUSED, so scans of the table
 * stop there: the scheduler's wake, pick and reap loops cost the tasks in
 * use, not TASK_MAX (a pipe round trip walked 64 slots four times).
 * task_alloc raises it, task_free lowers it past freed top slots.
 */
extern unsigned task_slots;

/* The trap frame of a task's user context: the top of its kernel stack. */
static inline struct trap_frame *task_user_frame(const struct task *t)
{
	return (struct trap_frame *)(t->stack_base + TASK_STACK_SIZE) - 1;
}

/* Thread group membership. */
static inline bool task_same_group(const struct task *a, const struct task *b)
{
	return a->tgid == b->tgid;
}

/* Finds a live (not UNUSED/DEAD) task by thread id; NULL if none. */
struct task *task_find(int pid);

/* The last pid handed out; the tasks created since boot (init included). */
int task_last_pid(void);
extern uint64_t task_created;

/* p->comm := the last component of path (truncated to fit). */
void task_set_comm(struct task *p, const char *path);

/*
 * Runs init: kernel_cmdline.init or /init with the arguments after `--`.
 * Never returns.  The run ends when init (pid 1) exits: its status is the
 * run's (report, then VM exit), whatever else is still alive.  With
 * el.region=whole the region spans exactly that: from just before init's
 * first return to user mode to the first thing once it exited.
 */
__noreturn void process_run_init(void);

/*
 * The current thread ends (exit(2)): clear_child_tid, then, for the last
 * thread of the group, the process becomes a zombie with wait status
 * `wstatus` (Linux encoding: (code & 0xff) << 8, or the signal number).
 */
__noreturn void task_exit(int wstatus);

/* exit_group(2) and fatal signals: every thread of the group ends with wstatus. */
__noreturn void task_exit_group(int wstatus);

/* Ends the current process as signal signo's default action would. */
__noreturn void process_kill(int signo);

/* Compatibility name: exit_group with an exit status 0-255. */
__noreturn void process_exit(int status);

/*
 * Builds the user image and initial frame (exec.c) with s's argv and envp:
 * 0 or -errno (message printed).
 */
struct exec_strings;
int exec_load(struct task *p, struct inode *node, const struct exec_strings *s,
	      struct trap_frame *tf);

/* Linux wait-status encodings. */
#define W_EXITCODE(code, sig) ((((code) & 0xff) << 8) | ((sig) & 0x7f))
#define W_STOPCODE(code) ((((code) & 0xffff) << 8) | 0x7f) /* ptrace: signal | event << 8 */

#endif
