/*
 * The `--guest linux` initrd (vmm/initrd_linux.c): the layout of
 * include/entrylab/linux_init.h, read back with the guest kernel's own
 * cpio reader.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/stat.h>

#include "array_size.h"
#include "entrylab/linux_init.h"
#include "guest-kernel/fs/cpio_parse.h"
#include "blobs.h"
#include "host_elf.h"
#include "initrd.h"
#include "initrd_linux.h"

struct want {
	const char *name;
	unsigned mode;
	const void *data;
	size_t size;
	int seen;
};

static void check_archive(const struct el_cpio *c, struct want *w, size_t nw)
{
	struct cpio_entry e;
	size_t off = 0;
	enum cpio_status st;

	while ((st = cpio_next(c->buf, c->len, &off, &e)) == CPIO_OK) {
		size_t i;

		for (i = 0; i < nw; i++)
			if (!strcmp(e.name, w[i].name))
				break;
		cr_assert_lt(i, nw, "unexpected entry '%s'", e.name);
		cr_expect_eq(w[i].seen, 0, "'%s' twice", e.name);
		w[i].seen = 1;
		cr_expect_eq(e.mode, w[i].mode, "'%s' mode 0%o", e.name, e.mode);
		if (S_ISREG(w[i].mode)) {
			cr_expect_eq(e.size, w[i].size, "'%s' size %llu", e.name,
				     (unsigned long long)e.size);
			cr_expect(!memcmp(e.data, w[i].data, w[i].size), "'%s' content", e.name);
		}
	}
	cr_expect_eq(st, CPIO_END, "%s", cpio_strerror(st));
	for (size_t i = 0; i < nw; i++)
		cr_expect(w[i].seen, "no '%s'", w[i].name);
}

Test(initrd_linux, layout_of_the_contract)
{
	static const unsigned char init[] = "\177ELFinit", prog[] = "\177ELFprogram";
	char *argv[] = {"1G", "", "with space"};
	static const char args[] = "1G\0\0with space";
	static const char conf[] = "events=0x3003c\nksyms=1\n";
	struct want w[] = {
		{"dev", S_IFDIR | 0755, NULL, 0, 0},
		{"proc", S_IFDIR | 0755, NULL, 0, 0},
		{"sys", S_IFDIR | 0755, NULL, 0, 0},
		{"tmp", S_IFDIR | 0755, NULL, 0, 0},
		{"entrylab", S_IFDIR | 0755, NULL, 0, 0},
		{"init", S_IFREG | 0755, init, sizeof(init), 0},
		{EL_LINUX_PROGRAM + 1, S_IFREG | 0755, prog, sizeof(prog), 0},
		{EL_LINUX_ARGV + 1, S_IFREG | 0644, args, sizeof(args), 0},
		{EL_LINUX_CONF + 1, S_IFREG | 0644, conf, sizeof(conf) - 1, 0},
	};
	struct el_cpio c;

	el_cpio_init(&c);
	cr_assert_eq(initrd_build_linux(&c, init, sizeof(init), prog, sizeof(prog), argv, 3, conf),
		     0, "%s", c.error);
	check_archive(&c, w, EL_ARRAY_SIZE(w));
	el_cpio_free(&c);
}

Test(initrd_linux, no_arguments_no_conf)
{
	static const unsigned char init[] = "i", prog[] = "p";
	struct want w[] = {
		{"dev", S_IFDIR | 0755, NULL, 0, 0},
		{"proc", S_IFDIR | 0755, NULL, 0, 0},
		{"sys", S_IFDIR | 0755, NULL, 0, 0},
		{"tmp", S_IFDIR | 0755, NULL, 0, 0},
		{"entrylab", S_IFDIR | 0755, NULL, 0, 0},
		{"init", S_IFREG | 0755, init, 1, 0},
		{EL_LINUX_PROGRAM + 1, S_IFREG | 0755, prog, 1, 0},
		{EL_LINUX_ARGV + 1, S_IFREG | 0644, "", 0, 0},
		{EL_LINUX_CONF + 1, S_IFREG | 0644, "", 0, 0},
	};
	struct el_cpio c;

	el_cpio_init(&c);
	cr_assert_eq(initrd_build_linux(&c, init, 1, prog, 1, NULL, 0, NULL), 0, "%s", c.error);
	check_archive(&c, w, EL_ARRAY_SIZE(w));
	el_cpio_free(&c);
}

/* No program: a boot only, and /init finds no EL_LINUX_PROGRAM (linux_init.h). */
Test(initrd_linux, boot_only_has_no_program)
{
	static const unsigned char init[] = "i";
	struct want w[] = {
		{"dev", S_IFDIR | 0755, NULL, 0, 0},
		{"proc", S_IFDIR | 0755, NULL, 0, 0},
		{"sys", S_IFDIR | 0755, NULL, 0, 0},
		{"tmp", S_IFDIR | 0755, NULL, 0, 0},
		{"entrylab", S_IFDIR | 0755, NULL, 0, 0},
		{"init", S_IFREG | 0755, init, 1, 0},
		{EL_LINUX_ARGV + 1, S_IFREG | 0644, "", 0, 0},
		{EL_LINUX_CONF + 1, S_IFREG | 0644, "", 0, 0},
	};
	struct el_cpio c;

	el_cpio_init(&c);
	cr_assert_eq(initrd_build_linux(&c, init, 1, NULL, 0, NULL, 0, NULL), 0, "%s", c.error);
	check_archive(&c, w, EL_ARRAY_SIZE(w));
	el_cpio_free(&c);
}

