/*
 * Unpacking the initrd.  File data stays where the loader put it (module
 * memory is reserved from the frame allocator): a node points into it.
 * Parent directories are created as needed; an entry whose name exists
 * already (e.g. /dev/console, /tmp) keeps the existing node, like Linux's
 * initramfs over its built-in root.
 */
#include "boot/bootinfo.h"
#include "fs/cpio_parse.h"
#include "fs/initrd.h"
#include "fs/vfs.h"
#include "lib/kprintf.h"
#include "mm/layout.h"

static unsigned nr_files, nr_skipped;

/* The directory that will hold the last component of name, creating the path to it. */
static struct inode *make_parents(const char *name, size_t len, size_t *last)
{
	struct inode *dir = vfs_root;
	size_t i = 0;

	for (;;) {
		size_t n = 0;
		struct inode *next;

		while (i < len && name[i] == '/')
			i++;
		while (i + n < len && name[i + n] != '/')
			n++;
		if (i + n >= len) {
			*last = i;
			return dir;
		}
		if (n == 1 && name[i] == '.') { /* "./init" from `find . | cpio` */
			i++;
			continue;
		}
		next = vfs_child(dir, name + i, n);
		if (!next)
			next = vfs_create(dir, name + i, n, S_IFDIR | 0755);
		if (!next || !S_ISDIR(next->mode))
			return 0;
		dir = next;
		i += n;
	}
}

static void add_entry(const struct cpio_entry *e)
{
	uint32_t type = e->mode & S_IFMT;
	size_t last;
	struct inode *dir, *n;

	if (type != S_IFDIR && type != S_IFREG && type != S_IFLNK) {
		nr_skipped++; /* device nodes, fifos: /dev is the kernel's */
		return;
	}
	dir = make_parents(e->name, e->namelen, &last);
	if (!dir || last >= e->namelen || e->namelen - last > NAME_MAX ||
	    (e->namelen - last == 1 && e->name[last] == '.') ||
	    (e->namelen - last == 2 && e->name[last] == '.' && e->name[last + 1] == '.')) {
		if (!(e->namelen == 1 && e->name[0] == '.'))
			nr_skipped++;
		return;
	}
	n = vfs_child(dir, e->name + last, e->namelen - last);
	if (n) {
		nr_skipped += !S_ISDIR(n->mode) || type != S_IFDIR;
		return;
	}
	n = vfs_create(dir, e->name + last, e->namelen - last, e->mode);
	if (!n) {
		nr_skipped++;
		return;
	}
	n->mtime_ns = (uint64_t)e->mtime * 1000000000ull;
	if (type != S_IFDIR) {
		n->data = e->data;
		n->size = e->size;
		n->ops = type == S_IFREG ? &regfile_initrd_ops : 0;
		nr_files++;
	}
}

bool initrd_unpack(void)
{
	const struct boot_module *m = &boot_info.modules[0];
	const uint8_t *buf;
	size_t off = 0;
	struct cpio_entry e;
	enum cpio_status st;

	if (!boot_info.nr_modules || !m->size)
		return false;
	buf = phys_to_virt(m->paddr);
	for (;;) {
		st = cpio_next(buf, m->size, &off, &e);
		if (st == CPIO_OK) {
			add_entry(&e);
			continue;
		}
		if (st == CPIO_END && cpio_skip_padding(buf, m->size, &off))
			continue;
		break;
	}
	if (st != CPIO_END) {
		kprintf("initrd: %lu bytes at 0x%lx: entry at offset %zu: %s\n", m->size, m->paddr,
			off, cpio_strerror(st));
		return nr_files > 0;
	}
	kprintf("initrd: %u files%s", nr_files, nr_skipped ? ", " : "\n");
	if (nr_skipped)
		kprintf("%u entries skipped (device nodes, duplicates, bad names)\n", nr_skipped);
	return true;
}
