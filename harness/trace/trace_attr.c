/*
 * Attribution of the traced instructions: privilege level and symbol.
 *
 * QEMU 7.2's plugin API shows no CPU state, so the privilege level comes
 * from the address: the guest runs user code only in the user half (below
 * 0x0000800000000000) and in the vsyscall page (0xffffffffff600000, mapped
 * user-executable and run at CPL 3 in vsyscall=native); everything else is
 * kernel code.  Symbols come from the tables given, tried in order; what
 * none of them covers is named by its region.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

enum el_trace_space trace_space(uint64_t vaddr)
{
	if (vaddr < EL_TRACE_USER_END)
		return EL_TRACE_USER;
	if (vaddr >= EL_TRACE_VSYSCALL && vaddr < EL_TRACE_VSYSCALL_END)
		return EL_TRACE_USER;
	return EL_TRACE_KERNEL;
}

/* The vsyscall page's three entry points, 1 KiB apart (guest-kernel/vsyscall). */
static const char *const vsyscall_slots[] = {"gettimeofday", "time", "getcpu", "(unused)"};

void trace_where(const struct el_trace_maps *m, uint64_t vaddr, struct el_trace_where *w)
{
	memset(w, 0, sizeof(*w));
	if (vaddr >= EL_TRACE_VSYSCALL && vaddr < EL_TRACE_VSYSCALL_END) {
		w->image = "vsyscall";
		snprintf(w->name, sizeof(w->name), "[vsyscall] %s",
			 vsyscall_slots[(vaddr - EL_TRACE_VSYSCALL) >> 10]);
		w->off = (vaddr - EL_TRACE_VSYSCALL) & 0x3ff;
		return;
	}
	for (unsigned i = 0; i < m->n; i++) {
		const struct el_sym *s;

		if (!m->tabs[i])
			continue;
		if (!(s = symtab_lookup(m->tabs[i], vaddr, &w->off))) {
			/* A vDSO's static functions have no symbol in its .dynsym: "[vdso]". */
			if (!strcmp(m->tabs[i]->image, "vdso") && symtab_covers(m->tabs[i], vaddr)) {
				w->image = "vdso";
				w->off = 0;
				snprintf(w->name, sizeof(w->name), "[vdso]");
				return;
			}
			continue;
		}
		w->image = m->tabs[i]->image;
		snprintf(w->name, sizeof(w->name), "%s", s->name);
		return;
	}
	w->image = "unknown";
	w->off = 0;
	snprintf(w->name, sizeof(w->name), "[unknown %s]",
		 trace_space(vaddr) == EL_TRACE_USER ? "user" : "kernel");
}

static int by_count(const void *a, const void *b)
{
	const struct el_trace_symcount *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->image, y->image);
}

static int by_name(const void *a, const void *b)
{
	const struct el_trace_symcount *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->image, y->image);
}

int trace_totals(const struct el_trace_data *d, const struct el_trace_maps *m,
		 struct el_trace_totals *t)
{
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->syms = calloc(d->n ? d->n : 1, sizeof(*t->syms));
	if (!t->syms)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		struct el_trace_where w;
		enum el_trace_space sp = trace_space(d->insns[i].vaddr);

		if (sp == EL_TRACE_USER)
			t->user += d->insns[i].count;
		else
			t->kernel += d->insns[i].count;
		trace_where(m, d->insns[i].vaddr, &w);
		snprintf(t->syms[n].name, sizeof(t->syms[n].name), "%s", w.name);
		t->syms[n].image = w.image;
		t->syms[n].space = sp;
		t->syms[n].count = d->insns[i].count;
		n++;
	}
	/* One entry per (name, image): sort by name, fold neighbours. */
	qsort(t->syms, n, sizeof(*t->syms), by_name);
	for (size_t i = 0; i < n; i++) {
		if (t->nsyms && !by_name(&t->syms[t->nsyms - 1], &t->syms[i]))
			t->syms[t->nsyms - 1].count += t->syms[i].count;
		else if (t->nsyms++ != i)
			t->syms[t->nsyms - 1] = t->syms[i];
	}
	qsort(t->syms, t->nsyms, sizeof(*t->syms), by_count);
	return 0;
}

void trace_totals_free(struct el_trace_totals *t)
{
	free(t->syms);
	t->syms = NULL;
	t->nsyms = 0;
}
