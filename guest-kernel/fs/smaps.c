/*
 * smaps counts (smaps.h), walking the area's leaves as Linux's
 * smaps_pte_entry does:
 *   not counted     the zero page and [vvar] (Linux: no struct page behind
 *                   them, vm_normal_page is NULL);
 *   shared          a MAP_SHARED frame more than one space owns
 *                   (frame_share.h), and the vDSO pages every process maps
 *                   (Pss 0: their owner count is "every process");
 *   private         the rest, dirty when the area is anonymous (its frames
 *                   exist because of a write, or a fork's copy of one) or
 *                   the leaf's D bit is set;
 *   referenced      the leaf's A bit;
 *   anonymous       frames of anonymous areas, and written (D) frames of
 *                   private file areas (Linux's COW copies); MAP_SHARED
 *                   memory is shmem there, not anonymous.
 * PROT_NONE pages keep their frame and count like present ones.
 */
#include "fs/smaps.h"
#include "mm/frame_share.h"
#include "mm/upt.h"

struct count_ctx {
	const struct vma *v;
	struct smaps_counts *c;
	bool vdso;
};

static bool area_anonymous(const struct vma *v)
{
	return v->kind == VMA_ANON || v->kind == VMA_STACK || v->kind == VMA_HEAP;
}

static int count_leaf(void *ctx, uint64_t va, uint64_t *pte)
{
	struct count_ctx *x = ctx;
	struct smaps_counts *c = x->c;
	uint64_t e = *pte, pa = e & PTE_ADDR_MASK;
	unsigned owners;
	bool dirty;

	(void)va;
	if (!pte_has_frame(e) || pa == zero_page_phys())
		return 0;
	if (e & PTE_SW_NOFREE) {
		if (x->vdso) {
			c->rss += PAGE_SIZE;
			c->shared_clean += PAGE_SIZE;
			c->referenced += (e & PTE_A) ? PAGE_SIZE : 0;
		}
		return 0;
	}
	owners = (e & PTE_SW_SHARED) ? frame_share_count(pa) : 1;
	dirty = area_anonymous(x->v) || x->v->kind == VMA_ANON_SHARED || (e & PTE_D);
	c->rss += PAGE_SIZE;
	c->pss += ((uint64_t)PAGE_SIZE << PSS_SHIFT) / owners;
	if (dirty)
		c->pss_dirty += ((uint64_t)PAGE_SIZE << PSS_SHIFT) / owners;
	if (owners > 1)
		*(dirty ? &c->shared_dirty : &c->shared_clean) += PAGE_SIZE;
	else
		*(dirty ? &c->private_dirty : &c->private_clean) += PAGE_SIZE;
	if (e & PTE_A)
		c->referenced += PAGE_SIZE;
	if (area_anonymous(x->v) || (x->v->kind == VMA_FILE && (e & PTE_D)))
		c->anonymous += PAGE_SIZE;
	return 0;
}

/* Linux's VM_* flags the area would carry. */
static uint32_t area_flags(const struct vma *v)
{
	uint32_t f = SMAPS_FLAG(SMAPS_MR) | SMAPS_FLAG(SMAPS_MW) | SMAPS_FLAG(SMAPS_ME);

	if (v->prot & VMA_R)
		f |= SMAPS_FLAG(SMAPS_RD);
	if (v->prot & VMA_W)
		f |= SMAPS_FLAG(SMAPS_WR);
	if (v->prot & VMA_X)
		f |= SMAPS_FLAG(SMAPS_EX);
	if (v->kind == VMA_ANON_SHARED)
		f |= SMAPS_FLAG(SMAPS_SH) | SMAPS_FLAG(SMAPS_MS);
	else if (v->prot & VMA_W)
		f |= SMAPS_FLAG(SMAPS_AC); /* private writable memory is committed */
	if (v->kind == VMA_STACK)
		f |= SMAPS_FLAG(SMAPS_GD);
	if (mm_area_is_vvar(v))
		f = (f & SMAPS_FLAG(SMAPS_RD)) | SMAPS_FLAG(SMAPS_MR) | SMAPS_FLAG(SMAPS_PF) |
		    SMAPS_FLAG(SMAPS_IO) | SMAPS_FLAG(SMAPS_DE) | SMAPS_FLAG(SMAPS_DD);
	else if (v->kind == VMA_SPECIAL)
		f |= SMAPS_FLAG(SMAPS_DE);
	return f;
}

void smaps_count_area(struct mm *mm, const struct vma *v, struct smaps_counts *c)
{
	struct count_ctx x = {v, c, v->kind == VMA_SPECIAL && !mm_area_is_vvar(v)};

	*c = (struct smaps_counts){.size = v->end - v->start, .vmflags = area_flags(v)};
	if (!mm_area_is_vvar(v))
		upt_walk(mm, v->start, v->end, count_leaf, &x);
}

void smaps_count_vsyscall(uint32_t maps_prot, struct smaps_counts *c)
{
	*c = (struct smaps_counts){.size = PAGE_SIZE};
	if (maps_prot & VMA_R)
		c->vmflags |= SMAPS_FLAG(SMAPS_RD);
	if (maps_prot & VMA_X)
		c->vmflags |= SMAPS_FLAG(SMAPS_EX);
}
