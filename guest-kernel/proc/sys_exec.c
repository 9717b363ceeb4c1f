/*
 * execve(2): a new program in the calling process, from any regular file of
 * the initrd with an execute bit (root needs one of the three, as on
 * Linux; else EACCES).  The arguments and the environment are copied in
 * before anything is torn down; from exec_load()'s new address space on
 * there is no way back, so a failure after it ends the process with
 * SIGSEGV, as Linux does past its point of no return.  The new program
 * gets envp as given (init alone gets the kernel's, exec_stack.h).  A "#!"
 * script runs its interpreter, as Linux's binfmt_script (resolve_script).
 * Descriptors with FD_CLOEXEC close; a traced process gets the SIGTRAP
 * Linux sends after a successful exec (no PTRACE_O_TRACEEXEC events here).
 * A multi-threaded caller is refused (EAGAIN): Linux would kill the other
 * threads first (de_thread), which this kernel does not do.
 */
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "proc/exec_script.h"
#include "proc/exec_stack.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define EXEC_STRING_SPACE 12288 /* argv and envp strings together */

struct exec_args {
	const char *argv[EXEC_MAX_STRINGS + 1];
	const char *envp[EXEC_MAX_STRINGS + 1];
	unsigned argc, envc;
	size_t used; /* of space */
	struct exec_script script;
	char space[EXEC_STRING_SPACE];
};

/* A NULL-ended user array of strings (argv or envp) into a; 0 or -EFAULT / -E2BIG. */
static long copy_strings(struct exec_args *a, uint64_t uvec, const char **out, unsigned *count)
{
	*count = 0;
	for (; uvec; uvec += 8) {
		uint64_t p;
		long n;

		if (copy_from_user(&p, uvec, sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
		if (*count == EXEC_MAX_STRINGS)
			return -E2BIG;
		n = strncpy_from_user(a->space + a->used, p, sizeof(a->space) - a->used);
		if (n < 0)
			return n == -ENAMETOOLONG ? -E2BIG : n;
		if ((size_t)n >= sizeof(a->space) - a->used)
			return -E2BIG;
		out[(*count)++] = a->space + a->used;
		a->used += (size_t)n + 1;
	}
	out[*count] = 0;
	return 0;
}

/* One more string into a's space; NULL when it is full. */
static const char *keep_string(struct exec_args *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *at = a->space + a->used;

	if (n > sizeof(a->space) - a->used)
		return 0;
	memcpy(at, s, n);
	a->used += n;
	return at;
}

/*
 * "#!" scripts (exec_script.h), as Linux's binfmt_script: while *node is
 * one, argv becomes "INTERP [ARG] PATH ARGV[1..]" and *node the
 * interpreter, looked up from the caller's cwd and held to execve's rules;
 * *path follows (the interpreter is the new program's exe).  0 or -errno
 * (ENOEXEC bad line, ELOOP too deep, E2BIG no room, the lookup's error).
 */
static long resolve_script(struct task *t, struct exec_args *a, const char **path,
			   struct inode **node)
{
	for (unsigned depth = 0;; depth++) {
		struct exec_script *s = &a->script;
		int r = exec_script_parse((*node)->data, (*node)->size, s);
		unsigned add;
		const char *interp, *arg = 0, *script;
		long err;

		if (r == 0)
			return 0;
		if (r < 0)
			return -ENOEXEC;
		if (depth == EXEC_SCRIPT_DEPTH)
			return -ELOOP;
		add = 1 + (unsigned)s->has_arg;
		if (a->argc + add > EXEC_MAX_STRINGS)
			return -E2BIG;
		script = keep_string(a, *path);
		interp = keep_string(a, s->interp);
		if (s->has_arg)
			arg = keep_string(a, s->arg);
		if (!script || !interp || (s->has_arg && !arg))
			return -E2BIG;
		/* argv[0] gives way to the script's path; INTERP [ARG] go before it */
		memmove(a->argv + add, a->argv, (a->argc + 1) * sizeof(a->argv[0]));
		a->argc += add;
		a->argv[0] = interp;
		if (arg)
			a->argv[1] = arg;
		a->argv[add] = script;
		err = vfs_lookup(t->cwd, interp, true, node);
		if (err)
			return err;
		if (!S_ISREG((*node)->mode) || !(*node)->data || !((*node)->mode & 0111))
			return -EACCES;
		*path = interp;
	}
}

static unsigned live_threads(const struct task *t)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++)
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
SYSCALL_DEFINE3(execve, uint64_t, filename, uint64_t, argv, uint64_t, envp)
{
	struct task *t = current;
	struct exec_args *a;
	struct inode *node;
	char path[EXE_PATH_MAX];
	char saved[EXE_PATH_MAX];
	const char *exe = path;
	struct mm *old;
	uint64_t pa;
	long n, err;

	n = strncpy_from_user(path, filename, sizeof(path));
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	if (live_threads(t) > 1)
		return -EAGAIN;
	err = vfs_lookup(t->cwd, path, true, &node);
	if (err)
		return err;
	if (!S_ISREG(node->mode) || !node->data || !(node->mode & 0111))
		return -EACCES;
	pa = frame_alloc_order(2);
	if (!pa)
		return -ENOMEM;
	_Static_assert(sizeof(struct exec_args) <= 4096 << 2, "exec_args fits");
	a = phys_to_virt(pa);
	a->used = 0;
	err = copy_strings(a, argv, a->argv, &a->argc);
	if (!err)
		err = copy_strings(a, envp, a->envp, &a->envc);
	if (!err && !a->argc) {
		a->argv[0] = path;
		a->argv[1] = 0;
		a->argc = 1;
	}
	if (!err)
		err = resolve_script(t, a, &exe, &node);
	old = t->mm;
	strlcpy(saved, t->exe_path, sizeof(saved));
	if (!err) {
		struct exec_strings s = {a->argv, a->argc, a->envp, a->envc};

		strlcpy(t->exe_path, exe, sizeof(t->exe_path));
		err = exec_load(t, node, &s, task_user_frame(t));
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
	t->group_leader->job.did_exec = true;
	close_on_exec(t->files);
	t->work |= TASK_WORK_FRAME;
	ptrace_exec(t->pid);
	return 0;
}
