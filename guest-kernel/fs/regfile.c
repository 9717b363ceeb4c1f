/*
 * Regular files.  Initrd files are their bytes in the module (read-only,
 * contiguous); /tmp files keep up to REGFILE_MAX_PAGES pages listed in one
 * frame (2 MiB; -EFBIG beyond), holes read as zeros.
 */
#include "fs/file.h"
#include "fs/vfs.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define REGFILE_MAX_PAGES (PAGE_SIZE / sizeof(uint64_t))
#define REGFILE_MAX_SIZE (REGFILE_MAX_PAGES * PAGE_SIZE)

/*
 * Kernel address of the file byte at off and how many bytes follow it
 * contiguously (at most to the end of the file); NULL for a hole.
 */
static const uint8_t *data_at(const struct inode *n, uint64_t off, size_t *avail)
{
	uint64_t pa;

	*avail = n->size - off;
	if (n->data)
		return n->data + off;
	if (*avail > PAGE_SIZE - off % PAGE_SIZE)
		*avail = PAGE_SIZE - off % PAGE_SIZE;
	pa = n->pages ? n->pages[off / PAGE_SIZE] : 0;
	return pa ? (const uint8_t *)phys_to_virt(pa) + off % PAGE_SIZE : 0;
}

static long regfile_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	const struct inode *n = f->inode;
	size_t done = 0;

	if (off >= n->size)
		return 0;
	if (len > n->size - off)
		len = n->size - off;
	while (done < len) {
		size_t avail;
		const uint8_t *src = data_at(n, off + done, &avail);
		int err;

		if (avail > len - done)
			avail = len - done;
		err = src ? copy_to_user(ubuf + done, src, avail) : clear_user(ubuf + done, avail);
		if (err)
			return done ? (long)done : err;
		done += avail;
	}
	return (long)done;
}

/* The frame backing the page of a /tmp file at off, allocated zeroed if absent. */
static uint8_t *tmp_page(struct inode *n, uint64_t off)
{
	uint64_t *slot;

	if (!n->pages) {
		uint64_t pa = frame_alloc_zeroed();

		if (!pa)
			return 0;
		n->pages = phys_to_virt(pa);
	}
	slot = &n->pages[off / PAGE_SIZE];
	if (!*slot)
		*slot = frame_alloc_zeroed();
	return *slot ? (uint8_t *)phys_to_virt(*slot) + off % PAGE_SIZE : 0;
}

static long tmp_write(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct inode *n = f->inode;
	size_t done = 0;
	int err = 0;

	if (off >= REGFILE_MAX_SIZE)
		return len ? -EFBIG : 0;
	if (len > REGFILE_MAX_SIZE - off)
		len = REGFILE_MAX_SIZE - off;
	while (done < len) {
		uint64_t pos = off + done;
		size_t chunk = PAGE_SIZE - pos % PAGE_SIZE;
		uint8_t *dst = tmp_page(n, pos);

		if (!dst) {
			err = -ENOSPC;
			break;
		}
		if (chunk > len - done)
			chunk = len - done;
		err = copy_from_user(dst, ubuf + done, chunk);
		if (err)
			break;
		done += chunk;
		if (pos + chunk > n->size)
			n->size = pos + chunk;
	}
	if (done)
		vfs_touch(n, true);
	return done ? (long)done : err;
}

int regfile_truncate(struct inode *n, uint64_t size)
{
	uint64_t keep = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE, i;
	bool mapped = mm_maps_file(n);

	if (size > REGFILE_MAX_SIZE)
		return -EFBIG;
	if (n->pages) {
		for (i = keep; i < REGFILE_MAX_PAGES; i++) {
			if (n->pages[i] && mapped) {
				memset(phys_to_virt(n->pages[i]), 0, PAGE_SIZE);
				continue;
			}
			if (n->pages[i])
				frame_free(n->pages[i]);
			n->pages[i] = 0;
		}
		/* The kept part of a cut page must read as zeros if the file grows again. */
		if (size % PAGE_SIZE && n->pages[size / PAGE_SIZE]) {
			uint8_t *page = phys_to_virt(n->pages[size / PAGE_SIZE]);

			memset(page + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
		}
		if (!size && !mapped) {
			frame_free(virt_to_phys(n->pages));
			n->pages = 0;
		}
	}
	n->size = size;
	vfs_touch(n, true);
	return 0;
}

void vfs_fill_page(const void *inode, uint64_t off, uint64_t limit, void *dst)
{
	const struct inode *n = inode;
	uint64_t end = limit < n->size ? limit : n->size;
	size_t done = 0;

	while (done < PAGE_SIZE && off + done < end) {
		size_t avail;
		const uint8_t *src = data_at(n, off + done, &avail);

		if (avail > PAGE_SIZE - done)
			avail = PAGE_SIZE - done;
		if (avail > end - (off + done))
			avail = end - (off + done);
		if (src)
			memcpy((uint8_t *)dst + done, src, avail);
		else
			memset((uint8_t *)dst + done, 0, avail);
		done += avail;
	}
	memset((uint8_t *)dst + done, 0, PAGE_SIZE - done);
}

const struct file_ops regfile_initrd_ops = {
	.read = regfile_read,
	.seekable = true,
};

const struct file_ops regfile_tmp_ops = {
	.read = regfile_read,
	.write = tmp_write,
	.seekable = true,
};

uint64_t regfile_page(struct inode *n, uint64_t off)
{
	uint8_t *p = off < REGFILE_MAX_SIZE ? tmp_page(n, off) : 0;

	return p ? virt_to_phys(p - off % PAGE_SIZE) : 0;
}
