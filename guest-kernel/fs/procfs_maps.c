/*
 * /proc/PID/maps and smaps: the areas of the process's address space in
 * Linux's format, generated on every read one block at a time (a maps line,
 * an area's smaps entry), so reads at any offset and size see one
 * consistent text as long as nothing changes in between (as with Linux's
 * seq_file per read).  The open file keeps the pid; once the process is
 * gone (or a zombie, without an address space) the text is empty.
 */
#include "fs/maps_line.h"
#include "fs/procfs_priv.h"
#include "fs/smaps.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "vdso/vdso.h"
#include "vsyscall/vsyscall.h"

#define LINE_MAX      384
#define BLOCK_MAX     1536 /* a maps line and the smaps lines after it */

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
	*l = (struct maps_line){v->start, v->end, v->prot,
			       v->kind == VMA_ANON_SHARED || v->kind == VMA_FILE_SHARED};
	if (vma_has_file(v)) {
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

/* The bytes [off, off + len) of the text fn generates for f's process, copied to ubuf. */
static long blocks_read(struct file *f, block_fn *fn, uint64_t ubuf, size_t len, uint64_t off)
{
	const struct task *t = task_find((int)(uintptr_t)f->priv);
	struct mm *mm = t ? t->mm : 0;
	char block[BLOCK_MAX];
	uint64_t pos = 0;
	size_t done = 0, n;
	unsigned i;

	for (i = 0; mm && done < len && (n = fn(mm, i, block, sizeof(block))); i++) {
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

static int areas_open(struct file *f)
{
	int pid = proc_node_pid(f->inode);

	if (!task_find(pid))
		return -ENOENT;
	f->priv = (void *)(uintptr_t)pid;
	return 0;
}

static long maps_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	return blocks_read(f, maps_block, ubuf, len, off);
}

static long smaps_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	return blocks_read(f, smaps_block, ubuf, len, off);
}

const struct file_ops proc_maps_ops = {.open = areas_open, .read = maps_read, .seekable = true};
const struct file_ops proc_smaps_ops = {.open = areas_open, .read = smaps_read, .seekable = true};
