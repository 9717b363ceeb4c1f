/*
 * The process: one at a time (init), with its address space, descriptors,
 * and the little signal state syscalls record.  It runs on its own kernel
 * stack, where every entry from user mode builds its trap frame.
 */
#ifndef EL_PROC_PROCESS_H
#define EL_PROC_PROCESS_H

#include "arch/x86_64/trapframe.h"
#include "fs/file.h"
#include "kernel.h"
#include "mm/mm.h"

#define NSIG 64
#define INIT_PID 1
#define EXE_PATH_MAX 256

/* Linux's struct sigaction as rt_sigaction passes it (kernel layout). */
struct k_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

struct process {
	int pid;
	char comm[16];                  /* program name, for messages */
	char exe_path[EXE_PATH_MAX];    /* /proc/self/exe */
	struct mm mm;
	struct fd_table files;
	struct inode *cwd;
	uint64_t clear_child_tid;       /* set_tid_address */
	struct k_sigaction sigactions[NSIG];
	uint64_t sigmask;
	uint64_t sigpending;             /* sent while blocked: acted on when unblocked */
	uint64_t frames_at_start;       /* frames in use before exec, for the leak check */
};

extern struct process *current;

/*
 * Runs init: kernel_cmdline.init or /init with the arguments after `--`.
 * Never returns: the process's exit ends the VM.
 */
__noreturn void process_run_init(void);

/* Ends the current process with an exit status (0-255): report, then VM exit. */
__noreturn void process_exit(int status);

/* Ends the current process as signal signo would (status 128 + signo). */
__noreturn void process_kill(int signo);

/* Builds the user image and initial frame (exec.c): 0 or -errno (message printed). */
int exec_load(struct process *p, struct inode *node, const char *const *argv, unsigned argc,
	      struct trap_frame *tf);

#endif
