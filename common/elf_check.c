/*
 * ELF executable validation (elf_check.h): ELF64 x86-64 and ELF32 i386.
 * Fields are read byte by byte (little-endian, any alignment) so the same
 * code runs on the host; the 32-bit headers' fields are read at their own
 * offsets into the same 64-bit values.
 */
#include "elf_check.h"

#define EHDR_SIZE 64
#define EHDR32_SIZE 52
#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define PF_X 1u
#define PF_W 2u
#define PF_R 4u
#define EM_386 3
#define EM_X86_64 62
#define ELFCLASS32 1
#define ELFCLASS64 2

/* Where each field lies in a header of either class (Elf64_Ehdr/Phdr, Elf32_Ehdr/Phdr). */
struct elf_fmt {
	unsigned ehdr_size, phent_size, word;
	unsigned e_entry, e_phoff, e_phentsize, e_phnum;
	unsigned p_flags, p_offset, p_vaddr, p_filesz, p_memsz, p_align;
};

static const struct elf_fmt fmt64 = {EHDR_SIZE, ELF_PHENT_SIZE, 8, 24, 32, 54, 56,
				     4, 8, 16, 32, 40, 48};
static const struct elf_fmt fmt32 = {EHDR32_SIZE, ELF32_PHENT_SIZE, 4, 24, 28, 42, 44,
				     24, 4, 8, 16, 20, 28};

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

/* The class and machine go together: ELFCLASS64 EM_X86_64, or ELFCLASS32 EM_386. */
static int check_ident(const uint8_t *b, size_t len)
{
	unsigned machine;

	if (len < EHDR32_SIZE)
		return ELF_ERR_SHORT;
	if (b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F')
		return ELF_ERR_MAGIC;
	if (b[4] != ELFCLASS64 && b[4] != ELFCLASS32)
		return ELF_ERR_CLASS;
	if (b[4] == ELFCLASS64 && len < EHDR_SIZE)
		return ELF_ERR_SHORT;
	if (b[5] != 1)
		return ELF_ERR_DATA;
	if (b[6] != 1 || rd(b + 20, 4) != 1)
		return ELF_ERR_VERSION;
	machine = (unsigned)rd(b + 18, 2);
	if (machine != EM_X86_64 && machine != EM_386)
		return ELF_ERR_MACHINE;
	if ((machine == EM_X86_64) != (b[4] == ELFCLASS64))
		return ELF_ERR_CLASS;
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
static int add_load(const struct elf_fmt *f, const uint8_t *ph, size_t len,
		    struct elf_info *info)
{
	struct elf_segment s = {
		.offset = rd(ph + f->p_offset, (int)f->word),
		.vaddr = rd(ph + f->p_vaddr, (int)f->word),
		.filesz = rd(ph + f->p_filesz, (int)f->word),
		.memsz = rd(ph + f->p_memsz, (int)f->word),
		.prot = seg_prot((uint32_t)rd(ph + f->p_flags, 4)),
	};
	uint64_t align = rd(ph + f->p_align, (int)f->word), end;

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
static void find_phdr(const struct elf_fmt *f, struct elf_info *info, uint64_t phoff,
		      uint64_t phdr_pt)
{
	uint64_t size = (uint64_t)info->phnum * f->phent_size;
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
	const struct elf_fmt *f;
	uint64_t phoff, phdr_pt = 0;
	unsigned i, phentsize;
	int err = check_ident(b, len);

	if (err)
		return err;
	f = b[4] == ELFCLASS32 ? &fmt32 : &fmt64;
	*info = (struct elf_info){.max_align = ELF_PAGE, .is32 = f == &fmt32};
	info->type = (uint16_t)rd(b + 16, 2);
	info->entry = rd(b + f->e_entry, (int)f->word);
	phoff = rd(b + f->e_phoff, (int)f->word);
	phentsize = (unsigned)rd(b + f->e_phentsize, 2);
	info->phnum = (uint16_t)rd(b + f->e_phnum, 2);
	if (phentsize != f->phent_size || info->phnum == 0 || info->phnum > ELF_MAX_PHNUM ||
	    phoff > len || (uint64_t)info->phnum * f->phent_size > len - phoff)
		return ELF_ERR_PHDRS;
	for (i = 0; i < info->phnum; i++) {
		const uint8_t *ph = b + phoff + (uint64_t)i * f->phent_size;
		uint32_t type = (uint32_t)rd(ph, 4);

		if (type == PT_INTERP)
			return ELF_ERR_INTERP;
		if (type == PT_PHDR)
			phdr_pt = rd(ph + f->p_vaddr, (int)f->word);
		if (type == PT_LOAD && (err = add_load(f, ph, len, info)))
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
	find_phdr(f, info, phoff, phdr_pt);
	return ELF_OK;
}

int elf_place(const struct elf_info *info, uint64_t limit, uint64_t *bias)
{
	uint64_t b = 0;

	if (info->type == ELF_ET_DYN) {
		uint64_t base = (info->is32 ? ELF32_DYN_BASE : ELF_DYN_BASE) & ~(info->max_align - 1);
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
		[ELF_ERR_CLASS] = "neither a 64-bit x86-64 nor a 32-bit i386 ELF file",
		[ELF_ERR_DATA] = "not little-endian",
		[ELF_ERR_VERSION] = "unknown ELF version",
		[ELF_ERR_MACHINE] = "neither an x86-64 nor an i386 executable",
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
