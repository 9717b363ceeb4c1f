/*
 * Tasks (process.h): the slot table, init, and the end of a thread, of a
 * process and of the run.  The run ends when init (pid 1) exits: its
 * status goes into the RUN report and to the exit port, whatever else is
 * still alive (Linux would panic; a test VM just stops).
 */
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/entry/entry_config.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/switch.h"
#include "config.h"
#include "fs/devfs.h"
#include "fs/sysv_sem.h"
#include "cmdline.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/tlb.h"
#include "proc/exec_stack.h"
#include "proc/futex.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/rlimit.h"
#include "proc/ptrace.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/task_alloc.h"
#include "report.h"
#include "sys/errno.h"
#include "sys/region.h"
#include "sys/syscall.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define MAX_ARGS 64
#define ARG_MAX_LEN 256

struct task task_table[TASK_MAX];
unsigned task_slots;
static int last_pid;

/* init's kernel stack, above an unmapped guard page: overflows fault (#DF). */
static uint8_t init_stack_area[PAGE_SIZE + TASK_STACK_SIZE] __page_aligned_bss;

int task_last_pid(void)
{
	return last_pid;
}

uint64_t task_created = 1; /* init */

struct task *task_find(int pid)
{
	unsigned i;

	for (i = 0; i < task_slots && pid > 0; i++)
		if (task_table[i].pid == pid && task_table[i].state != TASK_UNUSED &&
		    task_table[i].state != TASK_DEAD)
			return &task_table[i];
	return 0;
}

static int pid_next(void)
{
	unsigned tries;

	for (tries = 0; tries < PID_MAX; tries++) {
		unsigned i;
		bool used = false;

		last_pid = last_pid >= PID_MAX - 1 ? 2 : last_pid + 1;
		for (i = 0; i < task_slots && !used; i++)
			used = task_table[i].state != TASK_UNUSED &&
			       (task_table[i].pid == last_pid || task_table[i].tgid == last_pid);
		if (!used)
			return last_pid;
	}
	return -1;
}

struct task *task_alloc(void)
{
	unsigned i;
	uint64_t pa;

	for (i = 0; i < TASK_MAX; i++)
		if (task_table[i].state == TASK_UNUSED)
			break;
	if (i == TASK_MAX)
		return 0;
	pa = frame_alloc_order(TASK_STACK_ORDER);
	if (!pa)
		return 0;
	memset(&task_table[i], 0, sizeof(task_table[i]));
	task_table[i].stack_base = (uint64_t)phys_to_virt(pa);
	task_table[i].pid = pid_next();
	task_table[i].start_ns = time_monotonic_ns();
	task_created++;
	task_table[i].state = TASK_BLOCKED_NOINTR; /* not runnable until clone finishes */
	if (i >= task_slots)
		task_slots = i + 1;
	return &task_table[i];
}

#define FILES_ORDER 2
_Static_assert(sizeof(struct files) <= (PAGE_SIZE << FILES_ORDER), "struct files fits");

struct files *files_alloc(void)
{
	uint64_t pa = frame_alloc_order(FILES_ORDER);
	struct files *f;

	if (!pa)
		return 0;
	f = phys_to_virt(pa);
	memset(f, 0, sizeof(*f));
	f->refs = 1;
	return f;
}

void files_free(struct files *f)
{
	frame_free_order(virt_to_phys(f), FILES_ORDER);
}

void task_free(struct task *t)
{
	if (t->stack_base != (uint64_t)init_stack_area + PAGE_SIZE)
		frame_free_order(virt_to_phys((void *)t->stack_base), TASK_STACK_ORDER);
	arch_task_release(t);
	memset(t, 0, sizeof(*t));
	while (task_slots && task_table[task_slots - 1].state == TASK_UNUSED)
		task_slots--;
}

void task_reap_dead(void)
{
	unsigned i;

	for (i = 0; i < task_slots; i++)
		if (task_table[i].state == TASK_DEAD && &task_table[i] != current)
			task_free(&task_table[i]);
}

void task_first_run(struct task *t)
{
	uint32_t tid = (uint32_t)t->pid;

	if (t->set_child_tid && copy_to_user(t->set_child_tid, &tid, sizeof(tid)))
		kprintf("%s[%d]: CLONE_CHILD_SETTID %lx not writable\n", t->comm, t->pid,
			t->set_child_tid);
	t->set_child_tid = 0;
}

void task_stack_init_fork(struct task *t)
{
	/* switch_stacks pops its frame (switch.h), then returns to ret_from_fork. */
	uint64_t *sp = (uint64_t *)task_c_stack_top(t);

	/* The frame page: the user frame (clone filled it) above zeroes only (frame_page.h). */
	memset(sp, 0, FRAME_PAGE_GAP);

	*--sp = (uint64_t)ret_from_fork;
	sp -= SWITCH_FRAME_WORDS;
	memset(sp, 0, SWITCH_FRAME_WORDS * sizeof(*sp));
	t->kernel_rsp = (uint64_t)sp;
}

