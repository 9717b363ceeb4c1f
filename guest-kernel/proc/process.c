/*
 * Starting init and ending it.  The exit ends the run: the address space is
 * torn down (and checked for leaked frames), the RUN report goes to the VMM,
 * and the exit status to the exit port.
 */
#include "arch/x86_64/entry_config.h"
#include "arch/x86_64/percpu.h"
#include "config.h"
#include "fs/devfs.h"
#include "lib/cmdline.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/tlb.h"
#include "proc/process.h"
#include "report.h"
#include "sys/region.h"
#include "sys/syscall.h"

#define TASK_STACK_SIZE 16384
#define MAX_ARGS 64
#define ARG_MAX_LEN 256

static struct process init_process;
struct process *current;

/* The kernel stack of the process, above an unmapped guard page: overflows fault (#DF). */
static uint8_t task_stack_area[PAGE_SIZE + TASK_STACK_SIZE] __page_aligned_bss;
static uint8_t *const task_stack = task_stack_area + PAGE_SIZE;

/* argv[0] = path, then the words after `--` on the command line. */
static unsigned collect_args(const char *path, const char **argv, char (*store)[ARG_MAX_LEN])
{
	const char *p = kernel_cmdline.init_args;
	unsigned argc = 0;
	long len;

	argv[argc++] = path;
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

static void open_console(struct process *p)
{
	int err, fd;
	struct file *f = file_open(dev_console, O_RDWR, &err);

	if (!f)
		panic("cannot open /dev/console (error %d)", err);
	for (fd = 0; fd < 2; fd++) {
		if (fd)
			f->refs++;
		fd_install(&p->files, f, fd, false);
	}
	f = file_open(dev_console, O_RDWR, &err);
	if (!f)
		panic("cannot open /dev/console (error %d)", err);
	f->priv = DEVFS_STDERR;
	fd_install(&p->files, f, 2, false);
}

static void set_comm(struct process *p, const char *path)
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
	struct process *p = &init_process;
	const char *path = kernel_cmdline.init[0] ? kernel_cmdline.init : "/init";
	struct trap_frame *tf;
	struct inode *node;
	unsigned argc;
	int err;

	if (!paging_unmap_kernel_page((uint64_t)task_stack_area))
		kprintf("init: no guard page below the kernel stack\n");
	p->pid = INIT_PID;
	p->cwd = vfs_root;
	strlcpy(p->exe_path, path, sizeof(p->exe_path));
	set_comm(p, path);
	current = p;
	err = vfs_lookup(vfs_root, path, true, &node);
	if (err)
		panic("no %s in the initrd (error %d): pack the program as %s or pass init=PATH",
		      path, err, path);
	argc = collect_args(path, argv, store);
	p->frames_at_start = frame_stats.in_use;
	tf = (struct trap_frame *)(task_stack + TASK_STACK_SIZE) - 1;
	err = exec_load(p, node, argv, argc, tf);
	if (err)
		panic("cannot run %s (error %d)", path, err);
	open_console(p);
	percpu_set_kernel_stack((uint64_t)(task_stack + TASK_STACK_SIZE));
	kprintf("running %s (pid %d)\n", path, p->pid);
	enter_user(tf);
}

/* Frees the address space; says so when frames were not all returned. */
static void teardown(struct process *p)
{
	uint64_t owned = p->mm.rss + p->mm.table_pages + 2, before;

	fd_close_all(&p->files);
	before = frame_stats.in_use;
	tlb_switch_to(kpaging.pml4_phys);
	mm_destroy(&p->mm);
	if (before - frame_stats.in_use != owned)
		kprintf("mm: %s freed %lu frames, but its pages and tables were %lu\n", p->comm,
			before - frame_stats.in_use, owned);
}

void process_exit(int status)
{
	struct process *p = current;

	status &= 0xff;
	teardown(p);
	entry_print_stats();
	kprintf("%s (pid %d) exited with status %d\n", p->comm, p->pid, status);
	report_send_run(region_result(), syscall_unknown_count(), status);
	machine_exit((uint32_t)status);
}

void process_kill(int signo)
{
	struct process *p = current;

	kprintf("%s (pid %d) killed by signal %d\n", p->comm, p->pid, signo);
	process_exit(128 + signo);
}
