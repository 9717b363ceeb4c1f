/*
 * Counting completed instructions.  TCG runs plugin code before an
 * instruction, so what it offers is "about to execute": an instruction that
 * faults (a load taking a page fault) would count twice, once for the
 * attempt and once after the handler returns.  eltrace credits an
 * instruction when its successor starts instead.  Inside a translation block
 * the inline add placed before instruction i+1 credits instruction i (no
 * call); the block's last instruction leaves itself pending (one call) and
 * the next block to start credits it (one call per block).  A faulting
 * instruction never reaches its successor: the handler's block starts with
 * nothing pending.  QEMU runs a REP string instruction one iteration per
 * block execution, each a new block at the same address: it is credited
 * only when a block starts elsewhere, once, as the CPU retires it.
 *
 * Two ways QEMU 7.2 runs an instruction without the callbacks a block gave it:
 * - MMIO (the APIC's EOI and ICR stores): under -icount an access to an I/O
 *   region is allowed only in a block's last instruction, so the store in
 *   the middle of a block stops it (cpu_io_recompile), and QEMU re-runs that
 *   one instruction as a block of its own translated with CF_MEMI_ONLY:
 *   memory callbacks only, no block or instruction callbacks.  So a
 *   one-instruction block translated right after a block holding the same
 *   instruction started (which is when QEMU makes the re-run block) also
 *   gets a memory callback: if nothing is pending it leaves its instruction
 *   pending, and the next block credits it (on_mem).
 * - A page-crossing instruction that is not the first of its block: the
 *   x86 translator abandons it (advance_pc -> siglongjmp) and ends the block
 *   before it, but the plugin has already seen it: the block's last
 *   instruction is then a phantom with the bytes up to the page end, and the
 *   callbacks placed on it are dropped with its code.  When the last
 *   instruction ends on a page boundary the last two are instrumented with
 *   calls (pending = self, the one before credited by the call), so a phantom
 *   leaves the real last instruction pending.  The real page-crossing
 *   instruction starts the next block, whole.
 *
 * The windows: at the BEGIN marker every counter is snapshot, at END the
 * differences are added up.  QEMU 7.2 emits an instruction's calls before
 * its inline ops, and calls in the order they were registered, so at a
 * marker the predecessor's credit is still to come; the marker callbacks
 * account for it.  In sites mode (eltrace.c) a BEGIN site's SYSCALL only
 * arms the window; it opens when a block starts at the SYSCALL's return
 * address (SYSRET, or IRET, ends the kernel's block there), after that
 * block start credited the kernel's last instruction, so the window holds
 * the user code from the return on.  For the whole program on our kernel
 * (USER) the BEGIN OUT only arms it too: it opens at the first block that
 * starts at a user address, after that block start credited the kernel's
 * last instruction (the IRET or SYSRET into the program).  At a Linux
 * program's entry point (ENTRY) it opens as at an OUT, before the entry
 * instruction, which it holds.  count_finish() checks the result.
 */
#include <stdlib.h>

#include "eltrace.h"

/* One translation: where it starts, its instructions (for the listing's order). */
struct tb_info {
	uint64_t vaddr;
	bool seen; /* ran inside a window already */
	size_t n;
	struct insn *insns[];
};

static struct insn *pending;
static struct tb_info *cur_tb; /* the block whose start ran last */

static bool tb_has(const struct tb_info *t, const struct insn *e)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->insns[i] == e)
			return true;
	return false;
}

/* Every counter snapshot: the window starts here. */
static void window_open(void)
{
	for (struct insn *e = st.all; e; e = e->next)
		e->snap = e->count;
	st.open = true;
	st.opened++;
}

static void on_tb_start(unsigned int vcpu, void *udata)
{
	struct tb_info *t = udata;

	(void)vcpu;
	if (pending && !(pending->rep_string && pending->vaddr == t->vaddr))
		pending->count++;
	pending = NULL;
	cur_tb = t;
	/* Sites: the BEGIN SYSCALL returned; its return address starts this block. */
	if (st.armed && t->vaddr == st.armed) {
		st.armed = 0;
		if (!st.open)
			window_open();
	}
	/* Whole program: the first user block once the BEGIN OUT ran. */
	if (st.armed_user && t->vaddr < USER_END) {
		st.armed_user = false;
		if (!st.open)
			window_open();
	}
	if (!st.listing || !st.open || t->seen)
		return;
	t->seen = true;
	for (size_t i = 0; i < t->n; i++)
		if (!t->insns[i]->first)
			t->insns[i]->first = ++st.rank;
}

static void on_last(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	pending = udata;
}

/* After a page-boundary end: credits the one before (pending), leaves itself pending. */
static void on_step(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	if (pending)
		pending->count++;
	pending = udata;
}