/* argv[0] = path, then the words after `--` on the command line. */
static unsigned collect_args(const char *path, const char **argv, char (*store)[ARG_MAX_LEN])
{
	const char *p = kernel_cmdline.init_args;
	unsigned argc = 0;
	long len;

	argv[argc++] = kernel_cmdline.argv0[0] ? kernel_cmdline.argv0 : path; /* el.argv0: the VMM's */
	while (p && argc < MAX_ARGS &&
	       (len = el_cmdline_next_arg(&p, store[argc], ARG_MAX_LEN)) != -1) {
		if (len == -2) {
			kprintf("init: argument %u longer than %d bytes, dropped\n", argc,
				ARG_MAX_LEN - 1);
			continue;
		}
		argv[argc] = store[argc];
		argc++;
	}
	if (p && el_cmdline_next_arg(&p, store[0], 1) != -1)
		kprintf("init: more than %d arguments, the rest dropped\n", MAX_ARGS - 1);
	return argc;
}

static void open_console(struct task *p)
{
	int err, fd;
	struct file *f = file_open(dev_console, O_RDWR, &err);

	if (!f)
		panic("cannot open /dev/console (error %d)", err);
	for (fd = 0; fd < 2; fd++) {
		if (fd)
			f->refs++;
		fd_install(&p->files->t, f, fd, false);
	}
	f = file_open(dev_console, O_RDWR, &err);
	if (!f)
		panic("cannot open /dev/console (error %d)", err);
	f->priv = DEVFS_STDERR;
	fd_install(&p->files->t, f, 2, false);
}

void task_set_comm(struct task *p, const char *path)
{
	const char *base = path, *s;

	for (s = path; *s; s++)
		if (*s == '/' && s[1])
			base = s + 1;
	strlcpy(p->comm, base, sizeof(p->comm));
}

void process_run_init(void)
{
	static char store[MAX_ARGS][ARG_MAX_LEN];
	static const char *argv[MAX_ARGS];
	struct task *p = &task_table[0];
	const char *path = kernel_cmdline.init[0] ? kernel_cmdline.init : "/init";
	struct exec_strings strings;
	struct trap_frame *tf;
	struct inode *node;
	unsigned argc;
	int err;

	if (!paging_unmap_kernel_page((uint64_t)init_stack_area))
		kprintf("init: no guard page below the kernel stack\n");
	p->pid = p->tgid = last_pid = INIT_PID;
	p->state = TASK_RUNNABLE;
	p->group_leader = p;
	task_slots = 1;
	jobctl_init(p);
	p->stack_base = (uint64_t)init_stack_area + PAGE_SIZE;
	p->files = files_alloc();
	if (!p->files || signal_task_init(p, 0, 0))
		panic("init: no memory for the file table or the signal actions");
	rlimit_init(p);
	p->cwd = vfs_root;
	p->umask = 022;
	fpu_recheck();
	p->arch.fpu = fpu_state_alloc();
	if (!p->arch.fpu)
		panic("init: no memory for the FPU state");
	strlcpy(p->exe_path, path, sizeof(p->exe_path));
	task_set_comm(p, path);
	current = p;
	err = vfs_lookup(vfs_root, path, true, &node);
	if (err)
		panic("no %s in the initrd (error %d): pack the program as %s or pass init=PATH",
		      path, err, path);
	argc = collect_args(path, argv, store);
	p->frames_at_start = frame_stats.in_use;
	tf = task_user_frame(p);
	strings = (struct exec_strings){argv, argc, exec_init_env, exec_init_envc};
	err = exec_load(p, node, &strings, tf);
	if (err)
		panic("cannot run %s (error %d)", path, err);
	open_console(p);
	percpu_set_kernel_stack(p->stack_base + TASK_STACK_SIZE);
	kprintf("running %s (pid %d)\n", path, p->pid);
	region_whole_begin(); /* el.region=whole: the last thing before user mode */
	enter_user(tf);
}

static void files_put(struct files *f)
{
	if (!f || --f->refs)
		return;
	fd_close_all(&f->t);
	files_free(f);
}

/* The address space goes; the CPU keeps running on the kernel half. */
static void task_release_mm(struct task *t)
{
	struct mm *mm = t->mm;

	if (!mm)
		return;
	t->mm = 0;
	tlb_switch_to(kpaging.pml4_phys);
	mm_put(mm);
}

