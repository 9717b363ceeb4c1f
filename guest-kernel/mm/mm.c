/*
 * Address spaces (mm.h): creation with the shared kernel half, the
 * reference-counted lifetime, teardown with its frame check, and the area
 * operations behind mmap, munmap, mprotect and brk.
 */
#include "arch/x86_64/ldt.h"
#include "arch/x86_64/percpu.h"
#include "fs/vfs.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "mm/pti.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "sys/errno.h"

/* struct mm holds the area array (VMA_MAX areas with their leaf bits): more than a page. */
#define MM_STRUCT_ORDER 3
_Static_assert(sizeof(struct mm) <= (PAGE_SIZE << MM_STRUCT_ORDER), "struct mm fits its block");
_Static_assert(MM_STRUCT_ORDER <= FRAME_MAX_ORDER, "the frame allocator has the order");

/* Files whose release one munmap can notice; more distinct ones live until the VM ends. */
#define UNMAP_FILES_MAX 8

static uint64_t last_ctx_id;
static struct mm *live_mms;

int mm_create(struct mm *mm)
{
	uint64_t pa = frame_alloc_order(1);

	if (!pa)
		return -ENOMEM;
	memset(mm, 0, sizeof(*mm));
	mm->pgd_phys = pa;
	mm->pgd = phys_to_virt(pa);
	memset(mm->pgd, 0, 2 * PAGE_SIZE);
	/* The kernel half is the kernel's own tables, shared below the PML4. */
	memcpy(mm->pgd + PML4_KERNEL_FIRST, kpaging.pml4 + PML4_KERNEL_FIRST,
	       (PT_ENTRIES - PML4_KERNEL_FIRST) * sizeof(uint64_t));
	/* Under PTI the user PGD gets the entry area only. */
	pti_pgd_init(mm->pgd);
	mm->ctx_id = ++last_ctx_id;
	vma_set_init(&mm->vmas);
	upt_vma_leaves(&mm->vmas);
	mm->mmap_base = STACK_TOP - MMAP_GAP;
	return 0;
}

/*
 * Frees an unlinked, closed file that no live address space maps any more
 * (vfs_release decides).  Called once the areas are gone from mm.
 */
static void release_files(const void *const *files, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		vfs_release((struct inode *)files[i]);
}

/* Adds area v's file to files[0..*n) unless it is there or the array is full. */
static void note_file(const struct vma *v, const void **files, unsigned *n, unsigned max)
{
	unsigned i;

	if (!vma_has_file(v))
		return;
	for (i = 0; i < *n; i++)
		if (files[i] == v->file)
			return;
	if (*n < max)
		files[(*n)++] = v->file;
}

void mm_destroy(struct mm *mm)
{
	const void *files[VMA_MAX];
	unsigned i, nfiles = 0;
	uint64_t owned = mm->rss + mm->table_pages + 2, before = frame_stats.in_use, kept;

	upt_unmap_counted(mm, 0, USER_HALF_END, &kept);
	frame_free_order(mm->pgd_phys, 1);
	/* Every frame the counters name came back, except shared ones others still hold. */
	if (before - frame_stats.in_use != owned - kept)
		kprintf("mm: address space %lu freed %lu frames, but its pages and tables were "
			"%lu (%lu shared pages stay with other spaces)\n",
			mm->ctx_id, before - frame_stats.in_use, owned - kept, kept);
	for (i = 0; i < mm->vmas.n; i++)
		note_file(&mm->vmas.v[i], files, &nfiles, VMA_MAX);
	mm->pgd = 0;
	mm->pgd_phys = 0;
	vma_set_clear(&mm->vmas);
	release_files(files, nfiles);
}

struct mm *mm_alloc(void)
{
	uint64_t pa = frame_alloc_order(MM_STRUCT_ORDER);
	struct mm *mm;

	if (!pa)
		return 0;
	mm = phys_to_virt(pa);
	if (mm_create(mm)) {
		frame_free_order(pa, MM_STRUCT_ORDER);
		return 0;
	}
	mm->refs = 1;
	mm->live_next = live_mms;
	live_mms = mm;
	return mm;
}

void mm_get(struct mm *mm)
{
	mm->refs++;
}

static void live_remove(struct mm *mm)
{
	struct mm **pp;

	for (pp = &live_mms; *pp; pp = &(*pp)->live_next) {
		if (*pp == mm) {
			*pp = mm->live_next;
			return;
		}
	}
}

