/*
 * Packing a program for the guest: the initrd around it, the checks a
 * user-supplied binary must pass before anything boots, and its arguments.
 */
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "elf_check.h"
#include "host_elf.h"
#include "initrd.h"

int initrd_build(struct el_cpio *c, const unsigned char *image, size_t len)
{
	static const char *const dirs[] = {"dev", "tmp", "proc", "bin"};

	for (size_t i = 0; i < EL_ARRAY_SIZE(dirs); i++)
		el_cpio_add_dir(c, dirs[i], 0755);
	el_cpio_add_file(c, "init", 0755, image, len);
	return el_cpio_finish(c);
}

/*
 * An i386 program (ELFCLASS32): the guest kernel runs it as a compat
 * process, and the guest's own checks (common/elf_check.c) are the ones
 * it must pass: static, EM_386, segments inside the file and below 4 GiB.
 */
static int exec_check_i386(const unsigned char *image, size_t len, char *err, size_t errlen)
{
	struct elf_info info;
	uint64_t bias;
	int rc = elf_check(image, len, &info);

	if (!rc)
		rc = elf_place(&info, ELF32_TASK_SIZE, &bias);
	if (rc)
		snprintf(err, errlen, "i386 program: %s", elf_strerror(rc));
	return rc ? -1 : 0;
}

int exec_check(const unsigned char *image, size_t len, char *err, size_t errlen)
{
	GElf_Ehdr eh;
	Elf *e;
	size_t nph, i, loads = 0;
	char why[256];
	int rc = -1;

	if (len > EI_CLASS && image[EI_CLASS] == ELFCLASS32)
		return exec_check_i386(image, len, err, errlen);
	e = host_elf_open(image, len, why, sizeof(why));
	if (!e || !gelf_getehdr(e, &eh)) {
		snprintf(err, errlen, "%s; give a static x86-64 Linux executable (musl-gcc -static)",
			e ? "truncated ELF header" : why);
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(err, errlen, "ELF type %d is not an executable; link a program, not an "
				      "object", eh.e_type);
		goto out;
	}
	if (elf_getphdrnum(e, &nph)) {
		snprintf(err, errlen, "malformed program headers: %s", elf_errmsg(-1));
		goto out;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph)) {
			snprintf(err, errlen, "malformed program header %zu: %s", i, elf_errmsg(-1));
			goto out;
		}
		if (ph.p_type == PT_INTERP) {
			snprintf(err, errlen, "dynamically linked (it has an interpreter); the guest "
					      "runs static binaries only: link with -static "
					      "(musl-gcc -static)");
			goto out;
		}
		if (ph.p_type == PT_LOAD) {
			if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset ||
			    ph.p_filesz > ph.p_memsz) {
				snprintf(err, errlen, "segment %zu lies outside the file or has "
						      "filesz > memsz: the file is truncated or corrupt", i);
				goto out;
			}
			loads++;
		}
	}
	if (!loads) {
		snprintf(err, errlen, "no loadable segment: not a runnable program");
		goto out;
	}
	rc = 0;
out:
	if (e)
		elf_end(e);
	return rc;
}

int initrd_quote_args(char *out, size_t outlen, char *const *args, int nargs, char *err,
		      size_t errlen)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < nargs; i++) {
		for (const char *p = args[i]; *p; p++)
			if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || *p == 0x7f) {
				snprintf(err, errlen, "argument '%s' contains a quote, backslash or "
						      "control character, which the guest command "
						      "line cannot carry", args[i]);
				return -1;
			}
		int n = snprintf(out + used, outlen - used, "%s\"%s\"", i ? " " : "", args[i]);

		if (n < 0 || (size_t)n >= outlen - used) {
			snprintf(err, errlen, "the program's arguments exceed %zu bytes", outlen - 1);
			return -1;
		}
		used += (size_t)n;
	}
	return 0;
}
