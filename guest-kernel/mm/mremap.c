/*
 * mremap(2) with Linux's rules (mm/mremap.c there):
 *   checks     flags other than MAYMOVE|FIXED|DONTUNMAP, an unaligned addr or
 *              new_addr, a zero new_len, FIXED or DONTUNMAP without MAYMOVE,
 *              DONTUNMAP with a size change: EINVAL; no area at addr, or
 *              [addr, addr + old_len) beyond its area: EFAULT
 *   same size  addr (nothing moves unless FIXED/DONTUNMAP)
 *   shrink     the tail is unmapped
 *   grow       in place when the range ends its area and the gap above is
 *              free; else moved with MAYMOVE, else ENOMEM
 *   move       page-table entries move (upt_move), the data stays where it
 *              is; FIXED unmaps the target first; DONTUNMAP leaves the old
 *              range mapped and empty.
 * Special areas ([vdso], [vvar]) move only whole and never grow (Linux's
 * VM_DONTEXPAND: EFAULT; a split: EINVAL).  The [vdso] area takes
 * mm->vdso_base with it, as Linux's vdso_mremap updates context.vdso: the
 * SYSRET trampoline (exit_sysret.c) is found there.  [vvar] moves whole as
 * on Linux (vvar_mremap only checks the size), the vDSO then reads its data
 * at the old place, as it would on Linux.
 * old_len 0 ("duplicate a shared mapping") is refused with EINVAL for every
 * area: Linux refuses it for private ones, shared ones are not duplicated here.
 */
#include "mm/mm.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

#define MREMAP_MAYMOVE 1u
#define MREMAP_FIXED 2u
#define MREMAP_DONTUNMAP 4u

struct remap {
	uint64_t addr, old_len, new_len, new_addr;
	uint32_t flags;
};

/* PAGE_ALIGN as Linux's: a length within a page of the top wraps to 0. */
static uint64_t page_align(uint64_t len)
{
	return (len + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
}

/* Linux's remap_is_valid for the area at r->addr. */
static long remap_valid(struct mm *mm, const struct remap *r)
{
	int i = vma_find(&mm->vmas, r->addr);
	const struct vma *v;

	if (i < 0)
		return -EFAULT;
	v = &mm->vmas.v[i];
	if (!r->old_len)
		return -EINVAL;
	if ((r->flags & MREMAP_DONTUNMAP) && v->kind == VMA_SPECIAL)
		return -EINVAL;
	if (r->old_len > v->end - r->addr)
		return -EFAULT;
	if (r->new_len != r->old_len && v->kind == VMA_SPECIAL)
		return -EFAULT;
	return 0;
}

/* Moves [addr, addr + old_len) to [to, to + new_len) (free, not overlapping). */
static long remap_move(struct mm *mm, const struct remap *r, uint64_t to)
{
	int i = vma_find(&mm->vmas, r->addr);
	const struct vma *v = &mm->vmas.v[i];
	bool keep = (r->flags & MREMAP_DONTUNMAP) != 0;
	bool vdso = v->kind == VMA_SPECIAL && v->start == mm->vdso_base;
	uint64_t end = r->addr + r->old_len;

	/* Linux's special_mapping_split: a special area moves whole or not at all. */
	if (v->kind == VMA_SPECIAL && (v->start != r->addr || v->end != end))
		return -EINVAL;
	if (mm->vmas.n + 2 > VMA_MAX)
		return -ENOMEM;
	if (upt_move(mm, r->addr, to, r->old_len))
		return -ENOMEM;
	/* Cannot fail: the room was checked, the range is inside area i. */
	vma_move(&mm->vmas, r->addr, r->old_len, to, r->new_len, keep);
	tlb_flush_user_range(r->addr, end);
	if (vdso)
		mm->vdso_base = to;
	return (long)to;
}

static long remap_to(struct mm *mm, struct remap *r)
{
	long err;
	uint64_t to = r->new_addr;

	if (r->new_len > TASK_SIZE_MAX || r->new_addr > TASK_SIZE_MAX - r->new_len)
		return -EINVAL;
	if (r->addr + r->old_len > r->new_addr && r->new_addr + r->new_len > r->addr)
		return -EINVAL;
	if (r->flags & MREMAP_FIXED) {
		if (to < MMAP_MIN_ADDR)
			return -EPERM;
		err = mm_unmap(mm, to, to + r->new_len);
		if (err)
			return err;
		if (vma_find(&mm->vmas, r->addr) < 0)
			return -EFAULT;
	}
	if (r->old_len > r->new_len) {
		err = mm_unmap(mm, r->addr + r->new_len, r->addr + r->old_len);
		if (err)
			return err;
		if (vma_find(&mm->vmas, r->addr) < 0)
			return -EFAULT;
		r->old_len = r->new_len;
	}
	err = remap_valid(mm, r);
	if (err)
		return err;
	if (!(r->flags & MREMAP_FIXED)) {
		/* DONTUNMAP alone: new_addr is a hint, as mmap's. */
		if (to < MMAP_MIN_ADDR || !user_range_ok(to, r->new_len) ||
		    !vma_range_free(&mm->vmas, to, to + r->new_len))
			to = mm_find_free(mm, r->new_len);
		if (!to)
			return -ENOMEM;
	}
	return remap_move(mm, r, to);
}

static long remap_at(struct mm *mm, struct remap *r)
{
	uint64_t delta = r->new_len - r->old_len, to;
	long err;
	int i;

	if (r->new_len == r->old_len)
		return (long)r->addr;
	if (r->old_len > r->new_len) {
		err = mm_unmap(mm, r->addr + r->new_len, r->addr + r->old_len);
		return err ? err : (long)r->addr;
	}
	err = remap_valid(mm, r);
	if (err)
		return err;
	i = vma_find(&mm->vmas, r->addr);
	if (mm->vmas.v[i].end == r->addr + r->old_len &&
	    vma_can_expand(&mm->vmas, (unsigned)i, delta, TASK_SIZE_MAX)) {
		/* The gap above was free and unmapped: no leaf, nothing cached to flush. */
		vma_expand(&mm->vmas, (unsigned)i, r->addr + r->new_len);
		return (long)r->addr;
	}
	if (!(r->flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	to = mm_find_free(mm, r->new_len);
	if (!to)
		return -ENOMEM;
	return remap_move(mm, r, to);
}

SYSCALL_DEFINE5(mremap, uint64_t, addr, uint64_t, old_len, uint64_t, new_len, uint64_t, flags,
		uint64_t, new_addr)
{
	struct remap r = {.addr = addr, .old_len = old_len, .new_len = new_len, .new_addr = new_addr,
			  .flags = (uint32_t)flags};
	struct mm *mm = current->mm;

	if (flags & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((r.addr & (PAGE_SIZE - 1)) || !page_align(r.new_len))
		return -EINVAL;
	if (r.flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		if ((r.new_addr & (PAGE_SIZE - 1)) || !(r.flags & MREMAP_MAYMOVE))
			return -EINVAL;
		if ((r.flags & MREMAP_DONTUNMAP) && r.old_len != r.new_len)
			return -EINVAL;
	}
	r.old_len = page_align(r.old_len);
	r.new_len = page_align(r.new_len);
	if (vma_find(&mm->vmas, r.addr) < 0)
		return -EFAULT;
	return r.flags & (MREMAP_FIXED | MREMAP_DONTUNMAP) ? remap_to(mm, &r) : remap_at(mm, &r);
}
