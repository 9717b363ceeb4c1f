/*
 * How `entrylab trace` names and splits what ran: symbols of the embedded
 * kernel, benchmark and vDSO images (labels inside C functions do not split
 * them, aliases resolve to one name), the static-PIE load bias, privilege
 * by address, the per-symbol sums, and the QEMU -cpu and guest command line
 * a request turns into.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <string.h>

#include "bench.h"
#include "blobs.h"
#include "host_elf.h"
#include "trace.h"

#define KERNEL entrylab_kernel, (size_t)(entrylab_kernel_end - entrylab_kernel)

Test(trace_syms, kernel_markers_and_labels)
{
	struct el_symtab k;
	const struct el_sym *s;
	char err[256];
	uint64_t begin = elf_symbol_value(KERNEL, "el_region_begin_out");
	uint64_t end = elf_symbol_value(KERNEL, "el_region_end_out");
	uint64_t entry = elf_symbol_value(KERNEL, "entry_SYSCALL_64"), off;

	cr_assert(begin && end, "marker labels missing (guest-kernel/sys/region.c)");
	cr_assert_eq(symtab_load(&k, "kernel", KERNEL, 0, err, sizeof(err)), 0, "%s", err);
	s = symtab_lookup(&k, begin, &off);
	cr_assert(s);
	cr_expect(s->sized_func, "the marker is inside a C function");
	cr_expect_str_neq(s->name, "el_region_begin_out", "a label must not split its function");
	cr_expect_eq(s->addr + off, begin);
	if (entry) {
		s = symtab_lookup(&k, entry + 3, &off);
		cr_assert(s);
		cr_expect_str_eq(s->name, "entry_SYSCALL_64", "labels extend to the next");
		cr_expect_eq(off, 3);
	}
	cr_expect_null(symtab_lookup(&k, 0x401000, &off), "user addresses are not the kernel's");
	symtab_free(&k);
}

Test(trace_syms, program_and_vdso)
{
	const struct el_bench *b = bench_find("gettid");
	uint64_t lo = elf_symbol_value(KERNEL, "vdso_image_lfence_branch");
	uint64_t hi = elf_symbol_value(KERNEL, "vdso_image_lfence_branch_end"), off, cgt;
	const unsigned char *img;
	struct el_symtab p, v;
	const struct el_sym *s;
	char err[256];

	cr_assert(b);
	cr_expect_eq(elf_program_bias(b->image, b->image_len), 0, "static non-PIE: no bias");
	cr_assert_eq(symtab_load(&p, "program", b->image, b->image_len, 0, err, sizeof(err)), 0);
	s = symtab_lookup(&p, elf_symbol_value(b->image, b->image_len, "main") + 1, &off);
	cr_assert(s);
	cr_expect_str_eq(s->name, "main");
	symtab_free(&p);

	cr_assert(lo && hi > lo);
	img = elf_vaddr_bytes(KERNEL, lo, hi - lo);
	cr_assert(img, "the embedded vDSO image lies in the kernel file");
	cr_assert_eq(symtab_load(&v, "vdso", img, hi - lo, 0x7ffff7ffd000ull, err, sizeof(err)), 0,
		     "%s", err);
	cgt = elf_symbol_value(img, hi - lo, "__vdso_clock_gettime");
	cr_assert(cgt);
	s = symtab_lookup(&v, 0x7ffff7ffd000ull + cgt, &off);
	cr_assert(s);
	cr_expect_str_eq(s->name, "__vdso_clock_gettime", "the global, not its weak alias");
	symtab_free(&v);
}

Test(trace_syms, static_pie_bias)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
	} f = {0};

	memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
	f.eh.e_ident[EI_CLASS] = ELFCLASS64;
	f.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	f.eh.e_ident[EI_VERSION] = EV_CURRENT;
	f.eh.e_type = ET_DYN;
	f.eh.e_machine = EM_X86_64;
	f.eh.e_version = EV_CURRENT;
	f.eh.e_phoff = sizeof(f.eh);
	f.eh.e_ehsize = sizeof(f.eh);
	f.eh.e_phentsize = sizeof(f.ph);
	f.eh.e_phnum = 1;
	f.ph.p_type = PT_LOAD;
	f.ph.p_flags = PF_R | PF_X;
	f.ph.p_filesz = f.ph.p_memsz = sizeof(f);
	f.ph.p_align = 0x1000;
	cr_expect_eq(elf_program_bias(&f, sizeof(f)), 0x555555554000ull, "as the guest places it");
	f.eh.e_type = ET_EXEC;
	cr_expect_eq(elf_program_bias(&f, sizeof(f)), 0);
}

Test(trace_attr, space_by_address)
{
	cr_expect_eq(trace_space(0x401000), EL_TRACE_USER);
	cr_expect_eq(trace_space(0x00007fffffffffffull), EL_TRACE_USER);
	cr_expect_eq(trace_space(0x0000800000000000ull), EL_TRACE_KERNEL);
	cr_expect_eq(trace_space(0xffffffff80101480ull), EL_TRACE_KERNEL);
	cr_expect_eq(trace_space(0xffffffffff600400ull), EL_TRACE_USER, "vsyscall runs at CPL 3");
	cr_expect_eq(trace_space(0xffffffffff601000ull), EL_TRACE_KERNEL);
}

Test(trace_attr, totals_fold_and_sort)
{
	struct el_trace_insn in[] = {
		{.vaddr = 0x401000, .count = 5},
		{.vaddr = 0x401004, .count = 5},
		{.vaddr = 0xffffffffff600400ull, .count = 3},
		{.vaddr = 0xffff888000001000ull, .count = 20},
	};
	struct el_trace_data d = {.insns = in, .n = 4};
	struct el_trace_maps m = {0};
	struct el_trace_totals t;

	cr_assert_eq(trace_totals(&d, &m, &t), 0);
	cr_expect_eq(t.user, 13);
	cr_expect_eq(t.kernel, 20);
	cr_assert_eq(t.nsyms, 3);
	cr_expect_str_eq(t.syms[0].name, "[unknown kernel]");
	cr_expect_str_eq(t.syms[1].name, "[unknown user]");
	cr_expect_eq(t.syms[1].count, 10, "one entry per symbol");
	cr_expect_str_eq(t.syms[2].name, "[vsyscall] time");
	cr_expect_str_eq(t.syms[2].image, "vsyscall");
	trace_totals_free(&t);
}

Test(trace_qemu, cpu_and_cmdline)
{
	struct el_cpu_request req;
	char out[512], err[256];

	cr_assert_eq(cpuid_spec_parse("host,+smep,-pge", &req, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(trace_qemu_cpu(&req, out, sizeof(out), err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(out, "max,pge=off,smep=on,enforce");
	cr_assert_eq(cpuid_spec_parse("host,-arch-perfmon", &req, err, sizeof(err)), 0);
	cr_assert_eq(trace_qemu_cpu(&req, out, sizeof(out), err, sizeof(err)), 0);
	cr_expect_str_eq(out, "max,pmu=off,enforce");
	cr_assert_eq(cpuid_spec_parse("host,+arch-perfmon", &req, err, sizeof(err)), 0);
	cr_expect_eq(trace_qemu_cpu(&req, out, sizeof(out), err, sizeof(err)), -1);
	cr_expect(strstr(err, "+arch-perfmon") && strstr(err, "PMU"), "%s", err);

	cr_assert_eq(trace_guest_cmdline(out, sizeof(out), "pti=on", "\"100\"", err,
					 sizeof(err)), 0);
	cr_expect_str_eq(out, "pti=on el.tsc_khz=1000000 el.epoch_ns=1704067200000000000 -- \"100\"");
	cr_assert_eq(trace_guest_cmdline(out, sizeof(out), "", NULL, err, sizeof(err)), 0);
	cr_expect_str_eq(out, "el.tsc_khz=1000000 el.epoch_ns=1704067200000000000");
	cr_expect_eq(trace_guest_cmdline(out, 16, "pti=on", NULL, err, sizeof(err)), -1);
}
