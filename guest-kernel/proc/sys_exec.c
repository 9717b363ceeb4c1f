/*
 * execve(2): a new program in the calling process, from the initrd.  The
 * arguments are copied in before anything is torn down; from exec_load()'s
 * new address space on there is no way back, so a failure after it ends
 * the process with SIGSEGV, as Linux does past its point of no return.
 * The environment is the kernel's fixed one (exec_stack.c), not envp.
 * Descriptors with FD_CLOEXEC close; a traced process gets the SIGTRAP
 * Linux sends after a successful exec (no PTRACE_O_TRACEEXEC events here).
 * A multi-threaded caller is refused (EAGAIN): Linux would kill the other
 * threads first (de_thread), which this kernel does not do.
 */
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define EXEC_MAX_ARGS 64
#define EXEC_ARG_SPACE 8192
#define SIGTRAP 5
#define SIGSEGV 11

struct exec_args {
	const char *argv[EXEC_MAX_ARGS + 1];
	unsigned argc;
	char space[EXEC_ARG_SPACE];
};

/* argv from user memory into a; 0 or -EFAULT / -E2BIG. */
static long copy_args(struct exec_args *a, uint64_t uargv)
{
	size_t used = 0;

	a->argc = 0;
	for (; uargv; uargv += 8) {
		uint64_t p;
		long n;

		if (copy_from_user(&p, uargv, sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
		if (a->argc == EXEC_MAX_ARGS)
			return -E2BIG;
		n = strncpy_from_user(a->space + used, p, sizeof(a->space) - used);
		if (n < 0)
			return n == -ENAMETOOLONG ? -E2BIG : n;
		if ((size_t)n >= sizeof(a->space) - used)
			return -E2BIG;
		a->argv[a->argc++] = a->space + used;
		used += (size_t)n + 1;
	}
	a->argv[a->argc] = 0;
	return 0;
}

static unsigned live_threads(const struct task *t)
{
	unsigned i, n = 0;

	for (i = 0; i < TASK_MAX; i++)
		n += task_table[i].tgid == t->tgid && task_table[i].state != TASK_UNUSED &&
		     task_table[i].state != TASK_ZOMBIE && task_table[i].state != TASK_DEAD;
	return n;
}

static void close_on_exec(struct files *f)
{
	int fd;

	for (fd = 0; fd < FD_MAX; fd++)
		if (f->t.fd[fd] && f->t.cloexec[fd])
			fd_close(&f->t, fd);
}

/* execve(path, argv, envp) */
SYSCALL(execve)
{
	struct task *t = current;
	struct exec_args *a;
	struct inode *node;
	char path[EXE_PATH_MAX];
	char saved[EXE_PATH_MAX];
	struct mm *old;
	uint64_t pa;
	long n, err;

	(void)a2, (void)a3, (void)a4, (void)a5;
	n = strncpy_from_user(path, a0, sizeof(path));
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	if (live_threads(t) > 1)
		return -EAGAIN;
	err = vfs_lookup(t->cwd, path, true, &node);
	if (err)
		return err;
	if (!S_ISREG(node->mode) || !node->data)
		return -EACCES;
	pa = frame_alloc_order(2);
	if (!pa)
		return -ENOMEM;
	_Static_assert(sizeof(struct exec_args) <= 4096 << 2, "exec_args fits");
	a = phys_to_virt(pa);
	err = copy_args(a, a1);
	if (!err && !a->argc) {
		a->argv[0] = path;
		a->argv[1] = 0;
		a->argc = 1;
	}
	old = t->mm;
	strlcpy(saved, t->exe_path, sizeof(saved));
	if (!err) {
		strlcpy(t->exe_path, path, sizeof(t->exe_path));
		err = exec_load(t, node, a->argv, a->argc, task_user_frame(t));
	}
	frame_free_order(pa, 2);
	if (err && t->mm == old) {
		/* Refused before anything was torn down: the old name stays too. */
		strlcpy(t->exe_path, saved, sizeof(t->exe_path));
		return err;
	}
	if (err)
		process_kill(SIGSEGV); /* past the point of no return */

	task_set_comm(t, path);
	close_on_exec(t->files);
	t->work |= TASK_WORK_FRAME;
	if (t->tracer)
		signal_send(t, SIGTRAP, 0, false);
	return 0;
}
