/*
 * Thread-local storage descriptors in the GDT, as Linux x86-64 has them for
 * 32-bit code (arch/x86/kernel/tls.c): each thread owns the three GDT
 * entries GDT_ENTRY_TLS_MIN..MAX (12-14, selectors 0x63, 0x6b, 0x73),
 * kept in thread_arch.tls and written into the GDT when it is switched in
 * (thread.c).  fork copies them (arch_task_init copies thread_arch), exec
 * clears them.
 *
 *   set_thread_area(u_info)  i386 243 (int $0x80, any process; the 64-bit
 *                            table's 205 is ENOSYS, as on Linux).  Checks:
 *                            EFAULT reading u_info; EINVAL unless the
 *                            descriptor is "no segment" (LDT_empty or all
 *                            zero: the entry is cleared) or a present,
 *                            32-bit data segment (no 16-bit: espfix works
 *                            only for the LDT; no code); entry_number -1
 *                            picks the first empty entry (ESRCH: none) and
 *                            writes it back (EFAULT); anything but 12-14
 *                            EINVAL.  DS, ES, FS, GS holding the entry's
 *                            selector are reloaded from the new descriptor.
 *   get_thread_area(u_info)  i386 244: the entry_number's descriptor as a
 *                            user_desc (fill_user_desc: an empty entry reads
 *                            as not present, read/exec only); EINVAL
 *                            outside 12-14, EFAULT.
 *   tls_set_clone(child, u)  clone(CLONE_SETTLS) from 32-bit code: tls is a
 *                            user_desc pointer and entry_number must name
 *                            an entry (no -1), into the child's array.
 */
#include "arch/x86_64/desc.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/segregs.h"
#include "arch/x86_64/tls.h"
#include "arch/x86_64/user_desc.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

_Static_assert(sizeof(((struct thread_arch *)0)->tls) == GDT_ENTRY_TLS_ENTRIES * 8,
	       "thread_arch.tls holds the GDT's TLS entries");

/* Linux's LDT_zero(): every field zero, what old programs pass for "no segment". */
static bool ud_zero(const struct user_desc *u)
{
	return !u->base_addr && !u->limit && !(u->flags & (UD_DEFINED | UD_LM));
}

/* tls_desc_okay() */
static bool tls_desc_ok(const struct user_desc *u)
{
	if (ud_empty(u) || ud_zero(u))
		return true;
	return (u->flags & UD_SEG_32BIT) && ((u->flags >> UD_CONTENTS_SHIFT) & 3) <= 1 &&
	       !(u->flags & UD_SEG_NOT_PRESENT);
}

/* Reloads each data selector that names GDT entry idx (Linux's set_thread_area refresh). */
static void refresh(struct task *t, unsigned idx)
{
	uint16_t sel = (uint16_t)(idx << 3 | 3);

	gdt_set_tls(t->arch.tls);
	if (seg_read_ds() == sel)
		t->arch.ds = seg_load_ds(sel);
	if (seg_read_es() == sel)
		t->arch.es = seg_load_es(sel);
	if (seg_read_fs() == sel)
		t->arch.fsindex = seg_load_fs(sel);
	if (seg_read_gs() == sel)
		t->arch.gsindex = seg_load_user_gs(sel);
}

static long set_tls(struct task *t, uint64_t uptr, bool can_allocate)
{
	struct user_desc u;
	uint32_t idx;

	if (copy_from_user(&u, uptr, sizeof(u)))
		return -EFAULT;
	if (!tls_desc_ok(&u))
		return -EINVAL;
	idx = u.entry_number;
	if (idx == (uint32_t)-1 && can_allocate) {
		for (idx = 0; idx < GDT_ENTRY_TLS_ENTRIES && t->arch.tls[idx]; idx++)
			;
		if (idx == GDT_ENTRY_TLS_ENTRIES)
			return -ESRCH;
		idx += GDT_ENTRY_TLS_MIN;
		if (copy_to_user(uptr + offsetof(struct user_desc, entry_number), &idx,
				 sizeof(idx)))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	t->arch.tls[idx - GDT_ENTRY_TLS_MIN] =
		ud_empty(&u) || ud_zero(&u) ? 0 : desc_encode(&u);
	if (t == current)
		refresh(t, idx);
	return 0;
}

SYSCALL_DEFINE1(set_thread_area, uint64_t, u_info)
{
	return set_tls(current, u_info, true);
}

SYSCALL_DEFINE1(get_thread_area, uint64_t, u_info)
{
	struct user_desc u;
	uint32_t idx;

	if (copy_from_user(&idx, u_info + offsetof(struct user_desc, entry_number), sizeof(idx)))
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	desc_decode(current->arch.tls[idx - GDT_ENTRY_TLS_MIN], idx, &u);
	return copy_to_user(u_info, &u, sizeof(u)) ? -EFAULT : 0;
}

long tls_set_clone(struct task *child, uint64_t u_info)
{
	return set_tls(child, u_info, false);
}
