/*
 * Robust futex lists (Documentation/locking/robust-futex-ABI.rst).  A thread
 * registers the user address of its struct robust_list_head { next,
 * futex_offset, list_op_pending }; each entry is a pointer to the next one
 * (bit 0: the futex is a PI one), the list ends where it points back at the
 * head, and the futex word of an entry is at entry + futex_offset.  When the
 * thread exits or execs, every word it still owns (word & FUTEX_TID_MASK ==
 * its tid) becomes (word & FUTEX_WAITERS) | FUTEX_OWNER_DIED, and one waiter
 * is woken when FUTEX_WAITERS was set, so the next locker sees EOWNERDEAD.
 * The walk is bounded (ROBUST_LIST_LIMIT entries, a loop ends it) and a
 * fault ends it silently, as Linux does.
 */
#include "proc/cred.h"
#include "proc/futex.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define ROBUST_LIST_LIMIT 2048

struct robust_list_head {
	uint64_t next;
	int64_t futex_offset;
	uint64_t list_op_pending;
};

/* Linux handle_futex_death: returns -1 on a fault (ends the walk). */
static int futex_death(struct task *t, uint64_t uaddr, bool pi, bool pending)
{
	uint32_t uval, mval;

	if (uaddr & 3)
		return -1;
	if (copy_from_user(&uval, uaddr, sizeof(uval)))
		return -1;
	/* A pending unlock that already cleared the word: its waiter may need the wake. */
	if (pending && !pi && !uval) {
		futex_wake(t->mm, uaddr, 1);
		return 0;
	}
	if ((uval & FUTEX_TID_MASK) != (uint32_t)t->pid)
		return 0;
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (copy_to_user(uaddr, &mval, sizeof(mval)))
		return -1;
	/* PI waiters are woken by futex_pi_owner_exit, as Linux's pi_state does. */
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(t->mm, uaddr, 1);
	return 0;
}

static void robust_list_walk(struct task *t, uint64_t head_addr)
{
	struct robust_list_head head;
	uint64_t entry, pending, next;
	unsigned limit = ROBUST_LIST_LIMIT;
	bool pi, pending_pi;

	if (copy_from_user(&head, head_addr, sizeof(head)))
		return;
	entry = head.next & ~1ull;
	pi = head.next & 1;
	pending = head.list_op_pending & ~1ull;
	pending_pi = head.list_op_pending & 1;
	while (entry != head_addr) {
		if (copy_from_user(&next, entry, sizeof(next)))
			return;
		/* The pending entry is handled last, once. */
		if (entry != pending &&
		    futex_death(t, entry + (uint64_t)head.futex_offset, pi, false))
			return;
		entry = next & ~1ull;
		pi = next & 1;
		if (!--limit)
			break;
	}
	if (pending)
		futex_death(t, pending + (uint64_t)head.futex_offset, pending_pi, true);
}

void futex_release(struct task *t)
{
	uint64_t head = t->robust_list;

	t->robust_list = 0;
	if (head && t->mm)
		robust_list_walk(t, head);
	futex_pi_owner_exit(t->pid);
}

/* set_robust_list(head, len): len must be sizeof(struct robust_list_head). */
SYSCALL_DEFINE2(set_robust_list, uint64_t, head, uint64_t, len)
{
	if (len != sizeof(struct robust_list_head))
		return -EINVAL;
	current->robust_list = head;
	return 0;
}

/*
 * get_robust_list(pid, head_ptr, len_ptr): pid 0 is the caller; another
 * thread needs the ptrace permission (Linux PTRACE_MODE_READ_REALCREDS).
 */
SYSCALL_DEFINE3(get_robust_list, uint64_t, pid, uint64_t, head_ptr, uint64_t, len_ptr)
{
	struct task *t = pid ? task_find((int)pid) : current;
	uint64_t len = sizeof(struct robust_list_head);

	if (!t || t->state == TASK_ZOMBIE)
		return -ESRCH;
	if (t != current && !cred_may_ptrace(current, t))
		return -EPERM;
	if (copy_to_user(len_ptr, &len, sizeof(len)) ||
	    copy_to_user(head_ptr, &t->robust_list, sizeof(uint64_t)))
		return -EFAULT;
	return 0;
}
