/*
 * modify_ldt(2) and the per-mm LDT (ldt.h), with Linux 6.1's semantics:
 *   func 0     read: the table's bytes (at most 64 KiB), zero-filled up to
 *              bytecount; returns bytecount, or 0 without a table;
 *   func 1     write, old mode: a zero base and limit clears the entry, the
 *              AVL bit is dropped, conforming code (contents 3) refused;
 *   func 0x11  write: the "empty" user_desc (read_exec_only and
 *              seg_not_present set, all else zero; lm ignored) clears it;
 *              contents 3 needs seg_not_present;
 *   func 2     the default LDT: 128 zero bytes at most;
 *   others     -ENOSYS.
 * The result is an int zero-extended into RAX (Linux's ABI quirk: -EINVAL
 * reads as 0xffffffea in the register; callers compare the int).
 * Descriptors are encoded as Linux's fill_ldt(): DPL 3, the accessed bit
 * set, L never set (lm is ignored), 16-bit segments allowed
 * (CONFIG_X86_16BIT; the IRET to a 16-bit SS goes through espfix, espfix.h).
 *
 * The table grows to the highest entry written; the LDT limit covers
 * exactly that many entries, so selectors beyond it are invalid.  Writing
 * reloads LDTR and, as Linux does, DS and ES when they name the LDT (FS
 * and GS keep their cached bases until reloaded).  Other threads of the
 * process are not running (one CPU): they see the new table when they are
 * switched in, their selectors reloaded then; a CS or SS that no longer
 * fits faults at the IRET to user mode and becomes a signal (bad_iret.c).
 */
#include "arch/x86_64/desc.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/ldt.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/segregs.h"
#include "arch/x86_64/user_desc.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define ENTRIES_PER_PAGE (PAGE_SIZE / LDT_ENTRY_SIZE)
#define DEFAULT_LDT_BYTES 128

struct ldt {
	uint64_t *entries;   /* in the arena */
	unsigned nr_entries; /* the limit covers these */
	unsigned first_page, nr_pages;
};

static uint64_t ldt_arena[LDT_ARENA_PAGES][ENTRIES_PER_PAGE] __entry_bss __aligned(4096);
static uint64_t arena_used; /* bit i: arena page i belongs to an LDT */
_Static_assert(LDT_ARENA_PAGES <= 64, "arena_used has a bit per page");
_Static_assert(LDT_ENTRIES * LDT_ENTRY_SIZE <= LDT_ARENA_PAGES * PAGE_SIZE,
	       "the arena holds at least one full-size LDT");

/* What LDTR holds (gdt_load_ldt is skipped when nothing changed). */
static const uint64_t *loaded_entries;
static unsigned loaded_nr;

/* First fit: the first page of a free run of n pages, or -1. */
static int arena_alloc(unsigned n)
{
	unsigned first, i;

	for (first = 0; first + n <= LDT_ARENA_PAGES; first++) {
		for (i = 0; i < n && !(arena_used & BIT(first + i)); i++)
			;
		if (i == n) {
			for (i = 0; i < n; i++)
				arena_used |= BIT(first + i);
			memset(ldt_arena[first], 0, n * PAGE_SIZE);
			return (int)first;
		}
		first += i;
	}
	return -1;
}

static void arena_free(unsigned first, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		arena_used &= ~BIT(first + i);
}

static struct ldt *ldt_alloc(unsigned nr_entries)
{
	unsigned pages = (unsigned)ALIGN_UP(nr_entries, ENTRIES_PER_PAGE) / ENTRIES_PER_PAGE;
	struct ldt *l = kzalloc(sizeof(*l));
	int first;

	if (!l)
		return 0;
	first = arena_alloc(pages);
	if (first < 0) {
		kfree(l, sizeof(*l));
		return 0;
	}
	l->entries = ldt_arena[first];
	l->nr_entries = nr_entries;
	l->first_page = (unsigned)first;
	l->nr_pages = pages;
	return l;
}

static void ldt_release(struct ldt *l)
{
	if (l->entries == loaded_entries)
		ldt_load(0);
	arena_free(l->first_page, l->nr_pages);
	kfree(l, sizeof(*l));
}

void ldt_load(const struct mm *mm)
{
	const struct ldt *l = mm ? mm->ldt : 0;
	const uint64_t *entries = l ? l->entries : 0;
	unsigned nr = l ? l->nr_entries : 0;

	if (entries == loaded_entries && nr == loaded_nr)
		return;
	gdt_load_ldt(entries, nr);
	loaded_entries = entries;
	loaded_nr = nr;
}

