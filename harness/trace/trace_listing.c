/*
 * `entrylab trace --listing`: every instruction that ran in the region,
 * once, with how often it ran, in the order it first ran, under a heading
 * for each symbol it enters.  Read top to bottom it is the path: the
 * program's loop, the entry code, the handler, the way back.  The "mark"
 * column names the entry code's landmarks (trace_mark.c): CR3 writes,
 * SWAPGS, SYSRET, IRET, WRMSR, INVPCID, INVLPG, fences.
 */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static int by_first(const void *a, const void *b)
{
	const struct el_trace_insn *x = *(const struct el_trace_insn *const *)a;
	const struct el_trace_insn *y = *(const struct el_trace_insn *const *)b;

	/* Never ranked (the plugin saw the window open mid-block): after the rest, by address. */
	if ((x->first == 0) != (y->first == 0))
		return x->first == 0 ? 1 : -1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static void insn_text(const struct el_trace_insn *in, char *buf, size_t len)
{
	size_t used = 0;

	if (in->disas) {
		snprintf(buf, len, "%s", in->disas);
		return;
	}
	/* Without a disassembly (not asked of the plugin): the bytes. */
	buf[0] = '\0';
	for (unsigned i = 0; i < in->size && used + 4 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%02x", i ? " " : ".byte 0x",
					 in->bytes[i]);
}

void trace_listing(FILE *f, const struct el_trace_data *d, const struct el_trace_maps *m,
		   uint64_t iterations)
{
	const struct el_trace_insn **order = malloc((d->n ? d->n : 1) * sizeof(*order));
	char last[160] = "";

	if (!order) {
		fprintf(f, "listing: out of memory\n");
		return;
	}
	for (size_t i = 0; i < d->n; i++)
		order[i] = &d->insns[i];
	qsort(order, d->n, sizeof(*order), by_first);
	fprintf(f, "\nlisting: each instruction of the region once, in the order it first ran"
		   "\n  %12s%s  %-16s  %-8s  %-8s %s\n", "count", iterations ? "  per iter" : "",
		"address", "offset", "mark", "instruction");
	for (size_t i = 0; i < d->n; i++) {
		const struct el_trace_insn *in = order[i];
		struct el_trace_where w;
		char head[160], text[128];

		trace_where(m, in->vaddr, &w);
		snprintf(head, sizeof(head), "[%s] %s", w.image, w.name);
		if (strcmp(head, last)) {
			fprintf(f, "%s\n", head);
			snprintf(last, sizeof(last), "%s", head);
		}
		insn_text(in, text, sizeof(text));
		fprintf(f, "  %12llu", (unsigned long long)in->count);
		if (iterations)
			fprintf(f, "  %8.2f", (double)in->count / (double)iterations);
		fprintf(f, "  %016llx  +0x%-5llx  %-8s %s\n", (unsigned long long)in->vaddr,
			(unsigned long long)w.off, trace_insn_mark(in->bytes, in->size), text);
	}
	free(order);
}
