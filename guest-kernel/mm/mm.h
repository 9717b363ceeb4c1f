/*
 * A process's address space: its top-level page table, its areas (vma.h)
 * and the brk, stack and mmap layout, Linux's with one fixed draw of its
 * randomization (the stack 1 GiB below the top, inside Linux's 16 GiB
 * range): deterministic runs, and the top user pages free as programs
 * written for Linux expect them (sysret_rip maps code at 2^47 - 8 KiB):
 *
 *   ELF segments       at their addresses (static-pie at ELF_DYN_BASE)
 *   [heap]             from the page after the highest segment, moved by brk
 *   mmap, vDSO         top-down below mmap_base = STACK_TOP - 128 MiB
 *   [stack]            below STACK_TOP, growing down to STACK_TOP - 8 MiB
 *   (above the stack)  free for MAP_FIXED up to TASK_SIZE_MAX (the last page is never mapped)
 */
#ifndef EL_MM_MM_H
#define EL_MM_MM_H

#include "kernel.h"
#include "mm/vma.h"
#include "sys/uaccess_range.h"

struct inode;

#define STACK_TOP_GAP (1ull << 30)    /* a fixed stack_maxrandom_size draw */
#define STACK_TOP (TASK_SIZE_MAX - STACK_TOP_GAP)
#define STACK_LIMIT (8ull << 20)       /* RLIMIT_STACK */
#define STACK_INITIAL (132ull << 10)   /* what Linux's first stack area spans */
#define MMAP_GAP (128ull << 20)        /* Linux's minimum gap above mmap_base */
#define MMAP_MIN_ADDR 0x10000ull       /* vm.mmap_min_addr */
/*
 * An i386 program's space (mm->ia32, set by exec of an ELF32 file, kept by
 * fork: Linux's TIF_ADDR32 / mm->context.ia32_compat): every area below
 * IA32_TASK_SIZE (Linux's TASK_SIZE of a compat task, IA32_PAGE_OFFSET),
 * the stack right below it (Linux's layout without randomization), mmap
 * top-down from IA32_STACK_TOP - MMAP_GAP, the vdso32 page instead of the
 * vDSO (AT_SYSINFO: proc/exec.c).
 */
#define IA32_TASK_SIZE 0xffffe000ull
#define IA32_STACK_TOP IA32_TASK_SIZE

struct mm {
	uint32_t refs;        /* tasks using it (CLONE_VM shares; mm_put frees at 0) */
	struct mm *live_next; /* every mm_alloc'd space, for questions about all of them */
	/*
	 * Top-level tables: an order-1 block, as Linux pairs them: the kernel
	 * PGD at +0, and under PTI the user PGD at +4096 (mm/pti.h).
	 */
	uint64_t pgd_phys;
	uint64_t *pgd;
	uint64_t ctx_id;      /* unique, never reused: names the space to the PCID slots */
	uint64_t vdso_base;   /* [vdso] address, 0 without (the SYSRET trampoline is there) */
	uint64_t vdso32_base; /* [vdso32] address, 0 without (vdso/vdso32.h: the compat landing pad) */
	struct vma_set vmas;
	uint64_t start_brk, brk;
	uint64_t start_stack; /* where argv/envp pointers begin: names [stack] */
	uint64_t mmap_base;
	uint64_t table_pages; /* user page-table pages in use (not counting the pgd) */
	uint64_t rss;         /* frames the leaves own (not the zero page, not vDSO pages) */
	bool ia32;            /* an i386 program's space: IA32_TASK_SIZE bounds it (above) */
	struct ldt *ldt;      /* modify_ldt's table, NULL: none (arch/x86_64/ldt.h: ldt_dup, ldt_free) */
	/* /proc/PID: the program (exec's file, an initrd node: never freed) and its strings */
	struct inode *exe_file;
	uint64_t arg_start, arg_end, env_start, env_end;
};

/*
 * Lifetime.  A task holds one reference to its mm; CLONE_VM threads and
 * vfork children share it (mm_get), fork copies it (mm_dup), exec replaces
 * it.  The last mm_put frees every page, table, the pgd pair and the struct
 * (an order-MM_ORDER block: the area array makes it larger than a page),
 * switching to the kernel's own tables first when it is loaded, and checks
 * that the frames it gave back are the ones it counted.
 */
