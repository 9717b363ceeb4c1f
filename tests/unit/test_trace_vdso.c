/*
 * Linux's vDSO in a trace (harness/trace/trace_linux.c trace_linux_vdso):
 * the image found inside the kernel file by its ELF header and exports,
 * placed at the page where the user instructions outside the program have
 * its bytes, a few patched bytes allowed.  The kernel here is our own,
 * which embeds vDSO images the same way Linux does.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "blobs.h"
#include "host_elf.h"
#include "trace.h"

/* The first embedded 64-bit ELF that exports __vdso_clock_gettime, as the tracer looks. */
static const unsigned char *first_vdso(size_t *len)
{
	static const unsigned char magic[] = {0x7f, 'E', 'L', 'F', 2, 1};
	const unsigned char *k = entrylab_kernel, *end = entrylab_kernel_end, *p = k + 1;

	while ((p = memmem(p, (size_t)(end - p), magic, sizeof(magic)))) {
		const Elf64_Ehdr *eh = (const void *)p;
		size_t n = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

		if (eh->e_type == ET_DYN && n <= (size_t)(end - p) &&
		    elf_symbol_value(p, n, "__vdso_clock_gettime")) {
			*len = n;
			return p;
		}
		p++;
	}
	return NULL;
}

Test(trace_vdso, placed_by_its_bytes)
{
	struct el_run_spec spec = {.kernel = entrylab_kernel,
				   .kernel_len = (size_t)(entrylab_kernel_end - entrylab_kernel)};
	struct el_trace_linux lx = {0};
	struct el_trace_job job = {.spec = &spec, .lx = &lx};
	struct el_trace_insn insns[24] = {0};
	struct el_trace_data d = {.insns = insns, .n = 24};
	struct el_symtab t;
	const struct el_sym *s;
	size_t len;
	const unsigned char *img = first_vdso(&len);
	uint64_t cgt, base = 0x7fff56184000ull, off;

	cr_assert_not_null(img, "no vDSO image in the kernel");
	cgt = elf_symbol_value(img, len, "__vdso_clock_gettime");
	/* 24 one-byte "instructions" of __vdso_clock_gettime, two of them patched. */
	for (unsigned i = 0; i < 24; i++) {
		insns[i].vaddr = base + cgt + i;
		insns[i].size = 1;
		insns[i].bytes[0] = img[cgt + i] ^ (i == 5 || i == 17 ? 0xff : 0);
		insns[i].count = 1;
	}
	cr_assert_eq(trace_linux_vdso(&job, &d, NULL, &t), 0);
	cr_assert_str_eq(t.image, "vdso");
	s = symtab_lookup(&t, base + cgt + 3, &off);
	cr_assert_not_null(s);
	cr_assert(strstr(s->name, "clock_gettime"), "%s", s->name);
	cr_assert_eq(off, 3);
	symtab_free(&t);
	/* Not the image's bytes: not placed. */
	for (unsigned i = 0; i < 24; i++)
		insns[i].bytes[0] ^= 0x5a;
	cr_assert_eq(trace_linux_vdso(&job, &d, NULL, &t), -1);
	/* A bzImage's vDSO is compressed: none is looked for. */
	lx.bzimage = true;
	cr_assert_eq(trace_linux_vdso(&job, &d, NULL, &t), -1);
}
