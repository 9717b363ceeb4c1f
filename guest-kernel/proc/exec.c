/*
 * Loading a static ELF executable into a fresh address space: one file area
 * per PT_LOAD's file part (populated at once, so the program's own pages
 * never fault in a measured region), an anonymous area for the rest of its
 * memory size (bss), brk after the highest segment, the stack, the vDSO,
 * then the initial stack (exec_stack.c) and the user register frame.
 * An ELF32 i386 file makes an i386 process (mm->ia32, mm/mm.h: every area
 * below 4 GiB, the vdso32 page) that starts in compatibility mode:
 * CS = USER32_CS, SS = DS = ES = USER_DS (thread.c), as Linux's
 * compat_start_thread.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "elf_check.h"
#include "proc/exec_stack.h"
#include "proc/futex.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "time/time.h"
#include "vdso/vdso.h"
#include "vdso/vdso32.h"

_Static_assert(IA32_TASK_SIZE == ELF32_TASK_SIZE, "one i386 TASK_SIZE");

/*
 * RFLAGS of a new process: IF as on Linux, so that interrupts arrive
 * in user mode; nothing else.
 */
#define USER_RFLAGS_INITIAL (RFLAGS_FIXED | RFLAGS_IF)

static int map_segment(struct mm *mm, const struct inode *node, const struct elf_segment *s,
		       uint64_t bias)
{
	uint64_t start = ALIGN_DOWN(s->vaddr + bias, PAGE_SIZE);
	uint64_t file_end = ALIGN_UP(s->vaddr + bias + s->filesz, PAGE_SIZE);
	uint64_t mem_end = ALIGN_UP(s->vaddr + bias + s->memsz, PAGE_SIZE);
	int err;

	if (s->filesz) {
		struct vma v = {
			.start = start,
			.end = file_end,
			.pgoff = ALIGN_DOWN(s->offset, PAGE_SIZE),
			.file_end = s->offset + s->filesz,
			.file = node,
			.prot = s->prot,
			.kind = VMA_FILE,
		};

		err = mm_map(mm, &v);
		if (err)
			return err;
		if (mm_populate(mm, start, file_end, s->prot & VMA_W) != FAULT_HANDLED)
			return -ENOMEM;
		start = file_end;
	}
	if (start < mem_end) {
		struct vma bss = {
			.start = start,
			.end = mem_end,
			.prot = s->prot,
			.kind = VMA_ANON,
		};

		err = mm_map(mm, &bss);
		if (err)
			return err;
	}
	return 0;
}

static int map_image(struct mm *mm, const struct inode *node, const struct elf_info *info,
		     uint64_t bias)
{
	struct vma stack = {
		.start = mm_stack_top(mm) - STACK_INITIAL,
		.end = mm_stack_top(mm),
		.prot = VMA_R | VMA_W,
		.kind = VMA_STACK,
	};
	unsigned i;
	int err;

	for (i = 0; i < info->nr_loads; i++) {
		err = map_segment(mm, node, &info->loads[i], bias);
		if (err)
			return err;
	}
	mm->start_brk = mm->brk = info->hi + bias;
	return mm_map(mm, &stack);
}

int exec_load(struct task *p, struct inode *node, const struct exec_strings *s,
	      struct trap_frame *tf)
{
	struct elf_info info;
	struct exec_image img = {0};
	struct mm *mm, *old;
	uint64_t bias, stack_top;
	int err;

	if (!S_ISREG(node->mode) || !node->data) {
		kprintf("exec %s: not a regular file from the initrd\n", p->exe_path);
		return -EACCES;
	}
	err = elf_check(node->data, node->size, &info);
	stack_top = info.is32 ? IA32_STACK_TOP : STACK_TOP;
	if (!err)
		err = elf_place(&info, stack_top - STACK_LIMIT - MMAP_GAP, &bias);
	if (err) {
		kprintf("exec %s: %s\n", p->exe_path, elf_strerror(err));
		return -ENOEXEC;
	}
	/*
	 * The new image is built in a space not yet loaded, so that a failure
	 * here leaves the caller's as it was (Linux's point of no return comes
	 * after the mapping); the file and anonymous areas need no CR3 of theirs.
	 */
	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	mm->ia32 = info.is32;
	mm->mmap_base = stack_top - MMAP_GAP;
	err = map_image(mm, node, &info, bias);
	if (err) {
		kprintf("exec %s: cannot map the program (error %d)\n", p->exe_path, err);
		mm_put(mm);
		return err;
	}
	/* Past here a failure cannot give the old space back: it goes once the new one is loaded. */
	futex_release(p); /* Linux futex_exec_release: the old image's robust locks */
	old = p->mm;
	p->mm = mm;
	mm_activate(mm);
	mm_put(old);
	img.entry = info.entry + bias;
	img.phdr = info.phdr_vaddr + bias;
	img.phnum = info.phnum;
	img.ia32 = info.is32;
	/*
	 * An i386 program gets the vdso32 page (vdso/vdso32.h: not an ELF image,
	 * so AT_SYSINFO alone): libc enters through __kernel_vsyscall, the
	 * compat SYSCALL or SYSENTER; without the page, int $0x80.
	 */
	if (img.ia32) {
		time_process_start();
		if (vdso32_map(0) > 0)
			img.sysinfo = p->mm->vdso32_base + VDSO32_VSYSCALL;
	} else {
		img.vdso = vdso_map_process();
	}
	p->mm->vdso_base = img.vdso;
	img.execfn = p->exe_path;
	err = exec_build_stack(p->mm, &img, s);
	if (err) {
		kprintf("exec %s: arguments do not fit the stack (error %d)\n", p->exe_path, err);
		return err;
	}
	p->mm->exe_file = node;
	arch_exec_reset(p);
	signal_exec_reset(p);
	if (p->vfork_parent) {
		p->vfork_parent = 0;
		wake_up(p);
	}
	memset(tf, 0, sizeof(*tf));
	tf->rip = img.entry;
	tf->rsp = img.sp;
	tf->cs = img.ia32 ? USER32_CS : USER_CS;
	tf->ss = USER_DS;
	tf->rflags = USER_RFLAGS_INITIAL;
	return 0;
}