int ldt_dup(struct mm *dst, const struct mm *src)
{
	const struct ldt *s = src->ldt;

	dst->ldt = 0;
	if (!s)
		return 0;
	dst->ldt = ldt_alloc(s->nr_entries);
	if (!dst->ldt)
		return -ENOMEM;
	memcpy(dst->ldt->entries, s->entries, s->nr_entries * LDT_ENTRY_SIZE);
	return 0;
}

void ldt_free(struct mm *mm)
{
	if (!mm->ldt)
		return;
	ldt_release(mm->ldt);
	mm->ldt = 0;
}

/* Room for nr entries in mm's table: grown in place when its pages suffice, else moved. */
static int ldt_grow(struct mm *mm, unsigned nr)
{
	struct ldt *old = mm->ldt, *l;

	if (old && nr <= old->nr_entries)
		return 0;
	if (old && nr <= old->nr_pages * ENTRIES_PER_PAGE) {
		old->nr_entries = nr;
		return 0;
	}
	l = ldt_alloc(nr);
	if (!l)
		return -ENOMEM;
	if (old) {
		memcpy(l->entries, old->entries, old->nr_entries * LDT_ENTRY_SIZE);
		ldt_release(old);
	}
	mm->ldt = l;
	return 0;
}

/* DS and ES hold their descriptors from the last load: reload them from the new table. */
static void refresh_data_segments(void)
{
	uint16_t s = seg_read_ds();

	if (s & SEL_TI_LDT)
		seg_load_ds(s);
	s = seg_read_es();
	if (s & SEL_TI_LDT)
		seg_load_es(s);
}

static long ldt_write(uint64_t uptr, uint64_t bytecount, bool oldmode)
{
	struct mm *mm = current->mm;
	struct user_desc u;
	uint64_t d = 0;
	int err;

	if (bytecount != sizeof(u))
		return -EINVAL;
	if (copy_from_user(&u, uptr, sizeof(u)))
		return -EFAULT;
	if (u.entry_number >= LDT_ENTRIES)
		return -EINVAL;
	if (((u.flags >> UD_CONTENTS_SHIFT) & 3) == 3 &&
	    (oldmode || !(u.flags & UD_SEG_NOT_PRESENT)))
		return -EINVAL;
	if (!((oldmode && !u.base_addr && !u.limit) || ud_empty(&u))) {
		d = desc_encode(&u);
		if (oldmode)
			d &= ~DESC_AVL;
	}
	err = ldt_grow(mm, u.entry_number + 1);
	if (err)
		return err;
	mm->ldt->entries[u.entry_number] = d;
	ldt_load(mm);
	espfix_track(current);
	refresh_data_segments();
	return 0;
}

static long ldt_read(uint64_t uptr, uint64_t bytecount)
{
	const struct ldt *l = current->mm->ldt;
	uint64_t size;

	if (!l)
		return 0;
	if (bytecount > LDT_ENTRIES * LDT_ENTRY_SIZE)
		bytecount = LDT_ENTRIES * LDT_ENTRY_SIZE;
	size = (uint64_t)l->nr_entries * LDT_ENTRY_SIZE;
	if (size > bytecount)
		size = bytecount;
	if (copy_to_user(uptr, l->entries, size))
		return -EFAULT;
	if (size != bytecount && clear_user(uptr + size, bytecount - size))
		return -EFAULT;
	return (long)bytecount;
}

static long ldt_read_default(uint64_t uptr, uint64_t bytecount)
{
	if (bytecount > DEFAULT_LDT_BYTES)
		bytecount = DEFAULT_LDT_BYTES;
	return clear_user(uptr, bytecount) ?: (long)bytecount;
}

SYSCALL_DEFINE3(modify_ldt, int, func, uint64_t, ptr, uint64_t, bytecount)
{
	long ret;

	switch (func) {
	case 0:
		ret = ldt_read(ptr, bytecount);
		break;
	case 1:
		ret = ldt_write(ptr, bytecount, true);
		break;
	case 2:
		ret = ldt_read_default(ptr, bytecount);
		break;
	case 0x11:
		ret = ldt_write(ptr, bytecount, false);
		break;
	default:
		ret = -ENOSYS;
		break;
	}
	return (long)(uint32_t)(int)ret;
}

bool ldt_segment_base(uint16_t sel, uint32_t *base)
{
	const struct ldt *l = current && current->mm ? current->mm->ldt : 0;
	unsigned idx = sel >> 3;

	if (!(sel & SEL_TI_LDT)) {
		*base = 0;
		return idx && idx < GDT_ENTRIES;
	}
	if (!l || idx >= l->nr_entries || !(l->entries[idx] & DESC_S))
		return false;
	*base = desc_base(l->entries[idx]);
	return true;
}
