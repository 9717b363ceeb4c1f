/*
 * mmap, munmap, mprotect, brk, madvise, msync with Linux's argument checks
 * and error codes.  MAP_SHARED of a /tmp (or /dev/shm) file maps the file's
 * own pages, so every mapping, read and write sees one copy; other file
 * mappings are private copies taken at fault time (MAP_SHARED of the
 * read-only initrd is accepted read-only: nothing can change the file).
 */
#include "fs/file.h"
#include "mm/mm.h"
#include "mm/mman.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

#define PROT_MASK (VMA_R | VMA_W | VMA_X)
#define PROT_GROWSDOWN 0x01000000u
#define PROT_GROWSUP 0x02000000u
#define MADV_DONTNEED 4
#define MADV_FREE 8

static bool page_aligned(uint64_t x)
{
	return !(x & (PAGE_SIZE - 1));
}

/* The area a file mapping gets, or -errno: readable regular files only. */
static long file_vma(uint64_t fd, uint32_t prot, uint32_t type, uint64_t off, struct vma *v)
{
	struct file *f = fd_get((int)fd);

	if (!f)
		return -EBADF;
	if (f->inode->ops == &regfile_tmp_ops && type == MAP_SHARED) {
		if (!file_readable(f) || ((prot & VMA_W) && !file_writable(f)))
			return -EACCES;
		if ((f->flags & O_APPEND) && (prot & VMA_W))
			return -EACCES;
		v->kind = VMA_FILE_SHARED;
		v->file = f->inode;
		v->pgoff = off;
		v->file_end = UINT64_MAX;
		return 0;
	}
	if (f->inode->ops == &regfile_initrd_ops || f->inode->ops == &regfile_tmp_ops) {
		if (!file_readable(f) || (type != MAP_PRIVATE && (prot & VMA_W)))
			return -EACCES;
		v->kind = VMA_FILE;
		v->file = f->inode;
		v->pgoff = off;
		v->file_end = UINT64_MAX;
		return 0;
	}
	/* /dev/zero maps as anonymous memory, as on Linux. */
	if (S_ISCHR(f->inode->mode) && f->inode->rdev == 0x105) {
		v->kind = type == MAP_PRIVATE ? VMA_ANON : VMA_ANON_SHARED;
		return 0;
	}
	return -ENODEV;
}

SYSCALL_DEFINE6(mmap, uint64_t, addr, uint64_t, len, uint32_t, prot, uint32_t, flags, uint64_t, fd,
		uint64_t, off)
{
	uint64_t end;
	uint32_t type = flags & MAP_TYPE;
	struct vma v = {.prot = prot & PROT_MASK};
	struct mm *mm = current->mm;
	long err;

	if (!page_aligned(off))
		return -EINVAL;
	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (type == MAP_SHARED_VALIDATE)
		type = MAP_SHARED;
	if (!len || (flags & MAP_HUGETLB))
		return -EINVAL;
	if (len > TASK_SIZE_MAX)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (flags & MAP_ANONYMOUS) {
		v.kind = type == MAP_PRIVATE ? VMA_ANON : VMA_ANON_SHARED;
	} else {
		if (off + len < off)
			return -EOVERFLOW;
		err = file_vma(fd, v.prot, type, off, &v);
		if (err)
			return err;
	}
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (!page_aligned(addr))
			return -EINVAL;
		if (!user_range_ok(addr, len) || addr < MMAP_MIN_ADDR ||
		    addr + len > mm_task_size(mm))
			return -ENOMEM;
		if (!vma_range_free(&mm->vmas, addr, addr + len)) {
			if (!(flags & MAP_FIXED))
				return -EEXIST;
			err = mm_unmap(mm, addr, addr + len);
			if (err)
				return err;
		}
	} else {
		addr = ALIGN_DOWN(addr, PAGE_SIZE);
		if (!addr || addr < MMAP_MIN_ADDR || !user_range_ok(addr, len) ||
		    addr + len > mm_task_size(mm) ||
		    !vma_range_free(&mm->vmas, addr, addr + len))
			addr = (flags & MAP_32BIT) && !mm->ia32
				       /* Linux: top-down inside [1 GiB, 2 GiB) */
				       ? vma_gap_topdown(&mm->vmas, len, 0x40000000ull, 0x80000000ull)
				       : mm_find_free(mm, len);
		if (!addr)
			return -ENOMEM;
	}
	end = addr + len;
	v.start = addr;
	v.end = end;
	err = mm_map(mm, &v);
	return err ? err : (long)addr;
}

SYSCALL_DEFINE2(munmap, uint64_t, addr, uint64_t, len)
{
	if (!page_aligned(addr) || !len || len > TASK_SIZE_MAX)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!user_range_ok(addr, len))
		return -EINVAL;
	return mm_unmap(current->mm, addr, addr + len);
}

SYSCALL_DEFINE3(mprotect, uint64_t, start, uint64_t, len, uint32_t, prot)
{
	if (!page_aligned(start) || (prot & ~(PROT_MASK | PROT_GROWSDOWN | PROT_GROWSUP)))
		return -EINVAL;
	if (!len)
		return 0;
	if (len > TASK_SIZE_MAX)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!user_range_ok(start, len))
		return -ENOMEM;
	return mm_protect(current->mm, start, start + len, prot & PROT_MASK);
}

/* Linux's brk: returns the new break, or the old one when it cannot move. */
SYSCALL_DEFINE1(brk, uint64_t, brk)
{
	struct mm *mm = current->mm;
	uint64_t old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end;

	if (brk < mm->start_brk || brk > mm_stack_top(mm) - STACK_LIMIT)
		return (long)mm->brk;
	new_end = ALIGN_UP(brk, PAGE_SIZE);
	if (new_end < old_end && mm_unmap(mm, new_end, old_end))
		return (long)mm->brk;
	if (new_end > old_end) {
		struct vma heap = {.start = old_end, .end = new_end, .prot = VMA_R | VMA_W,
				   .kind = VMA_HEAP};

		if (mm_map(mm, &heap))
			return (long)mm->brk;
	}
	mm->brk = brk;
	return (long)brk;
}

SYSCALL_DEFINE3(madvise, uint64_t, start, uint64_t, len, uint64_t, advice)
{
	if (!page_aligned(start) || len > TASK_SIZE_MAX)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!user_range_ok(start, len))
		return -EINVAL;
	if (advice == MADV_DONTNEED || advice == MADV_FREE) {
		/* Dropping the pages is what both allow: the next touch sees zeros or the file. */
		upt_unmap(current->mm, start, start + len);
		tlb_flush_user_range(start, start + len);
	}
	return 0;
}

SYSCALL_DEFINE1(msync, uint64_t, start)
{
	return page_aligned(start) ? 0 : -EINVAL;
}
