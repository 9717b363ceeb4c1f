/*
 * Kernel pages in the current process (usermap.h): an area of kind
 * VMA_SPECIAL whose leaves are present from the start and marked as not
 * the process's (PTE_SW_NOFREE), so munmap and exit leave the frames alone.
 */
#include "mm/tlb.h"
#include "mm/upt.h"
#include "proc/process.h"
#include "proc/usermap.h"
#include "sys/errno.h"

long usermap_special(uint64_t uaddr, uint64_t phys, size_t npages, unsigned prot,
		     const char *name)
{
	struct mm *mm = current->mm;
	uint64_t len = (uint64_t)npages * PAGE_SIZE, bits, i;
	struct vma v = {.prot = prot & (VMA_R | VMA_W | VMA_X), .kind = VMA_SPECIAL, .name = name};
	int err;

	if (!npages || (uaddr | phys) & (PAGE_SIZE - 1) || npages > (1u << 20))
		return -EINVAL;
	if (!uaddr)
		uaddr = mm_find_free(mm, len);
	if (!uaddr || !user_range_ok(uaddr, len) || uaddr < MMAP_MIN_ADDR)
		return -ENOMEM;
	v.start = uaddr;
	v.end = uaddr + len;
	err = mm_map(mm, &v);
	if (err)
		return err;
	bits = upt_prot_bits(v.prot) | PTE_SW_NOFREE;
	for (i = 0; i < npages; i++) {
		uint64_t *pte = upt_pte(mm, uaddr + i * PAGE_SIZE, true);

		if (!pte) {
			mm_unmap(mm, uaddr, uaddr + len);
			return -ENOMEM;
		}
		*pte = (phys + i * PAGE_SIZE) | bits;
	}
	tlb_flush_user_range(uaddr, uaddr + len);
	return (long)uaddr;
}