Test(initrd_linux, bad_argc_refused)
{
	struct el_cpio c;

	el_cpio_init(&c);
	cr_expect_eq(initrd_build_linux(&c, (const unsigned char *)"i", 1,
					(const unsigned char *)"p", 1, NULL, 2, NULL), -1);
	cr_expect(c.error[0]);
	el_cpio_free(&c);
}

Test(initrd_linux, embedded_init_is_static_and_far_from_the_programs)
{
	size_t len = (size_t)(entrylab_linux_init_end - entrylab_linux_init);
	char err[256], why[256];
	GElf_Ehdr eh;
	size_t nph;
	Elf *e;

	cr_assert_gt(len, 4096, "entrylab_linux_init is %zu bytes", len);
	cr_assert_eq(exec_check(entrylab_linux_init, len, err, sizeof(err)), 0, "%s", err);
	e = host_elf_open(entrylab_linux_init, len, why, sizeof(why));
	cr_assert(e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &nph), "%s", why);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		cr_assert(gelf_getphdr(e, (int)i, &ph));
		if (ph.p_type == PT_LOAD)
			cr_expect_geq(ph.p_vaddr, 0x10000000u,
				      "/init loads at 0x%llx, among the benchmarks' addresses",
				      (unsigned long long)ph.p_vaddr);
	}
	elf_end(e);
}

/* Where a trace closes Linux's whole-program window: right after /init's wait4 SYSCALL. */
Test(initrd_linux, embedded_init_has_the_whole_program_end_after_a_syscall)
{
	size_t len = (size_t)(entrylab_linux_init_end - entrylab_linux_init);
	uint64_t at = elf_symbol_value(entrylab_linux_init, len, EL_LINUX_WHOLE_END_SYMBOL);
	const unsigned char *b;

	cr_assert_neq(at, 0, "no %s in the embedded /init", EL_LINUX_WHOLE_END_SYMBOL);
	cr_expect_geq(at, 0x10000000u, "not in /init's own text");
	b = elf_vaddr_bytes(entrylab_linux_init, len, at - 2, 3);
	cr_assert_not_null(b, "0x%llx is not in a loaded segment", (unsigned long long)at);
	cr_expect(b[0] == 0x0f && b[1] == 0x05, "%s does not follow a SYSCALL",
		  EL_LINUX_WHOLE_END_SYMBOL);
}