/* The run is over: init's status (exit code, or 128 + the signal that killed it). */
static __noreturn void run_end(struct task *init, int wstatus)
{
	int sig = wstatus & 0x7f, status = sig ? 128 + sig : (wstatus >> 8) & 0xff;
	unsigned i, alive = 0;

	region_whole_end(); /* el.region=whole: the first thing once init exited */
	for (i = 0; i < task_slots; i++)
		alive += task_table[i].state != TASK_UNUSED && task_table[i].state != TASK_DEAD &&
			 task_table[i].tgid != INIT_PID;
	/* Alone at the end: its address space goes too, and mm_put checks that every frame came back. */
	if (!alive) {
		task_release_mm(init);
		files_put(init->files);
		init->files = 0;
	}
	entry_print_stats();
	kprintf("%s (pid %d) exited with status %d\n", init->comm, init->pid, status);
	if (alive)
		kprintf("init exited with %u other tasks alive: the run ends with it\n", alive);
	report_send_run(region_result(), region_scope(), syscall_unknown_count(), status);
	machine_exit((uint32_t)status);
}


/* A child of the exiting process goes to init (Linux's reaper). */
static void reparent_children(const struct task *dying)
{
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *c = &task_table[i];

		if (c->state == TASK_UNUSED || c->parent != dying)
			continue;
		c->parent = &task_table[0];
		if (c->state == TASK_ZOMBIE)
			wake_up(&task_table[0]);
	}
}

static unsigned group_live_threads(int tgid)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++)
		n += task_table[i].tgid == tgid && task_table[i].state != TASK_UNUSED &&
		     task_table[i].state != TASK_ZOMBIE && task_table[i].state != TASK_DEAD;
	return n;
}

/* The process (its last thread just ended): a zombie for the parent to reap. */
static void process_notify_parent(struct task *leader)
{
	struct task *parent = leader->parent;

	leader->group_dead = true;
	jobctl_exit(leader);
	reparent_children(leader);
	if (leader->exit_signal && parent && parent->sighand) {
		struct ksiginfo info = {
			.signo = SIGCHLD,
			.code = (leader->exit_code & 0x7f) ? 2 /* CLD_KILLED */ : 1 /* CLD_EXITED */,
			.pid = leader->tgid,
			.status = (leader->exit_code & 0x7f) ? (leader->exit_code & 0x7f)
							     : (leader->exit_code >> 8) & 0xff,
		};

		signal_send(parent, SIGCHLD, &info, true);
	}
	if (parent)
		wake_up(parent);
}

void task_exit(int wstatus)
{
	struct task *t = current, *leader = t->group_leader;

	ptrace_exit_event(leader->group_exiting ? leader->exit_code : wstatus);
	futex_release(t);
	if (t->clear_child_tid) {
		uint32_t zero = 0;

		if (!copy_to_user(t->clear_child_tid, &zero, sizeof(zero)))
			futex_wake(t->mm, t->clear_child_tid, 1);
	}
	if (t->vfork_parent) {
		t->vfork_parent = 0;
		wake_up(t);
	}
	ptrace_task_exit(t);
	if (!leader->group_exiting)
		leader->exit_code = wstatus;
	if (t->tgid == INIT_PID && group_live_threads(INIT_PID) == 1)
		run_end(t, leader->exit_code);
	task_release_mm(t);
	files_put(t->files);
	t->files = 0;
	signal_task_release(t);
	acct_thread_exit(t);
	t->state = t == leader ? TASK_ZOMBIE : TASK_DEAD;
	if (group_live_threads(t->tgid) == 0) {
		if (leader->exit_signal == 0 && leader->parent == 0)
			leader->state = TASK_DEAD;
		sem_exit_process(t->tgid);
		process_notify_parent(leader);
	}
	schedule();
	panic("exited task %d scheduled again", t->pid);
}

void task_exit_group(int wstatus)
{
	struct task *t = current, *leader = t->group_leader;
	unsigned i;

	if (!leader->group_exiting) {
		leader->exit_code = wstatus;
		leader->group_exiting = true;
	}
	for (i = 0; i < task_slots; i++) {
		struct task *o = &task_table[i];

		if (o == t || o->tgid != t->tgid || o->state == TASK_UNUSED ||
		    o->state == TASK_ZOMBIE || o->state == TASK_DEAD)
			continue;
		o->group_exiting = true;
		o->work |= TASK_WORK_NOTIFY;
		wake_task(o);
	}
	t->group_exiting = true;
	task_exit(leader->exit_code);
}

void process_exit(int status)
{
	task_exit_group(W_EXITCODE(status, 0));
}

void process_kill(int signo)
{
	if (current->tgid != INIT_PID)
		kprintf("%s (pid %d) killed by signal %d\n", current->comm, current->pid, signo);
	task_exit_group(W_EXITCODE(0, signo));
}
