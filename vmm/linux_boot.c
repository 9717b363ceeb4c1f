/*
 * Linux's 64-bit boot protocol in guest memory (linux_boot.h): the zero
 * page, e820, command line, initrd, GDT and identity page tables.  Every
 * write goes through the checked translator (gpa.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "linux_boot.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define PAGE 0x1000ull

#define PTE_P 0x1ull
#define PTE_W 0x2ull
#define PTE_PS 0x80ull

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, (uint16_t)v);
	wr16(p + 2, (uint16_t)(v >> 16));
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

static void e820_add(struct lx_e820 *map, unsigned *n, unsigned max, uint64_t addr,
		     uint64_t size, uint32_t type)
{
	if (*n < max)
		map[(*n)++] = (struct lx_e820){.addr = addr, .size = size, .type = type};
}

unsigned linux_e820(const struct el_mem *mem, struct lx_e820 *map, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < mem->nr_slots; i++) {
		const struct el_mem_slot *s = &mem->slot[i];

		if (s->gpa != 0) {
			e820_add(map, &n, max, s->gpa, s->size, LX_E820_RAM);
			continue;
		}
		/* slot 0 holds at least EL_MEM_MIN (16 MiB): all of low memory is in it */
		e820_add(map, &n, max, 0, LX_EBDA, LX_E820_RAM);
		e820_add(map, &n, max, LX_EBDA, LX_HIGH - LX_EBDA, LX_E820_RESERVED);
		e820_add(map, &n, max, LX_HIGH, s->size - LX_HIGH, LX_E820_RAM);
	}
	return n;
}

/* Null, null, 64-bit code, data (both flat), a 64-bit TSS (two slots): __BOOT_CS/__BOOT_DS. */
static int gdt_build(struct el_mem *mem, char *err, size_t errlen)
{
	static const uint64_t gdt[LX_GDT_BYTES / 8] = {
		0,
		0,
		0x00af9b000000ffffull, /* 0x10: code, 64-bit (L), base 0, limit 4 GiB, accessed */
		0x00cf93000000ffffull, /* 0x18: data, read/write, base 0, limit 4 GiB, accessed */
		0x00008b0000000067ull, /* 0x20: 64-bit TSS (busy), base 0, limit 0x67 */
		0,                     /* ... its upper half: base bits 63:32 */
	};
	void *dst = el_mem_gpa(mem, LX_GDT_GPA, sizeof(gdt));

	if (!dst)
		return ERR("guest RAM does not cover the boot GDT at 0x%x", LX_GDT_GPA);
	memcpy(dst, gdt, sizeof(gdt));
	return 0;
}

/* [0, LX_IDENT_GIB GiB) mapped to itself with 2 MiB pages, writable, kernel only. */
static int paging_build(struct el_mem *mem, char *err, size_t errlen)
{
	uint64_t *pml4 = el_mem_gpa(mem, LX_PML4_GPA, PAGE);
	uint64_t *pdpt = el_mem_gpa(mem, LX_PDPT_GPA, PAGE);
	uint64_t *pd = el_mem_gpa(mem, LX_PD_GPA, LX_IDENT_GIB * PAGE);

	if (!pml4 || !pdpt || !pd)
		return ERR("guest RAM does not cover the boot page tables at 0x%x", LX_PML4_GPA);
	memset(pml4, 0, PAGE);
	memset(pdpt, 0, PAGE);
	pml4[0] = LX_PDPT_GPA | PTE_P | PTE_W;
	for (uint64_t g = 0; g < LX_IDENT_GIB; g++) {
		pdpt[g] = (LX_PD_GPA + g * PAGE) | PTE_P | PTE_W;
		for (uint64_t i = 0; i < 512; i++)
			pd[g * 512 + i] = ((g << 30) + (i << 21)) | PTE_P | PTE_W | PTE_PS;
	}
	return 0;
}

