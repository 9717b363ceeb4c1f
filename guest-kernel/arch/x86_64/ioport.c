/*
 * ioperm(2), iopl(2) and the TSS I/O bitmap (ioport.h).
 *
 * A thread's bitmap is 8 KiB of its own (0 = port allowed), shared
 * copy-on-write after fork.  The TSS holds a copy of the running thread's
 * bitmap; each change of a bitmap gets a new sequence number, and the copy
 * is refreshed when the numbers differ, over the bytes either the old or
 * the new bitmap may have allowed (beyond `max` a bitmap is all ones).
 * iopl(3) instead points iomap_base at the TSS's all-zero bitmap, so that
 * a switch between iopl(3) and ioperm threads copies nothing.
 *
 * Permission: CAP_SYS_RAWIO to turn ports on or raise the level: an
 * effective uid of 0 (proc/cred.h).
 */
#include "arch/x86_64/desc.h"
#include "arch/x86_64/ioport.h"
#include "arch/x86_64/ldt.h"
#include "arch/x86_64/segment.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define BITMAP_ORDER 1 /* 8 KiB */
#define IOPL_ALL_PORTS 3
#define INSN_CLI 0xfa
#define INSN_STI 0xfb

struct io_bitmap {
	uint32_t refs;
	uint32_t max;  /* bytes of bits[] that may hold a zero (allowed) bit */
	uint64_t seq;  /* this contents' number: the TSS copy is current when equal */
	uint8_t *bits; /* IO_BITMAP_BYTES */
};
_Static_assert(IO_BITMAP_BYTES == PAGE_SIZE << BITMAP_ORDER, "one order-1 block per bitmap");

static uint64_t seq_last;  /* the last number handed out (0: none) */
static uint64_t tss_seq;   /* the number of the bitmap copied into cpu_tss.io_map */
static uint32_t tss_max;   /* bytes of cpu_tss.io_map that may hold a zero bit */

static bool capable_rawio(void)
{
	return cred_capable(current);
}

static struct io_bitmap *bitmap_alloc(void)
{
	struct io_bitmap *bm = kzalloc(sizeof(*bm));
	uint64_t pa;

	if (!bm)
		return 0;
	pa = frame_alloc_order(BITMAP_ORDER);
	if (!pa) {
		kfree(bm, sizeof(*bm));
		return 0;
	}
	bm->bits = phys_to_virt(pa);
	bm->refs = 1;
	return bm;
}

void io_bitmap_get(struct io_bitmap *bm)
{
	bm->refs++;
}

void io_bitmap_put(struct io_bitmap *bm)
{
	if (!bm || --bm->refs)
		return;
	frame_free_order(virt_to_phys(bm->bits), BITMAP_ORDER);
	kfree(bm, sizeof(*bm));
}

void tss_io_load(const struct task *t)
{
	const struct io_bitmap *bm = t->arch.io_bitmap;

	if (t->arch.iopl == IOPL_ALL_PORTS) {
		tss_set_iomap_base(IO_BITMAP_OFFSET_ALL);
		return;
	}
	if (!bm) {
		tss_set_iomap_base(IO_BITMAP_OFFSET_INVALID);
		return;
	}
	if (bm->seq != tss_seq) {
		memcpy(cpu_tss.io_map, bm->bits, bm->max > tss_max ? bm->max : tss_max);
		tss_seq = bm->seq;
		tss_max = bm->max;
	}
	tss_set_iomap_base(IO_BITMAP_OFFSET_MAP);
}

/* Bytes up to the last 8-byte word with an allowed port; 0 when none is. */
static uint32_t bitmap_extent(const struct io_bitmap *bm)
{
	const uint64_t *w = (const uint64_t *)bm->bits;
	uint32_t i = IO_BITMAP_BYTES / 8;

	while (i && w[i - 1] == ~0ull)
		i--;
	return i * 8;
}

static void bitmap_assign(uint8_t *bits, uint64_t from, uint64_t num, bool allow)
{
	uint64_t p;

	for (p = from; p < from + num; p++) {
		if (allow)
			bits[p / 8] &= (uint8_t)~(1u << (p % 8));
		else
			bits[p / 8] |= (uint8_t)(1u << (p % 8));
	}
}

SYSCALL_DEFINE3(ioperm, uint64_t, from, uint64_t, num, int, turn_on)
{
	bool on = turn_on != 0;
	struct task *t = current;
	struct io_bitmap *bm = t->arch.io_bitmap;

	if (from + num <= from || from + num > IO_BITMAP_BITS)
		return -EINVAL;
	if (on && !capable_rawio())
		return -EPERM;
	if (!bm) {
		if (!on)
			return 0;
		bm = bitmap_alloc();
		if (!bm)
			return -ENOMEM;
		memset(bm->bits, 0xff, IO_BITMAP_BYTES);
	} else if (bm->refs > 1) {
		struct io_bitmap *copy = bitmap_alloc();

		if (!copy)
			return -ENOMEM;
		memcpy(copy->bits, bm->bits, IO_BITMAP_BYTES);
		io_bitmap_put(bm);
		bm = copy;
	}
	t->arch.io_bitmap = bm;
	bitmap_assign(bm->bits, from, num, on);
	bm->max = bitmap_extent(bm);
	if (!bm->max) {
		/* Every permission dropped: no bitmap at all, as Linux frees it. */
		io_bitmap_put(bm);
		t->arch.io_bitmap = 0;
	} else {
		bm->seq = ++seq_last;
	}
	tss_io_load(t);
	return 0;
}

SYSCALL_DEFINE1(iopl, uint32_t, level)
{
	struct task *t = current;

	if (level > 3)
		return -EINVAL;
	if (level == t->arch.iopl)
		return 0;
	if (level > t->arch.iopl && !capable_rawio())
		return -EPERM;
	t->arch.iopl = level;
	tss_io_load(t);
	return 0;
}

bool ioport_fixup_cli_sti(struct trap_frame *tf)
{
	struct task *t = current;
	uint32_t cs_base = 0;
	uint64_t ip;
	uint8_t insn;

	if (!t || t->arch.iopl != IOPL_ALL_PORTS || !trap_from_user(tf))
		return false;
	/* The linear address of the instruction: 32-bit code may have a segment base. */
	if (tf->cs != USER_CS && !ldt_segment_base((uint16_t)tf->cs, &cs_base))
		return false;
	ip = tf->cs == USER_CS ? tf->rip : (uint32_t)(cs_base + (uint32_t)tf->rip);
	if (copy_from_user(&insn, ip, 1) || (insn != INSN_CLI && insn != INSN_STI))
		return false;
	if (!t->arch.iopl_warned) {
		kprintf("%s[%d] attempts to use CLI/STI, pretending it's a NOP, ip:%lx\n", t->comm,
			t->pid, ip);
		t->arch.iopl_warned = true;
	}
	tf->rip += 1;
	return true;
}
