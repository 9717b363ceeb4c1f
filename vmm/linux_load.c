/*
 * Linux kernel files (linux_load.h): an ELF vmlinux (PVH note or not) or
 * a bzImage, told apart by their magic, checked field by field against
 * the file and the guest memory, then copied into guest memory.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "linux_load.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define PAGE 0x1000ull
#define MIB(x) ((unsigned long long)((x) >> 20))
#define FIX_KIND "give an x86-64 vmlinux (ELF) or arch/x86/boot/bzImage"

const char *const linux_kind_names[LINUX_KINDS] = {
	[LINUX_PVH] = "ELF vmlinux, PVH entry",
	[LINUX_ELF64] = "ELF vmlinux, 64-bit boot protocol",
	[LINUX_BZIMAGE] = "bzImage, 64-bit boot protocol",
};

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* The release from a "6.1.0-57-amd64 (builder@host) #1 ..." string: up to the first blank. */
static void release_take(const uint8_t *s, size_t room, char *out, size_t outlen)
{
	size_t n = 0;

	while (n < room && n + 1 < outlen && s[n] > ' ' && s[n] < 0x7f)
		n++;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* "Linux version 6.1.0-57-amd64 (...)", linux_banner, in the loaded segments' bytes. */
static void elf_release(const uint8_t *img, const struct pvh_image *elf, char *out, size_t outlen)
{
	static const char banner[] = "Linux version ";

	out[0] = '\0';
	for (unsigned i = 0; i < elf->nr_segments; i++) {
		const struct pvh_segment *s = &elf->seg[i];
		const uint8_t *p = memmem(img + s->offset, s->filesz, banner, sizeof(banner) - 1);

		if (p) {
			size_t at = (size_t)(p - img - s->offset) + sizeof(banner) - 1;

			release_take(p + sizeof(banner) - 1, s->filesz - at, out, outlen);
			return;
		}
	}
}

static int elf_kernel(const uint8_t *img, size_t len, struct linux_image *li, char *err,
		      size_t errlen)
{
	struct el_mem any;
	Elf64_Ehdr eh;
	bool note;
	char why[400];

	if (len > EI_CLASS && img[EI_CLASS] == ELFCLASS32)
		return ERR("a 32-bit kernel (ELFCLASS32); entrylab boots x86-64 kernels: build it "
			   "for x86_64 (CONFIG_64BIT=y)");
	/* The structure against the largest RAM; whether it fits --memory comes after. */
	el_mem_layout(&any, NULL, EL_MEM_LOW_END);
	if (pvh_parse_any(img, len, &any, &li->elf, &note, why, sizeof(why)))
		return ERR("not a bootable vmlinux: %s", why);
	memcpy(&eh, img, sizeof(eh)); /* pvh_parse_any read the header, so it is there */
	li->kind = note ? LINUX_PVH : LINUX_ELF64;
	li->entry = note ? li->elf.entry : eh.e_entry;
	li->lo = li->elf.lo;
	li->hi = li->elf.hi;
	li->cmdline_max = LX_CMDLINE_DEFAULT;
	li->initrd_max = EL_MEM_LOW_END;
	if (!note) {
		bool inside = false;

		if (li->lo < LX_LOAD_DEFAULT)
			return ERR("vmlinux without a PVH note has a segment at 0x%" PRIx64 ", below "
				   "1 MiB, where the boot protocol's data go: link it at 1 MiB or "
				   "higher (CONFIG_PHYSICAL_START)", li->lo);

		for (unsigned i = 0; i < li->elf.nr_segments && !inside; i++) {
			const struct pvh_segment *s = &li->elf.seg[i];

			inside = li->entry >= s->paddr && li->entry - s->paddr < s->filesz;
		}
		if (!inside)
			return ERR("vmlinux without a PVH note: its entry 0x%" PRIx64 " (e_entry) "
				   "is not the physical address of a loaded byte, so it is not "
				   "startup_64; give a vmlinux linked by Linux's vmlinux.lds, or one "
				   "with CONFIG_PVH=y", li->entry);
	}
	return 0;
}

/* The fields of the setup header the protocol version covers, each checked against the file. */
static int bz_header(const uint8_t *img, size_t len, struct linux_image *li, char *err,
		     size_t errlen)
{
	uint8_t xlf_lo;

	if (len < LX_VERSION + 2)
		return ERR("a bzImage cut short: %zu bytes, not even its setup header (truncated?)",
			   len);
	li->version = rd16(img + LX_VERSION);
	if (li->version < LX_PROTOCOL_MIN)
		return ERR("bzImage boot protocol %u.%02u is older than 2.12, which has no 64-bit "
			   "entry entrylab can check (xloadflags); give a kernel from Linux 3.8 or "
			   "later", li->version >> 8, li->version & 0xff);
	li->hdr_end = LX_HEADER + img[LX_JUMP + 1];
	if (li->hdr_end < LX_HDR_MIN_END)
		return ERR("bzImage setup header ends at 0x%zx (its jump at 0x200), before the "
			   "fields of protocol 2.12 (0x%x): a corrupt header", li->hdr_end,
			   LX_HDR_MIN_END);
	if (li->hdr_end > len)
		return ERR("a bzImage cut short: its setup header ends at 0x%zx, the file has %zu "
			   "bytes (truncated?)", li->hdr_end, len);
	if (rd16(img + LX_BOOT_FLAG) != LX_BOOT_FLAG_MAGIC)
		return ERR("bzImage boot flag at 0x1fe is 0x%04x, not 0xaa55: a corrupt header; "
			   FIX_KIND, rd16(img + LX_BOOT_FLAG));
	xlf_lo = img[LX_XLOADFLAGS];
	if (!(xlf_lo & LX_XLF_KERNEL_64))
		return ERR("a bzImage without a 64-bit entry point (XLF_KERNEL_64 clear in "
			   "xloadflags): a 32-bit kernel; entrylab boots x86-64 kernels: build it "
			   "for x86_64 (CONFIG_64BIT=y)");
	if (!(img[LX_LOADFLAGS] & LX_LOADED_HIGH))
		return ERR("a zImage (LOADED_HIGH clear: loaded below 1 MiB), which has no 64-bit "
			   "entry; give a bzImage");
	return 0;
}

/* Where the protected-mode part goes and what it needs: load, pm bytes, init_size. */
static int bz_layout(const uint8_t *img, size_t len, struct linux_image *li, char *err,
		     size_t errlen)
{
	unsigned sects = img[LX_SETUP_SECTS] ? img[LX_SETUP_SECTS] : 4;
	uint64_t syssize = (uint64_t)rd32(img + LX_SYSSIZE) * 16;
	uint32_t align = rd32(img + LX_KERNEL_ALIGN), init = rd32(img + LX_INIT_SIZE);
	uint64_t pref = rd64(img + LX_PREF_ADDRESS), need;

	li->pm_offset = (size_t)(sects + 1) * 512;
	if (li->pm_offset >= len)
		return ERR("a bzImage cut short: %u setup sectors end at %zu bytes, the file has "
			   "%zu (truncated?)", sects, li->pm_offset, len);
	li->pm_len = len - li->pm_offset;
	if (syssize > li->pm_len)
		return ERR("a bzImage cut short: its header declares %" PRIu64 " bytes of kernel "
			   "after the setup (syssize), the file has %zu (truncated?)", syssize,
			   li->pm_len);
	if (li->pm_len <= LX_ENTRY_64)
		return ERR("bzImage: %zu bytes after the setup cannot hold the 64-bit entry at "
			   "+0x%x (truncated?)", li->pm_len, LX_ENTRY_64);
	if (img[LX_RELOCATABLE] && (align < PAGE || (align & (align - 1))))
		return ERR("bzImage kernel_alignment 0x%x is not a power of two of at least 4 KiB: "
			   "a corrupt header", align);
	li->load = pref ? pref : LX_LOAD_DEFAULT;
	if (img[LX_RELOCATABLE] && li->load % align)
		li->load = (li->load / align + 1) * align;
	if (li->load < LX_LOAD_DEFAULT || li->load >= EL_MEM_LOW_END)
		return ERR("bzImage pref_address 0x%" PRIx64 " lies outside [1 MiB, 3 GiB), where "
			   "entrylab has RAM for it: a corrupt header", li->load);
	if (init == 0)
		return ERR("bzImage init_size is 0: a corrupt header (the kernel must say how much "
			   "memory it decompresses into)");
	need = init > li->pm_len ? init : li->pm_len;
	if (need > EL_MEM_LOW_END - li->load)
		return ERR("bzImage at 0x%" PRIx64 " needs 0x%" PRIx64 " bytes (init_size), past "
			   "3 GiB, where entrylab's RAM ends below the hole: a corrupt header",
			   li->load, need);
	li->lo = li->load;
	li->hi = li->load + need;
	li->entry = li->load + LX_ENTRY_64;
	return 0;
}

static int bz_kernel(const uint8_t *img, size_t len, struct linux_image *li, char *err,
		     size_t errlen)
{
	uint32_t cl;

	if (bz_header(img, len, li, err, errlen) || bz_layout(img, len, li, err, errlen))
		return -1;
	li->kind = LINUX_BZIMAGE;
	cl = rd32(img + LX_CMDLINE_SIZE);
	li->cmdline_max = cl < 255 ? 256 : cl >= 4095 ? 4096 : cl + 1;
	li->initrd_max = (uint64_t)rd32(img + LX_INITRD_ADDR_MAX) + 1;
	return 0;
}

/* Kernel, initrd and boot data within mem_bytes of RAM (below 3 GiB, gpa.h). */
static int fit_check(const struct linux_image *li, uint64_t mem_bytes, size_t initrd_len,
		     char *err, size_t errlen)
{
	struct el_mem mem;
	uint64_t low, top, floor = (li->hi + PAGE - 1) & ~(PAGE - 1);

	el_mem_layout(&mem, NULL, mem_bytes);
	low = el_mem_low_end(&mem);
	if (li->hi > low)
		return ERR("the kernel needs guest RAM up to %llu MiB (%s image at 0x%" PRIx64
			   "..0x%" PRIx64 "), --memory gives %llu MiB: raise --memory (256M, "
			   "the default, fits Debian's kernel)", MIB(li->hi + (1 << 20) - 1),
			   linux_kind_names[li->kind], li->lo, li->hi, MIB(mem_bytes));
	top = (low < li->initrd_max ? low : li->initrd_max) & ~(PAGE - 1);
	if (initrd_len && (initrd_len > top || ((top - initrd_len) & ~(PAGE - 1)) < floor))
		return ERR("the kernel (to %llu MiB) and the initrd (%zu KiB) do not both fit in "
			   "--memory %llu MiB: raise --memory", MIB(li->hi + (1 << 20) - 1),
			   (initrd_len + 1023) / 1024, MIB(mem_bytes));
	return 0;
}

int linux_parse(const void *image, size_t len, uint64_t mem_bytes, size_t initrd_len,
		struct linux_image *li, char *err, size_t errlen)
{
	const uint8_t *img = image;
	int rc;

	memset(li, 0, sizeof(*li));
	if (len >= SELFMAG && !memcmp(img, ELFMAG, SELFMAG))
		rc = elf_kernel(img, len, li, err, errlen);
	else if (len >= LX_HEADER + 4 && rd32(img + LX_HEADER) == LX_HDRS_MAGIC)
		rc = bz_kernel(img, len, li, err, errlen);
	else
		return ERR("neither an ELF vmlinux (no \\177ELF magic) nor a bzImage (no \"HdrS\" "
			   "at 0x202) in %zu bytes; " FIX_KIND, len);
	return rc ? rc : fit_check(li, mem_bytes, initrd_len, err, errlen);
}

int linux_load(const void *image, size_t len, const struct linux_image *li, struct el_mem *mem,
	       char *err, size_t errlen)
{
	uint8_t *dst;

	if (li->kind != LINUX_BZIMAGE)
		return pvh_copy(image, mem, &li->elf, err, errlen);
	if (li->pm_offset > len || li->pm_len > len - li->pm_offset)
		return ERR("the bzImage changed since it was checked");
	dst = el_mem_gpa(mem, li->load, li->hi - li->load);
	if (!dst)
		return ERR("the bzImage's memory 0x%" PRIx64 "..0x%" PRIx64 " is not guest RAM: "
			   "raise --memory", li->load, li->hi);
	memcpy(dst, (const uint8_t *)image + li->pm_offset, li->pm_len);
	return 0;
}

void linux_release(const void *image, const struct linux_image *li, char *out, size_t outlen)
{
	const uint8_t *img = image;
	uint32_t kv;

	out[0] = '\0';
	if (li->kind != LINUX_BZIMAGE) {
		elf_release(img, &li->elf, out, outlen);
		return;
	}
	kv = rd16(img + LX_KERNEL_VERSION);
	if (kv && kv + 0x200u < li->pm_offset)
		release_take(img + kv + 0x200u, li->pm_offset - kv - 0x200u, out, outlen);
}

uint64_t linux_initrd_gpa(const struct linux_image *li, const struct el_mem *mem, size_t len,
			  uint64_t floor)
{
	uint64_t low = el_mem_low_end(mem);
	uint64_t top = (low < li->initrd_max ? low : li->initrd_max) & ~(PAGE - 1), gpa;
	uint64_t kend = (li->hi + PAGE - 1) & ~(PAGE - 1);

	if (floor < kend)
		floor = kend;
	if (len > top)
		return 0;
	gpa = (top - len) & ~(PAGE - 1);
	return gpa >= floor && el_mem_contains(mem, gpa, len) ? gpa : 0;
}
