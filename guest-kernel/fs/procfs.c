/*
 * /proc/self: maps, smaps and status are generated on every read from the
 * current task and its address space, one block at a time (a maps line, an
 * area's smaps entry), so reads at any offset and size see one consistent
 * text as long as nothing changes in between (as with Linux's seq_file per
 * read).  exe is a link to the program.
 */
#include "fs/file.h"
#include "fs/maps_line.h"
#include "fs/procfs.h"
#include "fs/smaps.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "vdso/vdso.h"

#define LINE_MAX 384
#define BLOCK_MAX 1536 /* a maps line and the smaps lines after it */
#define VSYSCALL_ADDR 0xffffffffff600000ull

static struct inode *exe_link;

/*
 * Writes block i of a file's text into buf (NUL-terminated) and returns its
 * length; returns 0 past the last block.
 */
typedef size_t block_fn(struct mm *mm, unsigned i, char *buf, size_t size);

static uint32_t vsyscall_prot(void)
{
	const char *perms = vsyscall_maps_perms();

	return (perms[0] == 'r' ? MAPS_PROT_R : 0) | (perms[1] == 'w' ? MAPS_PROT_W : 0) |
	       (perms[2] == 'x' ? MAPS_PROT_X : 0);
}

/* Line i of the maps text (areas, then [vsyscall]); false past the last one. */
static bool maps_line(struct mm *mm, unsigned i, struct maps_line *l, char *name, size_t size)
{
	static const char deleted[] = " (deleted)";
	const struct vma *v;
	long len;

	if (i > mm->vmas.n || (i == mm->vmas.n && !vsyscall_mapped()))
		return false;
	if (i == mm->vmas.n) {
		*l = (struct maps_line){VSYSCALL_ADDR, VSYSCALL_ADDR + 4096, vsyscall_prot()};
		l->name = "[vsyscall]";
		return true;
	}
	v = &mm->vmas.v[i];
	*l = (struct maps_line){v->start, v->end, v->prot, v->kind == VMA_ANON_SHARED};
	if (v->kind == VMA_FILE) {
		const struct inode *n = v->file;

		l->pgoff = v->pgoff;
		l->major = n->dev >> 8;
		l->minor = n->dev & 0xff;
		l->ino = n->ino;
		len = vfs_path(n, name, size);
		l->name = len >= 0 ? name : 0;
		if (len >= 0 && !n->nlink && (size_t)len + sizeof(deleted) <= size)
			memcpy(name + len, deleted, sizeof(deleted));
	} else if (v->kind == VMA_SPECIAL) {
		l->name = v->name;
	} else if (v->kind == VMA_HEAP) {
		l->name = "[heap]";
	} else if (v->kind == VMA_STACK) {
		l->name = "[stack]";
	}
	return true;
}

static size_t maps_block(struct mm *mm, unsigned i, char *buf, size_t size)
{
	char name[LINE_MAX - 80];
	struct maps_line l;
	size_t n;

	if (!maps_line(mm, i, &l, name, sizeof(name)))
		return 0;
	n = maps_line_format(buf, size, &l);
	return n < size ? n : size - 1;
}

/* An area's maps line, then its smaps lines. */
static size_t smaps_block(struct mm *mm, unsigned i, char *buf, size_t size)
{
	size_t n = maps_block(mm, i, buf, size < LINE_MAX ? size : LINE_MAX);
	struct smaps_counts c;

	if (!n)
		return 0;
	if (i < mm->vmas.n)
		smaps_count_area(mm, &mm->vmas.v[i], &c);
	else
		smaps_count_vsyscall(vsyscall_prot(), &c);
	n += smaps_format(buf + n, size - n, &c);
	return n < size ? n : size - 1;
}

/* Linux's /proc/PID/status, the lines programs look for. */
static size_t status_block(struct mm *mm, unsigned i, char *buf, size_t size)
{
	const struct task *t = current;
	unsigned j, threads = 0;

	(void)mm;
	if (i)
		return 0;
	for (j = 0; j < task_slots; j++)
		threads += task_table[j].tgid == t->tgid && task_table[j].state != TASK_UNUSED &&
			   task_table[j].state != TASK_ZOMBIE && task_table[j].state != TASK_DEAD;
	return ksnprintf(buf, size,
			 "Name:\t%s\nUmask:\t0022\nState:\tR (running)\nTgid:\t%d\nNgid:\t0\n"
			 "Pid:\t%d\nPPid:\t%d\nTracerPid:\t%d\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
			 "VmRSS:\t%8lu kB\nThreads:\t%u\n",
			 t->comm, t->tgid, t->pid, t->parent ? t->parent->tgid : 0,
			 t->tracer ? t->tracer->pid : 0, t->mm ? t->mm->rss * (PAGE_SIZE >> 10) : 0,
			 threads);
}

/* The bytes [off, off + len) of the text fn generates, copied to ubuf. */
static long blocks_read(block_fn *fn, uint64_t ubuf, size_t len, uint64_t off)
{
	struct mm *mm = current->mm;
	char block[BLOCK_MAX];
	uint64_t pos = 0;
	size_t done = 0, n;
	unsigned i;

	for (i = 0; done < len && (n = fn(mm, i, block, sizeof(block))); i++) {
		if (pos + n > off) {
			size_t from = off > pos ? off - pos : 0, chunk = n - from;

			if (chunk > len - done)
				chunk = len - done;
			if (copy_to_user(ubuf + done, block + from, chunk))
				return done ? (long)done : -EFAULT;
			done += chunk;
		}
		pos += n;
	}
	return (long)done;
}

static long maps_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f;
	return blocks_read(maps_block, ubuf, len, off);
}

static long smaps_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f;
	return blocks_read(smaps_block, ubuf, len, off);
}

static long status_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f;
	return blocks_read(status_block, ubuf, len, off);
}

static const struct file_ops maps_ops = {.read = maps_read, .seekable = true};
static const struct file_ops smaps_ops = {.read = smaps_read, .seekable = true};
static const struct file_ops status_ops = {.read = status_read, .seekable = true};

void procfs_set_exe(const char *path)
{
	exe_link->data = (const uint8_t *)path;
	exe_link->size = strlen(path);
}

static void create_file(struct inode *dir, const char *name, const struct file_ops *ops)
{
	struct inode *n = dir ? vfs_create(dir, name, strlen(name), S_IFREG | 0444) : 0;

	if (!n)
		panic("procfs: out of memory");
	n->ops = ops;
}

void procfs_init(struct inode *proc)
{
	struct inode *self = vfs_create(proc, "self", 4, S_IFDIR | 0555);

	create_file(self, "maps", &maps_ops);
	create_file(self, "smaps", &smaps_ops);
	create_file(self, "status", &status_ops);
	exe_link = self ? vfs_create(self, "exe", 3, S_IFLNK | 0777) : 0;
	if (!exe_link)
		panic("procfs: out of memory");
	exe_link->data = (const uint8_t *)"";
}
