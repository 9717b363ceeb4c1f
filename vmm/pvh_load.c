/*
 * PVH kernel loader (pvh_load.h).  libelf does the parsing; this file
 * decides what entrylab accepts.  The image is untrusted input: every
 * offset and size is checked before anything is copied.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/pvh.h"
#include "host_elf.h"
#include "pvh_load.h"
#include "pvh_start.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* The loader's own demand on top of host_elf_open()'s: a static, non-PIE executable. */
static int elf_header_check(Elf *elf, char *err, size_t errlen)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return ERR("truncated ELF header: %s", elf_errmsg(-1));
	if (eh.e_type != ET_EXEC)
		return ERR("ELF type %u is not ET_EXEC (%u): link the kernel as a static, "
			   "non-PIE executable",
			   eh.e_type, ET_EXEC);
	return 0;
}

static int segment_check(const GElf_Phdr *ph, unsigned idx, size_t len,
			 const struct el_mem *mem, char *err, size_t errlen)
{
	uint64_t low_end = el_mem_low_end(mem);

	if (ph->p_offset > len || ph->p_filesz > len - ph->p_offset)
		return ERR("PT_LOAD segment %u: file bytes at offset 0x%" PRIx64 " (+0x%" PRIx64
			   ") lie beyond the end of the %zu-byte file (truncated image?)",
			   idx, ph->p_offset, ph->p_filesz, len);
	if (ph->p_filesz > ph->p_memsz)
		return ERR("PT_LOAD segment %u: filesz 0x%" PRIx64 " exceeds memsz 0x%" PRIx64,
			   idx, ph->p_filesz, ph->p_memsz);
	if (ph->p_paddr < EL_BOOT_AREA_END)
		return ERR("PT_LOAD segment %u at physical 0x%" PRIx64 " overlaps the boot-info "
			   "area below 0x%x: link the kernel higher (e.g. at 1 MiB)",
			   idx, ph->p_paddr, EL_BOOT_AREA_END);
	if (ph->p_paddr >= low_end || ph->p_memsz > low_end - ph->p_paddr ||
	    !el_mem_contains(mem, ph->p_paddr, ph->p_memsz))
		return ERR("PT_LOAD segment %u at physical 0x%" PRIx64 " (+0x%" PRIx64 ") lies "
			   "outside guest RAM below 0x%" PRIx64 ": raise --memory or link the "
			   "kernel lower",
			   idx, ph->p_paddr, ph->p_memsz, low_end);
	return 0;
}

static int segments_collect(Elf *elf, size_t len, const struct el_mem *mem,
			    struct pvh_image *img, char *err, size_t errlen)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) || phnum == 0)
		return ERR("no program headers: %s", phnum ? elf_errmsg(-1) : "e_phnum is 0");
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		struct pvh_segment *s;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return ERR("program header %zu unreadable (truncated image?): %s", i,
				   elf_errmsg(-1));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (segment_check(&ph, (unsigned)i, len, mem, err, errlen))
			return -1;
		if (img->nr_segments == PVH_MAX_SEGMENTS)
			return ERR("more than %d PT_LOAD segments", PVH_MAX_SEGMENTS);
		for (unsigned j = 0; j < img->nr_segments; j++) {
			const struct pvh_segment *o = &img->seg[j];

			if (ph.p_paddr < o->paddr + o->memsz && o->paddr < ph.p_paddr + ph.p_memsz)
				return ERR("PT_LOAD segment %zu at physical 0x%" PRIx64 " overlaps "
					   "another at 0x%" PRIx64,
					   i, ph.p_paddr, o->paddr);
		}
		s = &img->seg[img->nr_segments++];
		*s = (struct pvh_segment){ph.p_paddr, ph.p_filesz, ph.p_memsz, ph.p_offset};
		if (img->nr_segments == 1 || s->paddr < img->lo)
			img->lo = s->paddr;
		if (s->paddr + s->memsz > img->hi)
			img->hi = s->paddr + s->memsz;
	}
	if (img->nr_segments == 0)
		return ERR("no PT_LOAD segment with memory: nothing to load");
	return 0;
}

