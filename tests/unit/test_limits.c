/*
 * The shared limits (common/el_limits.c) and the checked reading of ELF
 * files (common/file_check.c): a size the CLI accepts is one the VMM maps,
 * and a file is refused from its size and headers before it is read whole.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "el_limits.h"
#include "file_check.h"
#include "gpa.h"
#include "program.h"
#include "status.h"

static char dir[64], err[512];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/el-limits-XXXXXX");
	cr_assert(mkdtemp(dir));
}

Test(limits, memory_sizes)
{
	cr_expect_eq(el_limits_mem_check(EL_MEM_MIN, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(el_limits_mem_check(EL_MEM_MAX, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(el_limits_mem_check(256ull << 20, err, sizeof(err)), 0, "%s", err);
	/* -m 16777217: 16 MiB + 1, the case the CLI let through to the VMM */
	cr_expect_neq(el_limits_mem_check(16777217, err, sizeof(err)), 0);
	cr_expect(strstr(err, "not a multiple of 4 KiB"), "%s", err);
	cr_expect(strstr(err, "between 16M and 64G"), "%s", err);
	cr_expect_neq(el_limits_mem_check(EL_MEM_MIN - 4096, err, sizeof(err)), 0);
	cr_expect(strstr(err, "below the minimum"), "%s", err);
	cr_expect_neq(el_limits_mem_check(EL_MEM_MAX + 4096, err, sizeof(err)), 0);
	cr_expect(strstr(err, "above the maximum"), "%s", err);
}

Test(limits, vmm_allocator_agrees_with_the_check)
{
	struct el_mem mem;

	/* The VMM refuses what the check refuses, with the same words. */
	cr_expect_neq(el_mem_alloc(&mem, EL_MEM_MAX + 4096, err, sizeof(err)), 0);
	cr_expect(strstr(err, "between 16M and 64G"), "%s", err);
	cr_expect_neq(el_mem_alloc(&mem, 16777217, err, sizeof(err)), 0);
	cr_expect(strstr(err, "not a multiple of 4 KiB"), "%s", err);
}

/* A minimal valid header: ELF64 LE x86-64, one PT_LOAD of 16 bytes at 0x1000. */
static void tiny_elf(unsigned char *buf, size_t len)
{
	Elf64_Ehdr eh = {
		.e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT},
		.e_type = ET_EXEC,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	Elf64_Phdr ph = {.p_type = PT_LOAD, .p_offset = 0x1000, .p_filesz = 16, .p_memsz = 16};

	memset(buf, 0, len);
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + sizeof(eh), &ph, sizeof(ph));
}

Test(limits, headers)
{
	unsigned char b[0x1010];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	Elf64_Phdr *ph = (Elf64_Phdr *)(b + sizeof(*eh));

	tiny_elf(b, sizeof(b));
	cr_expect_eq(file_check_phdrs(b, (unsigned char *)ph, sizeof(*ph), sizeof(b), err,
				      sizeof(err)),
		     0, "%s", err);
	/* the segment's bytes one past the end of the file */
	cr_expect_neq(file_check_phdrs(b, (unsigned char *)ph, sizeof(*ph), sizeof(b) - 1, err,
				       sizeof(err)),
		      0);
	cr_expect(strstr(err, "segment 0"), "%s", err);
	ph->p_offset = UINT64_MAX - 4; /* offset + size wraps */
	cr_expect_neq(file_check_phdrs(b, (unsigned char *)ph, sizeof(*ph), sizeof(b), err,
				       sizeof(err)),
		      0);
	tiny_elf(b, sizeof(b));
	eh->e_phoff = sizeof(b) - 8; /* table past the end */
	cr_expect_neq(file_check_ehdr(b, sizeof(*eh), sizeof(b), err, sizeof(err)), 0);
	cr_expect(strstr(err, "program header table"), "%s", err);
	tiny_elf(b, sizeof(b));
	eh->e_machine = EM_AARCH64;
	cr_expect_neq(file_check_ehdr(b, sizeof(*eh), sizeof(b), err, sizeof(err)), 0);
	cr_expect(strstr(err, "EM_X86_64"), "%s", err);
	tiny_elf(b, sizeof(b));
	b[0] = 'x';
	cr_expect_neq(file_check_ehdr(b, sizeof(*eh), sizeof(b), err, sizeof(err)), 0);
	cr_expect(strstr(err, "not an ELF file"), "%s", err);
	cr_expect_neq(file_check_ehdr(b, 10, 10, err, sizeof(err)), 0);
}

Test(limits, huge_sparse_file_refused_unread, .init = mkdir_tmp)
{
	char path[128];
	struct rusage before, after;
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/sparse", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, 1ll << 30), 0);
	close(fd);
	getrusage(RUSAGE_SELF, &before);
	cr_expect_null(file_read_elf(path, EL_KERNEL_FILE_MAX, &len, err, sizeof(err)));
	getrusage(RUSAGE_SELF, &after);
	cr_expect(strstr(err, "64 MiB limit"), "%s", err);
	/* Refused from fstat: the peak resident size did not grow by the file. */
	cr_expect_lt(after.ru_maxrss - before.ru_maxrss, 16 * 1024, "%ld KiB more",
		     after.ru_maxrss - before.ru_maxrss);
	/* Within the limit but not ELF: refused from its first bytes. */
	fd = open(path, O_WRONLY | O_TRUNC);
	cr_assert_eq(ftruncate(fd, 32 << 20), 0);
	close(fd);
	cr_expect_null(file_read_elf(path, EL_KERNEL_FILE_MAX, &len, err, sizeof(err)));
	cr_expect(strstr(err, "not an ELF file"), "%s", err);
	unlink(path);
	rmdir(dir);
}

Test(limits, good_file_read_whole, .init = mkdir_tmp)
{
	unsigned char b[0x1010], *got;
	char path[128];
	size_t len = 0;
	int fd;

	tiny_elf(b, sizeof(b));
	snprintf(path, sizeof(path), "%s/tiny", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_eq(write(fd, b, sizeof(b)), (ssize_t)sizeof(b));
	close(fd);
	got = file_read_elf(path, EL_EXEC_FILE_MAX, &len, err, sizeof(err));
	cr_assert(got, "%s", err);
	cr_expect_eq(len, sizeof(b));
	cr_expect_eq(memcmp(got, b, sizeof(b)), 0);
	free(got);
	cr_expect_null(file_read_elf(dir, EL_EXEC_FILE_MAX, &len, err, sizeof(err)));
	cr_expect(strstr(err, "not a regular file"), "%s", err);
	unlink(path);
	rmdir(dir);
}

Test(limits, bad_kernel_is_the_users_input)
{
	struct el_programs p;
	const struct el_program_choice c = {.kernel = "/bin/true", .mem_bytes = 256ull << 20};

	/* An ELF that is no PVH kernel: refused before any boot, as input (120). */
	cr_expect_eq(programs_prepare(&p, &c, err, sizeof(err)), EL_EXIT_USAGE);
	cr_expect(strstr(err, "not a bootable PVH kernel"), "%s", err);
	programs_free(&p);
}
