/*
 * /proc's tree (procfs.h, procfs_priv.h): the root lists its fixed files,
 * then a directory per live process in pid order; /proc/PID/task lists the
 * process's threads.  Directories are made at the first lookup and kept as
 * name holders: what a file shows comes from the task its pid names when it
 * is opened, so a directory whose task is gone shows nothing, and it is
 * unlinked at the next look at its parent (not while it is some task's
 * working directory; an open file keeps its node, vfs_release frees it at
 * the last close).  Pids are not reused before the counter wraps at 32768.
 */
#include "fs/procfs.h"
#include "fs/procfs_priv.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"

#define SNAPSHOT_ORDER 2 /* 16 KiB: environ and cmdline fit EXEC_STRING_SPACE */

static const struct file_ops proc_root_dir_ops, proc_task_dir_ops;

/* ---- text snapshots ---------------------------------------------------- */

static void pb_sink(void *ctx, char c)
{
	struct pbuf *b = ctx;

	if (b->len < b->cap)
		b->p[b->len] = c;
	b->len++;
}

void pb_printf(struct pbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvformat(pb_sink, b, fmt, ap);
	va_end(ap);
}

void pb_bytes(struct pbuf *b, const void *data, size_t len)
{
	const char *s = data;

	for (size_t i = 0; i < len; i++)
		pb_sink(b, s[i]);
}

struct snapshot {
	char *text;
	size_t len;
};

int proc_snapshot_open(struct file *f, proc_gen *gen)
{
	int pid = proc_node_pid(f->inode);
	struct task *t = pid ? task_find(pid) : current;
	uint64_t pa;
	struct pbuf b;
	int err;

	if (!t)
		return -ENOENT;
	pa = frame_alloc_order(SNAPSHOT_ORDER);
	if (!pa)
		return -ENOMEM;
	b = (struct pbuf){phys_to_virt(pa), 0, PAGE_SIZE << SNAPSHOT_ORDER};
	err = gen(&b, t, f->inode);
	if (!err && b.len > b.cap)
		err = -ENOMEM; /* a text longer than the buffer: refused, not cut */
	if (!err) {
		struct snapshot *s = (struct snapshot *)(b.p + b.cap) - 1;

		if (b.len > b.cap - sizeof(*s))
			err = -ENOMEM;
		else {
			*s = (struct snapshot){b.p, b.len};
			f->priv = s;
			return 0;
		}
	}
	frame_free_order(pa, SNAPSHOT_ORDER);
	return err;
}

long proc_snapshot_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	const struct snapshot *s = f->priv;

	if (off >= s->len)
		return 0;
	if (len > s->len - off)
		len = s->len - off;
	return copy_to_user(ubuf, s->text + off, len) ?: (long)len;
}

void proc_snapshot_release(struct file *f)
{
	const struct snapshot *s = f->priv;

	if (s)
		frame_free_order(virt_to_phys(s->text), SNAPSHOT_ORDER);
}

/* ---- nodes ------------------------------------------------------------- */

