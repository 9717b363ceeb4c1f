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
 * The windows: at the BEGIN marker every counter is snapshot, at END the
 * differences are added up.  QEMU 7.2 emits an instruction's calls before
 * its inline ops, so at a marker the predecessor's credit is still to come;
 * the marker callbacks account for it.  count_finish() checks the result.
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

static void on_tb_start(unsigned int vcpu, void *udata)
{
	struct tb_info *t = udata;

	(void)vcpu;
	if (pending && !(pending->rep_string && pending->vaddr == t->vaddr))
		pending->count++;
	pending = NULL;
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

static void on_begin(unsigned int vcpu, void *udata)
{
	struct insn *pred = udata;

	(void)vcpu;
	if (st.open)
		return;
	for (struct insn *e = st.all; e; e = e->next)
		e->snap = e->count;
	/* It completed before the window; its credit arrives right after this call. */
	if (pred)
		pred->snap++;
	st.open = true;
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

void count_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
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
		struct insn *e = insn_get(qi), *prev = i ? t->insns[i - 1] : NULL;

		if (!e) {
			st.failed = true;
			return;
		}
		t->insns[i] = e;
		if (e->vaddr == st.begin)
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_begin, QEMU_PLUGIN_CB_NO_REGS,
							       prev);
		else if (e->vaddr == st.end)
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_end, QEMU_PLUGIN_CB_NO_REGS,
							       prev);
		if (i == n - 1)
			qemu_plugin_register_vcpu_insn_exec_cb(qi, on_last, QEMU_PLUGIN_CB_NO_REGS,
							       e);
		if (prev)
			qemu_plugin_register_vcpu_insn_exec_inline(qi, QEMU_PLUGIN_INLINE_ADD_U64,
								   &prev->count, 1);
	}
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