void mm_put(struct mm *mm)
{
	if (!mm)
		return;
	if (!mm->refs)
		panic("mm_put: address space %lu has no reference left", mm->ctx_id);
	if (--mm->refs)
		return;
	/* Freed tables must not stay in CR3: the kernel's own tables have the same kernel half. */
	if (mm_is_loaded(mm))
		tlb_switch_to(kpaging.pml4_phys);
	/* Out of the list first: the file releases below must not see these areas. */
	live_remove(mm);
	/* The LDT belongs to the address space (Linux's mm->context.ldt). */
	ldt_free(mm);
	mm_destroy(mm);
	frame_free_order(virt_to_phys(mm), MM_STRUCT_ORDER);
}

bool mm_maps_file(const void *file)
{
	const struct mm *mm;
	unsigned i;

	for (mm = live_mms; mm; mm = mm->live_next)
		for (i = 0; i < mm->vmas.n; i++)
			if (vma_has_file(&mm->vmas.v[i]) && mm->vmas.v[i].file == file)
				return true;
	return false;
}

unsigned mm_file_areas(const void *file)
{
	const struct mm *mm;
	unsigned i, n = 0;

	for (mm = live_mms; mm; mm = mm->live_next)
		for (i = 0; i < mm->vmas.n; i++)
			if (vma_has_file(&mm->vmas.v[i]) && mm->vmas.v[i].file == file)
				n++;
	return n;
}

void mm_activate(struct mm *mm)
{
	tlb_switch_mm(mm->pgd_phys, mm->ctx_id);
}

bool mm_is_loaded(const struct mm *mm)
{
	/* What tlb.c loaded last (the PCID and PTI bits below the frame address aside). */
	return (cpu0.pcid.kernel_cr3 & PTE_ADDR_MASK) == mm->pgd_phys;
}

int mm_map(struct mm *mm, const struct vma *v)
{
	if (!vma_range_free(&mm->vmas, v->start, v->end))
		return -EEXIST;
	return vma_insert(&mm->vmas, v) ? -ENOMEM : 0;
}

/*
 * The [vdso] area went with [start, end) (whole: special areas are never
 * cut), so the kernel must not send returns through it any more.
 */
static void vdso_follow_unmap(struct mm *mm, uint64_t start, uint64_t end)
{
	if (mm->vdso_base >= start && mm->vdso_base < end)
		mm->vdso_base = 0;
	if (mm->vdso32_base >= start && mm->vdso32_base < end)
		mm->vdso32_base = 0;
}

int mm_unmap(struct mm *mm, uint64_t start, uint64_t end)
{
	const void *files[UNMAP_FILES_MAX];
	unsigned i, nfiles = 0;
	uint64_t floor, ceiling;

	/* Linux refuses to split the special mappings ([vdso], [vvar]). */
	if (vma_cuts_special(&mm->vmas, start, end))
		return -EINVAL;
	for (i = vma_first_above(&mm->vmas, start); i < mm->vmas.n && mm->vmas.v[i].start < end;
	     i++)
		note_file(&mm->vmas.v[i], files, &nfiles, UNMAP_FILES_MAX);
	if (vma_remove(&mm->vmas, start, end))
		return -ENOMEM;
	/* The area-free span around the range: the page tables inside it go whole. */
	i = vma_first_above(&mm->vmas, start);
	floor = i ? mm->vmas.v[i - 1].end : 0;
	ceiling = i < mm->vmas.n ? mm->vmas.v[i].start : USER_HALF_END;
	/* Flush even when no leaf was present: freed tables may sit in paging-structure caches. */
	upt_unmap_area(mm, start, end, floor, ceiling);
	tlb_flush_user_range(start, end);
	vdso_follow_unmap(mm, start, end);
	release_files(files, nfiles);
	return 0;
}

int mm_protect(struct mm *mm, uint64_t start, uint64_t end, uint32_t prot)
{
	if (!vma_range_covered(&mm->vmas, start, end))
		return -ENOMEM;
	if (vma_cuts_special(&mm->vmas, start, end))
		return -EINVAL;
	if (vma_protect(&mm->vmas, start, end, prot))
		return -ENOMEM;
	upt_protect(mm, start, end, prot);
	tlb_flush_user_range(start, end);
	return 0;
}

uint64_t mm_find_free(struct mm *mm, uint64_t len)
{
	return vma_gap_topdown(&mm->vmas, len, MMAP_MIN_ADDR, mm->mmap_base);
}

bool mm_area_is_vvar(const struct vma *v)
{
	return v->kind == VMA_SPECIAL && v->name && !strcmp(v->name, "[vvar]");
}
