/*
 * Fuzz target: a Linux kernel's symbols as a trace reads them from /init's
 * KSYMS frames or the symbol cache (harness/trace/trace_ksyms.c), guest
 * text: symtab_from_kallsyms() on any bytes, then lookups inside and around
 * what it accepted.  Properties: a refusal says why; an accepted table is
 * sorted, every name NUL-terminated within 127 bytes, its range from the
 * first symbol, and a lookup returns a symbol at or below the address.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct el_symtab t;
	char err[300] = "";
	uint64_t shift = size >= 8 ? (uint64_t)data[0] << 40 : 0, off;

	if (symtab_from_kallsyms(&t, (const char *)data, size, shift, err, sizeof(err))) {
		if (!err[0])
			fuzz_fail("kernel symbols refused without a reason");
		return 0;
	}
	if (!t.n || t.nranges != 1 || t.lo[0] != t.syms[0].addr)
		fuzz_fail("an accepted table without symbols or its range");
	(void)kallsyms_text_base((const char *)data, size);
	for (size_t i = 0; i < t.n; i++) {
		const struct el_sym *s;

		if (strnlen(t.syms[i].name, 128) > 127 || !t.syms[i].name[0])
			fuzz_fail("a symbol name empty or longer than 127 bytes");
		if (i && t.syms[i].addr < t.syms[i - 1].addr)
			fuzz_fail("the table is not sorted");
		s = symtab_lookup(&t, t.syms[i].addr + 1, &off);
		if (s && (s->addr > t.syms[i].addr + 1 || s->addr + off != t.syms[i].addr + 1))
			fuzz_fail("a lookup gave a symbol above the address or a wrong offset");
	}
	symtab_free(&t);
	return 0;
}