/*
 * The MMIO instruction re-run alone: the block that stopped at it is the
 * last one started, and nothing is pending (its tail callbacks did not run).
 * QEMU 7.2 also calls a memory callback for accesses made by helpers
 * (IRET, exception delivery) when the last instrumented instruction that
 * called a helper left its callbacks installed; such stale calls fail the
 * checks and change nothing.
 */
static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)vcpu, (void)info, (void)vaddr;
	if (!pending && tb_has(cur_tb, udata))
		pending = udata;
}

static void on_begin(unsigned int vcpu, void *udata)
{
	struct insn *pred = udata;

	(void)vcpu;
	st.begun++;
	if (st.open)
		return;
	/* The whole program: the window opens at the first user block (on_tb_start). */
	if (st.kind == WINDOW_USER) {
		st.armed_user = true;
		return;
	}
	window_open();
	/* It completed before the window; its credit arrives right after this call. */
	if (pred)
		pred->snap++;
}

/* A BEGIN site's SYSCALL: the window opens where it returns (on_tb_start). */
static void on_site_begin(unsigned int vcpu, void *udata)
{
	const struct insn *e = udata;

	(void)vcpu;
	st.begun++;
	if (!st.open)
		st.armed = e->vaddr + e->size;
}

static void on_end(unsigned int vcpu, void *udata)
{
	struct insn *pred = udata;

	(void)vcpu;
	if (!st.open)
		return;
	for (struct insn *e = st.all; e; e = e->next)
		e->window += e->count - e->snap;
	/* It completed inside the window; its credit arrives right after this call. */
	if (pred)
		pred->window++;
	st.open = false;
	st.windows++;
}

/* A marker's callback on e, if e is one of the window's markers (eltrace.h). */
static void instrument_marker(struct qemu_plugin_insn *qi, struct insn *e, struct insn *prev)
{
	const enum qemu_plugin_cb_flags nr = QEMU_PLUGIN_CB_NO_REGS;
	bool begin, end;

	switch (st.kind) {
	case WINDOW_SITES:
		if (insn_is_site(e, st.begin_site, st.nbegin))
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_site_begin, nr, e);
		else if (insn_is_site(e, st.end_site, st.nend))
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_end, nr, prev);
		return;
	case WINDOW_ENTRY:
		begin = mark_matches(&st.begin, e);
		end = mark_matches(&st.end, e);
		break;
	default:
		begin = e->vaddr == st.begin.vaddr;
		end = e->vaddr == st.end.vaddr;
		break;
	}
	if (begin)
		qemu_plugin_register_vcpu_insn_exec_cb(qi, on_begin, nr, prev);
	else if (end)
		qemu_plugin_register_vcpu_insn_exec_cb(qi, on_end, nr, prev);
}

/* Does the instruction end exactly on a 4 KiB boundary (a possible phantom, see above)? */
static bool ends_on_page(const struct insn *e)
{
	return ((e->vaddr + e->size) & 0xfff) == 0;
}

void count_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), tail;
	struct tb_info *t;

	(void)id;
	if (st.failed || !n)
		return;
	t = calloc(1, sizeof(*t) + n * sizeof(t->insns[0]));
	if (!t) {
		st.failed = true;
		return;
	}
	t->vaddr = qemu_plugin_tb_vaddr(tb);
	t->n = n;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_start, QEMU_PLUGIN_CB_NO_REGS, t);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
		struct insn *e = insn_get(qi);

		if (!e) {
			st.failed = true;
			return;
		}
		t->insns[i] = e;
	}
	/* From `tail` on: the last instruction, or the last two before a page boundary. */
	tail = n >= 2 && ends_on_page(t->insns[n - 1]) ? n - 2 : n - 1;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, i);
		struct insn *e = t->insns[i], *prev = i ? t->insns[i - 1] : NULL;

		/* Registered first: the predecessor's credit (inline or on_step) comes after. */
		instrument_marker(qi, e, prev);
		if (i > tail) {
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_step, QEMU_PLUGIN_CB_NO_REGS,
							       e);
			continue;
		}
		if (i == tail)
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_last, QEMU_PLUGIN_CB_NO_REGS,
							       e);
		if (prev)
			qemu_plugin_register_vcpu_insn_exec_inline(qi, QEMU_PLUGIN_INLINE_ADD_U64,
								   &prev->count, 1);
	}
	/* Only where it can be the MMIO re-run: right after a block holding it started. */
	if (n == 1 && !t->insns[0]->rep_string && tb_has(cur_tb, t->insns[0]))
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, 0), on_mem,
						 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
						 t->insns[0]);
}

void count_finish(void)
{
	if (pending)
		pending->count++;
	pending = NULL;
	/* A region still open at the end (the guest died in it): count up to here. */
	for (struct insn *e = st.all; e; e = e->next) {
		if (st.open)
			e->window += e->count - e->snap;
		/* A window can hold no more than the run: else the ordering assumption broke. */
		if (e->window > e->count)
			st.failed = true;
	}
}
