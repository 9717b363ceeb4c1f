/*
 * Checked reading of an untrusted ELF file (file_check.h): size, header and
 * program headers by fstat and pread before the file is read whole.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_check.h"
#include "file_check.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define FIX      "; give a static x86-64 ELF executable"

int file_check_ehdr(const unsigned char *ehdr, size_t len, uint64_t file_size, char *err,
		    size_t errlen)
{
	Elf64_Ehdr eh;

	if (len < sizeof(eh) || file_size < sizeof(eh))
		return ERR("%" PRIu64 " bytes, smaller than an ELF header (64)" FIX, file_size);
	memcpy(&eh, ehdr, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return ERR("not an ELF file (no \\177ELF magic)" FIX);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return ERR("ELF class %d is not ELFCLASS64" FIX, eh.e_ident[EI_CLASS]);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return ERR("ELF data encoding %d is not little-endian" FIX, eh.e_ident[EI_DATA]);
	if (eh.e_machine != EM_X86_64)
		return ERR("ELF machine %u is not EM_X86_64 (%u)" FIX, eh.e_machine, EM_X86_64);
	if (eh.e_phnum == 0 || eh.e_phnum > ELF_MAX_PHNUM || eh.e_phentsize != sizeof(Elf64_Phdr))
		return ERR("program header table of %u entries of %u bytes: expected 1..%d of "
			   "%zu" FIX,
			   eh.e_phnum, eh.e_phentsize, ELF_MAX_PHNUM, sizeof(Elf64_Phdr));
	if (eh.e_phoff > file_size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > file_size - eh.e_phoff)
		return ERR("program header table at offset 0x%" PRIx64 " lies beyond the end of "
			   "the %" PRIu64 "-byte file (truncated?)" FIX,
			   (uint64_t)eh.e_phoff, file_size);
	return 0;
}

int file_check_phdrs(const unsigned char *ehdr, const unsigned char *phdrs, size_t phlen,
		     uint64_t file_size, char *err, size_t errlen)
{
	Elf64_Ehdr eh;

	if (file_check_ehdr(ehdr, sizeof(eh), file_size, err, errlen))
		return -1;
	memcpy(&eh, ehdr, sizeof(eh));
	if (phlen < (size_t)eh.e_phnum * sizeof(Elf64_Phdr))
		return ERR("program headers truncated" FIX);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, phdrs + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD && ph.p_type != PT_NOTE)
			continue;
		if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset)
			return ERR("segment %u: file bytes at offset 0x%" PRIx64 " (+0x%" PRIx64
				   ") lie beyond the end of the %" PRIu64
				   "-byte file (truncated?)" FIX,
				   i, (uint64_t)ph.p_offset, (uint64_t)ph.p_filesz, file_size);
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
	Elf64_Ehdr h;
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
	memcpy(&h, eh, sizeof(h));
	ph = malloc((size_t)h.e_phnum * sizeof(Elf64_Phdr));
	if (!ph)
		return ERR("out of memory");
	rc = pread_all(fd, ph, (size_t)h.e_phnum * sizeof(Elf64_Phdr), (off_t)h.e_phoff)
		     ? ERR("cannot read the program headers of %s", path)
		     : file_check_phdrs(eh, ph, (size_t)h.e_phnum * sizeof(Elf64_Phdr), *size, err,
					errlen);
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
