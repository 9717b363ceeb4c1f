/*
 * The vdso32 page (vdso32.h): the boot-time choice of its system call
 * sequence, and its mapping.
 */
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "proc/usermap.h"
#include "sys/errno.h"
#include "vdso/vdso32.h"

extern const uint8_t vdso32_page[], vdso32_page_end[];

static const uint8_t seq_sysenter[4] = {0x89, 0xe5, 0x0f, 0x34}; /* movl %esp,%ebp; sysenter */
static const uint8_t seq_syscall[4] = {0x89, 0xcd, 0x0f, 0x05};  /* movl %ecx,%ebp; syscall */

void vdso32_init(int use)
{
	const uint8_t *seq = use == VDSO32_USE_SYSCALL    ? seq_syscall
			     : use == VDSO32_USE_SYSENTER ? seq_sysenter
							  : 0;

	/* The rodata mapping is read-only: through the direct map, once, before any user code. */
	if (seq)
		memcpy(phys_to_virt(image_to_phys(vdso32_page + VDSO32_SEQ)), seq, 4);
	kprintf("vdso32: __kernel_vsyscall uses %s\n",
		seq == seq_syscall ? "SYSCALL" : seq ? "SYSENTER" : "int $0x80");
}

long vdso32_map(uint64_t addr)
{
	struct mm *mm = current->mm;
	long base;

	if (mm->vdso32_base)
		return -EEXIST;
	base = usermap_special(addr & ~(uint64_t)(PAGE_SIZE - 1), virt_to_phys(vdso32_page), 1,
			       UMAP_READ | UMAP_EXEC, "[vdso32]");
	if (base < 0)
		return base;
	mm->vdso32_base = (uint64_t)base;
	return PAGE_SIZE; /* Linux's prctl_map_vdso(): the image's size */
}
