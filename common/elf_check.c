/*
 * ELF64 executable validation (elf_check.h).  Fields are read byte by byte
 * (little-endian, any alignment) so the same code runs on the host.
 */
#include "elf_check.h"

#define EHDR_SIZE 64
#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define PF_X 1u
#define PF_W 2u
#define PF_R 4u
#define EM_X86_64 62

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static uint64_t page_down(uint64_t x)
{
	return x & ~(uint64_t)(ELF_PAGE - 1);
}

static int page_up(uint64_t x, uint64_t *out)
{
	if (x > UINT64_MAX - (ELF_PAGE - 1))
		return -1;
	*out = page_down(x + ELF_PAGE - 1);
	return 0;
}

static int check_ident(const uint8_t *b, size_t len)
{
	if (len < EHDR_SIZE)
		return ELF_ERR_SHORT;
	if (b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F')
		return ELF_ERR_MAGIC;
	if (b[4] != 2)
		return ELF_ERR_CLASS;
	if (b[5] != 1)
		return ELF_ERR_DATA;
	if (b[6] != 1 || rd(b + 20, 4) != 1)
		return ELF_ERR_VERSION;
	if (rd(b + 18, 2) != EM_X86_64)
		return ELF_ERR_MACHINE;
	if (rd(b + 16, 2) != ELF_ET_EXEC && rd(b + 16, 2) != ELF_ET_DYN)
		return ELF_ERR_TYPE;
	return ELF_OK;
}

static uint32_t seg_prot(uint32_t flags)
{
	return ((flags & PF_R) ? ELF_PROT_R : 0) | ((flags & PF_W) ? ELF_PROT_W : 0) |
	       ((flags & PF_X) ? ELF_PROT_X : 0);
}

/* One PT_LOAD: sizes, file bounds, alignment, order against the previous one. */
static int add_load(const uint8_t *ph, size_t len, struct elf_info *info)
{
	struct elf_segment s = {
		.offset = rd(ph + 8, 8),
		.vaddr = rd(ph + 16, 8),
		.filesz = rd(ph + 32, 8),
		.memsz = rd(ph + 40, 8),
		.prot = seg_prot((uint32_t)rd(ph + 4, 4)),
	};
	uint64_t align = rd(ph + 48, 8), end;

	if (s.memsz == 0)
		return ELF_OK; /* maps nothing */
	if (s.filesz > s.memsz || s.offset > len || s.filesz > len - s.offset)
		return ELF_ERR_SEGMENT;
	if ((align & (align - 1)) || (s.vaddr - s.offset) % ELF_PAGE)
		return ELF_ERR_SEGMENT;
	if (s.vaddr > UINT64_MAX - s.memsz || page_up(s.vaddr + s.memsz, &end))
		return ELF_ERR_RANGE;
	if (info->nr_loads && page_down(s.vaddr) < info->hi)
		return ELF_ERR_OVERLAP;
	if (info->nr_loads == ELF_MAX_LOADS)
		return ELF_ERR_TOO_MANY;
	if (!info->nr_loads)
		info->lo = page_down(s.vaddr);
	info->hi = end;
	if (align > info->max_align)
		info->max_align = align;
	info->loads[info->nr_loads++] = s;
	return ELF_OK;
}

/* Where the program headers are once loaded: PT_PHDR, else the PT_LOAD holding them. */
static void find_phdr(struct elf_info *info, uint64_t phoff, uint64_t phdr_pt)
{
	uint64_t size = (uint64_t)info->phnum * ELF_PHENT_SIZE;
	unsigned i;

	if (phdr_pt) {
		info->phdr_vaddr = phdr_pt;
		return;
	}
	for (i = 0; i < info->nr_loads; i++) {
		const struct elf_segment *s = &info->loads[i];

		if (phoff >= s->offset && phoff - s->offset <= s->filesz &&
		    size <= s->filesz - (phoff - s->offset)) {
			info->phdr_vaddr = s->vaddr + (phoff - s->offset);
			return;
		}
	}
	/* As Linux: assume the first segment starts at file offset 0. */
	info->phdr_vaddr = info->loads[0].vaddr - info->loads[0].offset + phoff;
}

int elf_check(const uint8_t *b, size_t len, struct elf_info *info)
{
	uint64_t phoff, phdr_pt = 0;
	unsigned i, phentsize;
	int err = check_ident(b, len);

	if (err)
		return err;
	*info = (struct elf_info){.max_align = ELF_PAGE};
	info->type = (uint16_t)rd(b + 16, 2);
	info->entry = rd(b + 24, 8);
	phoff = rd(b + 32, 8);
	phentsize = (unsigned)rd(b + 54, 2);
	info->phnum = (uint16_t)rd(b + 56, 2);
	if (phentsize != ELF_PHENT_SIZE || info->phnum == 0 || info->phnum > ELF_MAX_PHNUM ||
	    phoff > len || (uint64_t)info->phnum * ELF_PHENT_SIZE > len - phoff)
		return ELF_ERR_PHDRS;
	for (i = 0; i < info->phnum; i++) {
		const uint8_t *ph = b + phoff + (uint64_t)i * ELF_PHENT_SIZE;
		uint32_t type = (uint32_t)rd(ph, 4);

		if (type == PT_INTERP)
			return ELF_ERR_INTERP;
		if (type == PT_PHDR)
			phdr_pt = rd(ph + 16, 8);
		if (type == PT_LOAD && (err = add_load(ph, len, info)))
			return err;
	}
	if (!info->nr_loads)
		return ELF_ERR_NO_LOAD;
	for (i = 0; i < info->nr_loads; i++)
		if (info->entry >= info->loads[i].vaddr &&
		    info->entry - info->loads[i].vaddr < info->loads[i].memsz)
			break;
	if (i == info->nr_loads)
		return ELF_ERR_ENTRY;
	find_phdr(info, phoff, phdr_pt);
	return ELF_OK;
}

int elf_place(const struct elf_info *info, uint64_t limit, uint64_t *bias)
{
	uint64_t b = 0;

	if (info->type == ELF_ET_DYN) {
		uint64_t base = ELF_DYN_BASE & ~(info->max_align - 1);
		uint64_t lo = info->lo & ~(info->max_align - 1);

		b = lo < base ? base - lo : 0;
	}
	if (info->lo > UINT64_MAX - b || info->lo + b < ELF_MIN_ADDR || info->hi > limit ||
	    b > limit - info->hi)
		return ELF_ERR_RANGE;
	*bias = b;
	return ELF_OK;
}

const char *elf_strerror(int err)
{
	static const char *const msgs[ELF_ERR_COUNT] = {
		[ELF_OK] = "ok",
		[ELF_ERR_SHORT] = "too short for an ELF header",
		[ELF_ERR_MAGIC] = "not an ELF file",
		[ELF_ERR_CLASS] = "not a 64-bit ELF file",
		[ELF_ERR_DATA] = "not little-endian",
		[ELF_ERR_VERSION] = "unknown ELF version",
		[ELF_ERR_MACHINE] = "not an x86-64 executable",
		[ELF_ERR_TYPE] = "not an executable (ELF type is neither EXEC nor DYN)",
		[ELF_ERR_PHDRS] = "program header table invalid or outside the file",
		[ELF_ERR_INTERP] = "dynamically linked (PT_INTERP): only static executables run "
				   "here; build with musl-gcc -static",
		[ELF_ERR_NO_LOAD] = "no loadable segment",
		[ELF_ERR_TOO_MANY] = "too many loadable segments",
		[ELF_ERR_SEGMENT] = "a loadable segment is invalid (sizes, file range, alignment)",
		[ELF_ERR_OVERLAP] = "loadable segments overlap or are out of order",
		[ELF_ERR_RANGE] = "a loadable segment lies outside the user address range",
		[ELF_ERR_ENTRY] = "the entry point lies outside every loadable segment",
	};

	return err >= 0 && err < ELF_ERR_COUNT && msgs[err] ? msgs[err] : "unknown error";
}