struct mm *mm_alloc(void); /* empty, refs 1; NULL when out of frames */
void mm_get(struct mm *mm);
void mm_put(struct mm *mm); /* NULL is fine */

/*
 * fork (mm_dup.c): a new address space with src's areas and a private copy
 * of each present page; MAP_SHARED memory is shared.  src's areas and
 * contents stay as they are, but its MAP_SHARED pages become present (and
 * counted in its rss), so both sides see the same frames from then on.
 * NULL when out of frames (or shared-frame slots).
 */
struct mm *mm_dup(const struct mm *src);

/* Some live address space (mm_alloc'd, not yet freed) has an area of file. */
bool mm_maps_file(const void *file);
/* How many areas of every live address space map file (shm_nattch). */
unsigned mm_file_areas(const void *file);

/*
 * Initialises an empty address space in place sharing the kernel half
 * (mm_alloc uses it; the self-checks build scratch spaces with it):
 * -ENOMEM when out of frames.
 */
int mm_create(struct mm *mm);
/* Frees every user page, page table and the pgd; the mm must not be loaded. */
void mm_destroy(struct mm *mm);
/* Loads the address space (CR3). */
void mm_activate(struct mm *mm);
/* The address space is the one in CR3. */
bool mm_is_loaded(const struct mm *mm);

/*
 * Address-space operations with Linux's semantics, page-aligned arguments
 * already checked by the syscalls; each returns 0 or -errno.
 */
int mm_map(struct mm *mm, const struct vma *v);      /* range must be free */
int mm_unmap(struct mm *mm, uint64_t start, uint64_t end);
int mm_protect(struct mm *mm, uint64_t start, uint64_t end, uint32_t prot);
/* The end of mm's user range (Linux's TASK_SIZE) and the top of its stack. */
static inline uint64_t mm_task_size(const struct mm *mm)
{
	return mm->ia32 ? IA32_TASK_SIZE : TASK_SIZE_MAX;
}

static inline uint64_t mm_stack_top(const struct mm *mm)
{
	return mm->ia32 ? IA32_STACK_TOP : STACK_TOP;
}

/* Highest free range of len bytes below mmap_base, 0 when none. */
uint64_t mm_find_free(struct mm *mm, uint64_t len);

/*
 * The kernel address of the byte at addr of mm (any address space, loaded
 * or not), faulting the page in as an access of that kind would; NULL when
 * no area allows it (process_vm_readv/writev, as get_user_pages: [vvar]
 * and areas without PROT_READ, or PROT_WRITE for a write, refuse).  The
 * result is valid up to the end of its page.
 */
void *mm_access_page(struct mm *mm, uint64_t addr, bool write);

/*
 * Linux's gate area (get_gate_page): the legacy vsyscall page reads like
 * memory for process_vm_readv (and debuggers) when [vsyscall] is readable
 * (vsyscall=native or emulate), never in xonly or none, never for writes.
 * The kernel address of the byte at addr, or NULL.
 */
const void *mm_gate_page(uint64_t addr);

/* The area is [vvar] (kernel data mapped by frame: no page access, no moves with changes). */
bool mm_area_is_vvar(const struct vma *v);

/* Demand paging (fault.c): the outcome of one fault on a user address. */
enum fault_result {
	FAULT_HANDLED,
	FAULT_BAD_ADDRESS, /* no area (SEGV_MAPERR) */
	FAULT_BAD_ACCESS,  /* the area forbids this access (SEGV_ACCERR) */
	FAULT_OOM,
};

/* error: the #PF error code (bit 1 write, bit 4 instruction fetch, bit 0 present). */
enum fault_result mm_fault(struct mm *mm, uint64_t addr, uint64_t error);
/* Faults in every page of [start, end) as the given access would (exec's segments). */
enum fault_result mm_populate(struct mm *mm, uint64_t start, uint64_t end, bool write);

/* The shared zero page's physical address. */
uint64_t zero_page_phys(void);

#endif