/* 1: found (entry set), 0: not in this note segment, -1: malformed note. */
static int note_scan(Elf *elf, const GElf_Phdr *ph, uint64_t *entry, char *err, size_t errlen)
{
	Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph->p_offset, ph->p_filesz,
					   ph->p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	if (!d)
		return ERR("PT_NOTE segment at offset 0x%" PRIx64 " (+0x%" PRIx64 ") is not "
			   "inside the file: %s",
			   ph->p_offset, ph->p_filesz, elf_errmsg(-1));
	while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)d->d_buf + name_off;
		const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
		uint32_t e32;

		if (nh.n_type != PVH_NOTE_PHYS32_ENTRY || nh.n_namesz != sizeof(PVH_NOTE_NAME) ||
		    memcmp(name, PVH_NOTE_NAME, sizeof(PVH_NOTE_NAME)))
			continue;
		if (nh.n_descsz == 8) {
			memcpy(entry, desc, 8);
		} else if (nh.n_descsz == 4) {
			memcpy(&e32, desc, 4);
			*entry = e32;
		} else {
			return ERR("PVH entry note has a %u-byte descriptor; expected 4 or 8",
				   (unsigned)nh.n_descsz);
		}
		return 1;
	}
	return 0;
}

/* 0 with *found set (img->entry with it), -1 for a malformed note. */
static int entry_find(Elf *elf, struct pvh_image *img, bool *found, char *err, size_t errlen)
{
	size_t phnum = 0;

	*found = false;
	elf_getphdrnum(elf, &phnum);
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		int r;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		r = note_scan(elf, &ph, &img->entry, err, errlen);
		if (r < 0)
			return -1;
		if (r) {
			*found = true;
			return 0;
		}
	}
	return 0;
}

static int entry_check(const struct pvh_image *img, char *err, size_t errlen)
{
	for (unsigned i = 0; i < img->nr_segments; i++) {
		const struct pvh_segment *s = &img->seg[i];

		if (img->entry >= s->paddr && img->entry - s->paddr < s->filesz)
			return 0;
	}
	return ERR("PVH entry 0x%" PRIx64 " is not inside any loaded PT_LOAD segment",
		   img->entry);
}

int pvh_parse_any(const void *image, size_t len, const struct el_mem *mem,
		  struct pvh_image *img, bool *has_note, char *err, size_t errlen)
{
	Elf *elf;
	int ret;

	memset(img, 0, sizeof(*img));
	*has_note = false;
	elf = host_elf_open(image, len, err, errlen);
	if (!elf)
		return -1;
	ret = elf_header_check(elf, err, errlen);
	if (!ret)
		ret = segments_collect(elf, len, mem, img, err, errlen);
	if (!ret)
		ret = entry_find(elf, img, has_note, err, errlen);
	if (!ret && *has_note)
		ret = entry_check(img, err, errlen);
	elf_end(elf);
	return ret;
}

int pvh_parse(const void *image, size_t len, const struct el_mem *mem, struct pvh_image *img,
	      char *err, size_t errlen)
{
	bool note;

	if (pvh_parse_any(image, len, mem, img, &note, err, errlen))
		return -1;
	if (!note)
		return ERR("no PVH entry note (ELF note \"Xen\", type %u XEN_ELFNOTE_PHYS32_ENTRY, "
			   "in a PT_NOTE segment): build the kernel with its PVH note",
			   PVH_NOTE_PHYS32_ENTRY);
	return 0;
}

int pvh_copy(const void *image, struct el_mem *mem, const struct pvh_image *img, char *err,
	     size_t errlen)
{
	for (unsigned i = 0; i < img->nr_segments; i++) {
		const struct pvh_segment *s = &img->seg[i];
		uint8_t *dst = el_mem_gpa(mem, s->paddr, s->memsz);

		if (!dst) /* the parse checked it; keep the translator the only path */
			return ERR("segment at 0x%" PRIx64 " vanished from RAM", s->paddr);
		memcpy(dst, (const uint8_t *)image + s->offset, s->filesz);
		memset(dst + s->filesz, 0, s->memsz - s->filesz);
	}
	return 0;
}

int pvh_load(const void *image, size_t len, struct el_mem *mem, struct pvh_image *img,
	     char *err, size_t errlen)
{
	if (pvh_parse(image, len, mem, img, err, errlen))
		return -1;
	return pvh_copy(image, mem, img, err, errlen);
}
