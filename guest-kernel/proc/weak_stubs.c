/*
 * TEMPORARY: weak stand-ins so the kernel links while the mm and signal
 * work lands in parallel (mm/mm.c, mm/mm_dup.c, proc/signal.c override
 * every one of these).  To be deleted once both have landed.
 */
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "proc/signal.h"

#define WEAK __attribute__((weak))
#define MM_ORDER 2
_Static_assert(sizeof(struct mm) <= (4096u << MM_ORDER), "struct mm fits");

WEAK struct mm *mm_alloc(void)
{
	uint64_t pa = frame_alloc_order(MM_ORDER);
	struct mm *mm;

	if (!pa)
		return 0;
	mm = phys_to_virt(pa);
	if (mm_create(mm)) {
		frame_free_order(pa, MM_ORDER);
		return 0;
	}
	mm->refs = 1;
	return mm;
}

WEAK void mm_get(struct mm *mm)
{
	mm->refs++;
}

WEAK void mm_put(struct mm *mm)
{
	if (--mm->refs)
		return;
	mm_destroy(mm);
	frame_free_order(virt_to_phys(mm), MM_ORDER);
}

WEAK struct mm *mm_dup(const struct mm *src)
{
	(void)src;
	return 0;
}

WEAK int signal_task_init(struct task *child, const struct task *parent, uint64_t clone_flags)
{
	uint64_t pa;

	(void)clone_flags;
	if (parent && (clone_flags & 0x800)) {
		child->sighand = parent->sighand;
		child->sighand->refs++;
		return 0;
	}
	pa = frame_alloc_order(1);
	if (!pa)
		return -1;
	child->sighand = phys_to_virt(pa);
	memset(child->sighand, 0, sizeof(*child->sighand));
	if (parent)
		memcpy(child->sighand->action, parent->sighand->action, sizeof(child->sighand->action));
	child->sighand->refs = 1;
	return 0;
}

WEAK void signal_task_release(struct task *t)
{
	if (t->sighand && !--t->sighand->refs)
		frame_free_order(virt_to_phys(t->sighand), 1);
	t->sighand = 0;
}

WEAK void signal_exec_reset(struct task *t)
{
	(void)t;
}

WEAK int signal_send(struct task *t, int sig, const struct ksiginfo *info, bool group)
{
	(void)t, (void)sig, (void)info, (void)group;
	return 0;
}

WEAK bool signal_pending(const struct task *t)
{
	(void)t;
	return false;
}

WEAK void signal_deliver(struct trap_frame *tf)
{
	(void)tf;
	current->work &= ~TASK_WORK_SIGPENDING;
}
