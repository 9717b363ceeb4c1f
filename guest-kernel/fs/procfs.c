/*
 * /proc/self.  maps is generated on every read from the current areas, so
 * reads at any offset and size see one consistent text as long as the
 * areas do not change in between (as with Linux's seq_file per read).
 */
#include "fs/file.h"
#include "fs/maps_line.h"
#include "fs/procfs.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "vdso/vdso.h"

#define LINE_MAX 384
#define VSYSCALL_ADDR 0xffffffffff600000ull

static struct inode *exe_link;

/* Line i of the maps text (areas, then [vsyscall]); false past the last one. */
static bool maps_line(struct mm *mm, unsigned i, struct maps_line *l, char *name, size_t size)
{
	static const char deleted[] = " (deleted)";
	const struct vma *v;
	long len;

	if (i > mm->vmas.n || (i == mm->vmas.n && !vsyscall_mapped()))
		return false;
	if (i == mm->vmas.n) {
		const char *perms = vsyscall_maps_perms();

		*l = (struct maps_line){VSYSCALL_ADDR, VSYSCALL_ADDR + 4096,
					(perms[0] == 'r' ? MAPS_PROT_R : 0) |
						(perms[1] == 'w' ? MAPS_PROT_W : 0) |
						(perms[2] == 'x' ? MAPS_PROT_X : 0)};
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

static long maps_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct mm *mm = current->mm;
	char line[LINE_MAX], name[LINE_MAX - 80];
	uint64_t pos = 0;
	size_t done = 0;
	struct maps_line l;
	unsigned i;

	(void)f;
	for (i = 0; done < len && maps_line(mm, i, &l, name, sizeof(name)); i++) {
		size_t n = maps_line_format(line, sizeof(line), &l);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		if (pos + n > off) {
			size_t from = off > pos ? off - pos : 0, chunk = n - from;

			if (chunk > len - done)
				chunk = len - done;
			if (copy_to_user(ubuf + done, line + from, chunk))
				return done ? (long)done : -EFAULT;
			done += chunk;
		}
		pos += n;
	}
	return (long)done;
}

static const struct file_ops maps_ops = {.read = maps_read, .seekable = true};

void procfs_set_exe(const char *path)
{
	exe_link->data = (const uint8_t *)path;
	exe_link->size = strlen(path);
}

void procfs_init(struct inode *proc)
{
	struct inode *self = vfs_create(proc, "self", 4, S_IFDIR | 0555);
	struct inode *maps = self ? vfs_create(self, "maps", 4, S_IFREG | 0444) : 0;

	exe_link = self ? vfs_create(self, "exe", 3, S_IFLNK | 0777) : 0;
	if (!maps || !exe_link)
		panic("procfs: out of memory");
	maps->ops = &maps_ops;
	exe_link->data = (const uint8_t *)"";
}
