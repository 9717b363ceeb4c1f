/*
 * eltrace's instruction table: entries keyed by virtual address, the host
 * address of the bytes (so two programs' code at one virtual address never
 * mixes) and the bytes themselves, read again on every translation: code
 * rewritten in place (a frame reused for another program, a patched
 * instruction) gets an entry of its own with its own bytes and disassembly,
 * and so does the partial phantom of a page-crossing instruction
 * (eltrace_count.c), which never runs and is never listed.  Never freed,
 * because TCG-generated code holds pointers to their counters for as long
 * as the translation lives.
 */
#include <stdlib.h>
#include <string.h>

#include "eltrace.h"

static size_t hash(uint64_t vaddr, const void *haddr)
{
	uint64_t h = vaddr * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(uintptr_t)haddr * 0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ h >> 29) & (st.nbuckets - 1);
}

static bool grow(void)
{
	size_t n = st.nbuckets ? st.nbuckets * 2 : 1u << 14;
	struct insn **b = calloc(n, sizeof(*b));

	if (!b)
		return false;
	free(st.bucket);
	st.bucket = b;
	st.nbuckets = n;
	for (struct insn *e = st.all; e; e = e->next) {
		size_t h = hash(e->vaddr, e->haddr);

		e->chain = b[h];
		b[h] = e;
	}
	return true;
}

/* Prefixes, then one of the string opcodes (MOVS CMPS STOS LODS SCAS INS OUTS), with F2/F3. */
static bool is_rep_string(const uint8_t *b, unsigned n)
{
	bool rep = false;

	for (unsigned i = 0; i < n; i++) {
		uint8_t c = b[i];

		if (c == 0xf2 || c == 0xf3)
			rep = true;
		else if (c == 0x66 || c == 0x67 || c == 0x26 || c == 0x2e || c == 0x36 ||
			 c == 0x3e || c == 0x64 || c == 0x65 || (c & 0xf0) == 0x40)
			continue;
		else
			return rep && ((c >= 0xa4 && c <= 0xa7) || (c >= 0xaa && c <= 0xaf) ||
				       (c >= 0x6c && c <= 0x6f));
	}
	return false;
}

struct insn *insn_get(const struct qemu_plugin_insn *qi)
{
	uint64_t vaddr = qemu_plugin_insn_vaddr(qi);
	const void *haddr = qemu_plugin_insn_haddr(qi);
	const uint8_t *bytes = qemu_plugin_insn_data(qi);
	size_t h, size = qemu_plugin_insn_size(qi);
	struct insn *e;

	if (size > MAX_INSN_BYTES)
		size = MAX_INSN_BYTES;
	if (st.nbuckets) {
		for (e = st.bucket[hash(vaddr, haddr)]; e; e = e->chain)
			if (e->vaddr == vaddr && e->haddr == haddr && e->size == size &&
			    !memcmp(e->bytes, bytes, size))
				return e;
	}
	if (st.ninsns >= st.nbuckets && !grow())
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->vaddr = vaddr;
	e->haddr = haddr;
	e->size = (uint8_t)size;
	memcpy(e->bytes, bytes, size);
	e->rep_string = is_rep_string(e->bytes, e->size);
	if (st.listing)
		e->disas = qemu_plugin_insn_disas(qi);
	h = hash(vaddr, haddr);
	e->chain = st.bucket[h];
	st.bucket[h] = e;
	e->next = st.all;
	st.all = e;
	st.ninsns++;
	return e;
}