long proc_parse_num(const char *name, size_t len)
{
	long n = 0;

	if (!len || len > 9 || (name[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		n = n * 10 + (name[i] - '0');
	}
	return n;
}

int proc_node_pid(const struct inode *n)
{
	const struct inode *d;

	for (d = n->parent; d && d->parent != d; d = d->parent) {
		long pid = proc_parse_num(d->name, d->namelen);

		if (pid > 0)
			return (int)pid;
	}
	return 0;
}

struct task *proc_node_task(const struct inode *n)
{
	int pid = proc_node_pid(n);

	return pid ? task_find(pid) : 0;
}

struct inode *proc_create(struct inode *dir, const char *name, size_t len, uint32_t mode,
			  const struct file_ops *ops)
{
	struct inode *n = vfs_create(dir, name, len, mode);

	if (n)
		n->ops = ops;
	return n;
}

struct inode *proc_num_child(struct inode *dir, unsigned long num, uint32_t mode,
			     const struct file_ops *ops)
{
	char name[24];
	size_t len = ksnprintf(name, sizeof(name), "%lu", num);
	struct inode *n = vfs_child(dir, name, len);

	return n ? n : proc_create(dir, name, len, mode, ops);
}

/* Some task works in node or below it. */
static bool holds_cwd(const struct inode *node)
{
	for (unsigned i = 0; i < task_slots; i++) {
		const struct inode *n = task_table[i].cwd;

		if (task_table[i].state == TASK_UNUSED || !n)
			continue;
		for (; n->parent != n; n = n->parent)
			if (n == node)
				return true;
	}
	return false;
}

/* Unlinks node and everything below it (vfs_release frees what no file holds open). */
static void proc_remove(struct inode *node)
{
	while (node->children)
		proc_remove(node->children);
	vfs_unlink(node);
}

/* Unlinks dir's numeric children for which gone(dir, number) holds. */
static void sweep(struct inode *dir, bool (*gone)(const struct inode *dir, long n))
{
	struct inode *c = dir->children, *next;

	for (; c; c = next) {
		long n = proc_parse_num(c->name, c->namelen);

		next = c->next;
		if (n >= 0 && gone(dir, n) && !holds_cwd(c))
			proc_remove(c);
	}
}

/* ---- /proc/PID and /proc/PID/task/TID ---------------------------------- */

struct entry {
	const char *name;
	uint32_t mode;
	const struct file_ops *ops;
	bool process_only; /* not in task/TID */
};

static const struct entry pid_entries[] = {
	{"cmdline", S_IFREG | 0444, &proc_cmdline_ops, false},
	{"comm", S_IFREG | 0644, &proc_comm_ops, false},
	{"cwd", S_IFLNK | 0777, &proc_cwd_ops, false},
	{"environ", S_IFREG | 0400, &proc_environ_ops, false},
	{"exe", S_IFLNK | 0777, &proc_exe_ops, false},
	{"fd", S_IFDIR | 0500, &proc_fd_dir_ops, false},
	{"fdinfo", S_IFDIR | 0500, &proc_fdinfo_dir_ops, false},
	{"maps", S_IFREG | 0444, &proc_maps_ops, false},
	{"mounts", S_IFREG | 0444, &proc_mounts_ops, false},
	{"root", S_IFLNK | 0777, &proc_root_ops, false},
	{"smaps", S_IFREG | 0444, &proc_smaps_ops, false},
	{"stat", S_IFREG | 0444, &proc_stat_ops, false},
	{"statm", S_IFREG | 0444, &proc_statm_ops, false},
	{"status", S_IFREG | 0444, &proc_status_ops, false},
	{"task", S_IFDIR | 0555, &proc_task_dir_ops, true},
};

/* dir's directory for task id n, with its entries; NULL when out of memory. */
static struct inode *task_dir(struct inode *dir, long n, bool process)
{
	char name[24];
	size_t len = ksnprintf(name, sizeof(name), "%ld", n);
	struct inode *d = vfs_child(dir, name, len);
	unsigned i;

	if (d)
		return d;
	d = proc_create(dir, name, len, S_IFDIR | 0555, 0);
	/* Listed in reverse: vfs_create puts a new child first. */
	for (i = ARRAY_SIZE(pid_entries); d && i-- > 0;) {
		const struct entry *e = &pid_entries[i];

		if ((process || !e->process_only) &&
		    !proc_create(d, e->name, strlen(e->name), e->mode, e->ops)) {
			proc_remove(d);
			return 0;
		}
	}
	return d;
}

static bool task_alive(const struct task *t)
{
	return t->state != TASK_UNUSED && t->state != TASK_DEAD;
}

/*
 * The n-th smallest id (from 0) among live tasks: process leaders when
 * group is 0, else the threads of process group; -1 past the last.
 */
static long nth_id(int group, uint64_t n)
{
	long prev = 0;

	for (uint64_t k = 0;; k++) {
		long best = -1;

		for (unsigned i = 0; i < task_slots; i++) {
			const struct task *t = &task_table[i];

			if (!task_alive(t) || t->pid <= prev ||
			    (group ? t->tgid != group : t->pid != t->tgid))
				continue;
			if (best < 0 || t->pid < best)
				best = t->pid;
		}
		if (best < 0 || k == n)
			return best;
		prev = best;
	}
}

static bool pid_gone(const struct inode *dir, long n)
{
	(void)dir;
	return !task_find((int)n);
}

static bool tid_gone(const struct inode *dir, long n)
{
	const struct task *t = task_find((int)n);

	return !t || t->tgid != proc_node_pid(dir);
}

/* ---- the root ---------------------------------------------------------- */

static struct inode *root_lookup(struct inode *dir, const char *name, size_t len)
{
	long pid = proc_parse_num(name, len);

	if (pid < 0)
		return vfs_child(dir, name, len);
	sweep(dir, pid_gone);
	/* Linux finds threads by tid too (unlisted): /proc/TID is the thread's process view. */
	return task_find((int)pid) ? task_dir(dir, pid, true) : 0;
}

static struct inode *root_entry(struct inode *dir, uint64_t i)
{
	struct inode *c;
	long pid;

	for (c = dir->children; c; c = c->next)
		if (proc_parse_num(c->name, c->namelen) < 0 && !i--)
			return c;
	sweep(dir, pid_gone);
	pid = nth_id(0, i);
	return pid < 0 ? 0 : task_dir(dir, pid, true);
}

static const struct file_ops proc_root_dir_ops = {.lookup = root_lookup, .entry = root_entry};

/* ---- /proc/PID/task ---------------------------------------------------- */

static struct inode *task_lookup(struct inode *dir, const char *name, size_t len)
{
	long tid = proc_parse_num(name, len);
	const struct task *t = tid > 0 ? task_find((int)tid) : 0;

	sweep(dir, tid_gone);
	return t && t->tgid == proc_node_pid(dir) ? task_dir(dir, tid, false) : 0;
}

static struct inode *task_entry(struct inode *dir, uint64_t i)
{
	int pid = proc_node_pid(dir);
	long tid;

	sweep(dir, tid_gone);
	tid = pid ? nth_id(pid, i) : -1;
	return tid < 0 ? 0 : task_dir(dir, tid, false);
}

static const struct file_ops proc_task_dir_ops = {.lookup = task_lookup, .entry = task_entry};

/* ---- self, thread-self --------------------------------------------------- */

static long self_readlink(struct inode *link, char *buf, size_t size)
{
	size_t n = ksnprintf(buf, size, "%d", current->tgid);

	(void)link;
	return n < size ? (long)n : -ENAMETOOLONG;
}

static long thread_self_readlink(struct inode *link, char *buf, size_t size)
{
	size_t n = ksnprintf(buf, size, "%d/task/%d", current->tgid, current->pid);

	(void)link;
	return n < size ? (long)n : -ENAMETOOLONG;
}

static const struct file_ops self_ops = {.readlink = self_readlink};
static const struct file_ops thread_self_ops = {.readlink = thread_self_readlink};

void procfs_init(struct inode *proc)
{
	proc->ops = &proc_root_dir_ops;
	if (!proc_create(proc, "self", 4, S_IFLNK | 0777, &self_ops) ||
	    !proc_create(proc, "thread-self", 11, S_IFLNK | 0777, &thread_self_ops))
		panic("procfs: out of memory");
	procfs_sys_init(proc);
}