/* The setup header: a bzImage's own, or the fields a vmlinux's loader must fill. */
static void header_fill(uint8_t *bp, const uint8_t *image, const struct linux_image *li)
{
	if (li->kind == LINUX_BZIMAGE) {
		size_t end = li->hdr_end < LX_BP_HDR_END ? li->hdr_end : LX_BP_HDR_END;

		memcpy(bp + LX_SETUP_SECTS, image + LX_SETUP_SECTS, end - LX_SETUP_SECTS);
	} else {
		wr16(bp + LX_BOOT_FLAG, LX_BOOT_FLAG_MAGIC);
		wr32(bp + LX_HEADER, LX_HDRS_MAGIC);
		wr16(bp + LX_VERSION, LX_PROTOCOL_MIN);
		bp[LX_LOADFLAGS] = LX_LOADED_HIGH;
		wr32(bp + LX_KERNEL_ALIGN, LX_VMLINUX_ALIGN);
		wr32(bp + LX_CMDLINE_SIZE, li->cmdline_max - 1);
	}
	bp[LX_TYPE_OF_LOADER] = LX_LOADER_UNDEFINED;
}

static int cmdline_put(struct el_mem *mem, const struct linux_image *li, const char *cmdline,
		       char *err, size_t errlen)
{
	size_t n = strlen(cmdline);
	char *dst = el_mem_gpa(mem, LX_CMDLINE_GPA, LX_CMDLINE_ROOM);

	if (n + 1 > li->cmdline_max || n + 1 > LX_CMDLINE_ROOM)
		return ERR("the Linux command line is %zu bytes; this kernel takes at most %u: "
			   "shorten --append", n, li->cmdline_max - 1);
	if (!dst)
		return ERR("guest RAM does not cover the command line at 0x%x", LX_CMDLINE_GPA);
	memcpy(dst, cmdline, n + 1);
	return 0;
}

static int initrd_put(struct el_mem *mem, const struct linux_image *li, uint8_t *bp,
		      const unsigned char *initrd, size_t len, char *err, size_t errlen)
{
	uint64_t gpa;
	void *dst;

	if (!initrd || !len)
		return 0;
	if (len > UINT32_MAX)
		return ERR("the initrd is %zu bytes, more than the boot protocol's 4 GiB", len);
	gpa = linux_initrd_gpa(li, mem, len, LX_CMDLINE_GPA + LX_CMDLINE_ROOM);
	dst = gpa ? el_mem_gpa(mem, gpa, len) : NULL;
	if (!dst)
		return ERR("the initrd (%zu bytes) does not fit between the kernel (ending at "
			   "0x%" PRIx64 ") and the top of RAM: raise --memory", len, li->hi);
	memcpy(dst, initrd, len);
	wr32(bp + LX_RAMDISK_IMAGE, (uint32_t)gpa);
	wr32(bp + LX_RAMDISK_SIZE, (uint32_t)len);
	wr32(bp + LX_BP_EXT_RAMDISK_IMAGE, (uint32_t)(gpa >> 32));
	return 0;
}

int linux_boot_build(struct el_mem *mem, const void *image, const struct linux_image *li,
		     const char *cmdline, const unsigned char *initrd, size_t initrd_len,
		     struct linux_entry *entry, char *err, size_t errlen)
{
	uint8_t *bp = el_mem_gpa(mem, LX_ZERO_PAGE_GPA, LX_ZERO_PAGE_SIZE);
	struct lx_e820 map[LX_E820_MAX];
	unsigned n;

	if (li->kind == LINUX_PVH)
		return ERR("a PVH kernel boots through its PVH entry, not the 64-bit protocol");
	if (!bp)
		return ERR("guest RAM does not cover the zero page at 0x%x", LX_ZERO_PAGE_GPA);
	memset(bp, 0, LX_ZERO_PAGE_SIZE);
	header_fill(bp, image, li);
	if (cmdline_put(mem, li, cmdline, err, errlen) ||
	    initrd_put(mem, li, bp, initrd, initrd_len, err, errlen) ||
	    gdt_build(mem, err, errlen) || paging_build(mem, err, errlen))
		return -1;
	wr32(bp + LX_CMD_LINE_PTR, LX_CMDLINE_GPA);
	n = linux_e820(mem, map, LX_E820_MAX);
	bp[LX_BP_E820_ENTRIES] = (uint8_t)n;
	for (unsigned i = 0; i < n; i++) {
		uint8_t *e = bp + LX_BP_E820_TABLE + i * 20u;

		wr64(e, map[i].addr);
		wr64(e + 8, map[i].size);
		wr32(e + 16, map[i].type);
	}
	*entry = (struct linux_entry){.rip = li->entry, .rsi = LX_ZERO_PAGE_GPA,
				      .rsp = LX_STACK_TOP, .cr3 = LX_PML4_GPA,
				      .gdt_base = LX_GDT_GPA, .gdt_limit = LX_GDT_BYTES - 1};
	return 0;
}
