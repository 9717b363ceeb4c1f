/*
 * Checked reading of an untrusted ELF file (file_check.h): size, header and
 * program headers by fstat and pread before the file is read whole.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_check.h"
#include "file_check.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define FIX      "; give a static x86-64 (or i386) ELF executable"

/* Where the program header table is, in a header of either class (ELF64, or ELF32 for i386). */
struct phdr_table {
	bool is32;
	unsigned phnum, phentsize, want; /* want: sizeof(Elf64_Phdr) or sizeof(Elf32_Phdr) */
	uint64_t phoff;
};

static struct phdr_table phdr_table(const unsigned char *ehdr)
{
	Elf64_Ehdr e64;
	Elf32_Ehdr e32;

	if (ehdr[EI_CLASS] == ELFCLASS32) {
		memcpy(&e32, ehdr, sizeof(e32));
		return (struct phdr_table){true, e32.e_phnum, e32.e_phentsize, sizeof(Elf32_Phdr),
					   e32.e_phoff};
	}
	memcpy(&e64, ehdr, sizeof(e64));
	return (struct phdr_table){false, e64.e_phnum, e64.e_phentsize, sizeof(Elf64_Phdr),
				   e64.e_phoff};
}

int file_check_ehdr(const unsigned char *ehdr, size_t len, uint64_t file_size, char *err,
		    size_t errlen)
{
	Elf64_Ehdr eh;
	struct phdr_table t;
	unsigned want_machine;

	if (len < sizeof(eh) || file_size < sizeof(eh))
		return ERR("%" PRIu64 " bytes, smaller than an ELF header (64)" FIX, file_size);
	memcpy(&eh, ehdr, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return ERR("not an ELF file (no \\177ELF magic)" FIX);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 && eh.e_ident[EI_CLASS] != ELFCLASS32)
		return ERR("ELF class %d is neither ELFCLASS64 nor ELFCLASS32" FIX,
			   eh.e_ident[EI_CLASS]);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return ERR("ELF data encoding %d is not little-endian" FIX, eh.e_ident[EI_DATA]);
	/* e_machine lies at the same offset in both classes. */
	want_machine = eh.e_ident[EI_CLASS] == ELFCLASS64 ? EM_X86_64 : EM_386;
	if (eh.e_machine != want_machine)
		return ERR("ELF machine %u is not %s (%u) in an %s file" FIX, eh.e_machine,
			   want_machine == EM_386 ? "EM_386" : "EM_X86_64", want_machine,
			   want_machine == EM_386 ? "ELFCLASS32" : "ELFCLASS64");
	t = phdr_table(ehdr);
	if (t.phnum == 0 || t.phnum > ELF_MAX_PHNUM || t.phentsize != t.want)
		return ERR("program header table of %u entries of %u bytes: expected 1..%d of "
			   "%u" FIX,
			   t.phnum, t.phentsize, ELF_MAX_PHNUM, t.want);
	if (t.phoff > file_size || (uint64_t)t.phnum * t.want > file_size - t.phoff)
		return ERR("program header table at offset 0x%" PRIx64 " lies beyond the end of "
			   "the %" PRIu64 "-byte file (truncated?)" FIX,
			   t.phoff, file_size);
	return 0;
}

int file_check_phdrs(const unsigned char *ehdr, const unsigned char *phdrs, size_t phlen,
		     uint64_t file_size, char *err, size_t errlen)
{
	struct phdr_table t;

	if (file_check_ehdr(ehdr, sizeof(Elf64_Ehdr), file_size, err, errlen))
		return -1;
	t = phdr_table(ehdr);
	if (phlen < (size_t)t.phnum * t.want)
		return ERR("program headers truncated" FIX);
	for (unsigned i = 0; i < t.phnum; i++) {
		uint64_t type, off, filesz;

		if (t.is32) {
			Elf32_Phdr ph;

			memcpy(&ph, phdrs + i * sizeof(ph), sizeof(ph));
			type = ph.p_type, off = ph.p_offset, filesz = ph.p_filesz;
		} else {
			Elf64_Phdr ph;

			memcpy(&ph, phdrs + i * sizeof(ph), sizeof(ph));
			type = ph.p_type, off = ph.p_offset, filesz = ph.p_filesz;
		}
		if (type != PT_LOAD && type != PT_NOTE)
			continue;
		if (off > file_size || filesz > file_size - off)
			return ERR("segment %u: file bytes at offset 0x%" PRIx64 " (+0x%" PRIx64
				   ") lie beyond the end of the %" PRIu64
				   "-byte file (truncated?)" FIX,
				   i, off, filesz, file_size);
	}
	return 0;
}

/* All of [off, off + len) by pread; false on a short file or an error. */
static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* fstat and the headers; 0 with the size in *size. */
static int file_precheck(int fd, const char *path, uint64_t max, uint64_t *size, char *err,
			 size_t errlen)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], *ph;
	struct stat st;
	struct phdr_table t;
	size_t phlen;
	int rc;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return ERR("%s is not a regular file; give the path of an ELF file", path);
	*size = (uint64_t)st.st_size;
	if (*size > max)
		return ERR("%s is %" PRIu64 " bytes, more than the %" PRIu64 " MiB limit for this "
			   "file; give a smaller image",
			   path, *size, max >> 20);
	if (*size >= sizeof(eh) && pread_all(fd, eh, sizeof(eh), 0))
		return ERR("cannot read %s: %s", path, strerror(errno ? errno : EIO));
	if (file_check_ehdr(eh, *size >= sizeof(eh) ? sizeof(eh) : 0, *size, err, errlen))
		return -1;
	t = phdr_table(eh);
	phlen = (size_t)t.phnum * t.want;
	ph = malloc(phlen);
	if (!ph)
		return ERR("out of memory");
	rc = pread_all(fd, ph, phlen, (off_t)t.phoff)
		     ? ERR("cannot read the program headers of %s", path)
		     : file_check_phdrs(eh, ph, phlen, *size, err, errlen);
	free(ph);
	return rc;
}

unsigned char *file_read_elf(const char *path, uint64_t max, size_t *len, char *err, size_t errlen)
{
	char why[400];
	uint64_t size = 0;
	unsigned char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "cannot read %s: %s; give the path of a readable file", path,
			 strerror(errno));
		return NULL;
	}
	if (file_precheck(fd, path, max, &size, why, sizeof(why))) {
		snprintf(err, errlen, "%s%s%s", strncmp(why, path, strlen(path)) ? path : "",
			 strncmp(why, path, strlen(path)) ? ": " : "", why);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)size + 1);
	if (!buf || pread_all(fd, buf, (size_t)size, 0)) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 buf ? "it changed size while being read" : "out of memory");
		free(buf);
		buf = NULL;
	} else {
		buf[size] = '\0';
		*len = (size_t)size;
	}
	close(fd);
	return buf;
}
