/*
 * Code symbols of the guest's ELF images (kernel, program, vDSO) for the
 * trace's per-symbol counts, read with libelf from memory.  C functions
 * carry sizes; assembler labels (the entry code) do not, and extend to the
 * next symbol.  A label inside a sized function (the region markers') does
 * not split it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "host_elf.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

static bool in_code_section(Elf *e, size_t shndx)
{
	Elf_Scn *scn = shndx && shndx < SHN_LORESERVE ? elf_getscn(e, shndx) : NULL;
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/*
 * Equal addresses: sized functions first, the strongest binding among them
 * (__vdso_time, not its weak alias time); among labels, names without "__"
 * (entry code, not the linker script's __entry_text_start), then binding;
 * then not Linux's 32-bit compat alias of a system call (__x64_sys_getpid,
 * not __ia32_sys_getpid at the same address), then a name without a
 * leading '_' (startup_64, not the linker script's _text), then by name, so
 * the choice never depends on the sort.
 */
int symtab_cmp(const void *a, const void *b)
{
	const struct el_sym *x = a, *y = b;
	int ux = !strncmp(x->name, "__", 2), uy = !strncmp(y->name, "__", 2);
	int cx = !strncmp(x->name, "__ia32_", 7), cy = !strncmp(y->name, "__ia32_", 7);

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->sized_func != y->sized_func)
		return y->sized_func - x->sized_func;
	if (!x->sized_func && ux != uy)
		return ux - uy;
	if (x->global != y->global)
		return y->global - x->global;
	if (ux != uy)
		return ux - uy;
	if (cx != cy)
		return cx - cy;
	if ((x->name[0] == '_') != (y->name[0] == '_'))
		return (x->name[0] == '_') - (y->name[0] == '_');
	return strcmp(x->name, y->name);
}

static uint8_t bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 1 : 0;
}

/* The executable segments: a kernel has low boot code and high text, nothing between. */
static void extent(Elf *e, uint64_t bias, struct el_symtab *t)
{
	size_t nph;

	if (elf_getphdrnum(e, &nph))
		nph = 0;
	for (size_t i = 0; i < nph && t->nranges < EL_SYMTAB_RANGES; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		t->lo[t->nranges] = ph.p_vaddr + bias;
		t->hi[t->nranges++] = ph.p_vaddr + ph.p_memsz + bias;
	}
}

bool symtab_covers(const struct el_symtab *t, uint64_t addr)
{
	for (unsigned i = 0; i < t->nranges; i++)
		if (addr >= t->lo[i] && addr < t->hi[i])
			return true;
	return false;
}

int symtab_load(struct el_symtab *t, const char *image, const void *elf, size_t len,
		uint64_t bias, char *err, size_t errlen)
{
	Elf *e = host_elf_open(elf, len, NULL, 0);
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t n, strbytes = 0, used = 0;

	memset(t, 0, sizeof(*t));
	t->image = image;
	if (!e)
		return ERR("%s: not a 64-bit ELF image", image);
	extent(e, bias, t);
	scn = host_elf_symbols(e, &sh);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;
			unsigned type;

			if (!gelf_getsym(data, (int)i, &s))
				continue;
			type = GELF_ST_TYPE(s.st_info);
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if ((type != STT_FUNC && type != STT_NOTYPE) || !name || !*name ||
			    !in_code_section(e, s.st_shndx))
				continue;
			if (!pass) {
				strbytes += strlen(name) + 1;
				t->n++;
				continue;
			}
			t->syms[used] = (struct el_sym){
				.addr = s.st_value + bias, .size = s.st_size,
				.name = strcpy(t->strings + strbytes, name),
				.sized_func = type == STT_FUNC && s.st_size,
				.global = bind_rank(GELF_ST_BIND(s.st_info))};
			strbytes += strlen(name) + 1;
			used++;
		}
		if (!pass) {
			t->syms = calloc(t->n ? t->n : 1, sizeof(*t->syms));
			t->strings = malloc(strbytes ? strbytes : 1);
			strbytes = 0;
			if (!t->syms || !t->strings) {
				elf_end(e);
				symtab_free(t);
				return ERR("out of memory");
			}
		}
	}
	elf_end(e);
	qsort(t->syms, t->n, sizeof(*t->syms), symtab_cmp);
	return 0;
}

void symtab_free(struct el_symtab *t)
{
	free(t->syms);
	free(t->strings);
	t->syms = NULL;
	t->strings = NULL;
	t->n = 0;
}

const struct el_sym *symtab_lookup(const struct el_symtab *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = t->n;
	const struct el_sym *best = NULL;

	if (!t->n || !symtab_covers(t, addr))
		return NULL;
	/* Last symbol at or below addr; the first of equals sorts best. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	best = &t->syms[lo - 1];
	while (best > t->syms && best[-1].addr == best->addr)
		best--;
	/* A label inside a sized function belongs to the function. */
	for (const struct el_sym *s = best; s >= t->syms && !best->sized_func; s--) {
		if (s->sized_func && addr < s->addr + s->size) {
			best = s;
			while (best > t->syms && best[-1].addr == best->addr)
				best--;
			break;
		}
		if (s->sized_func)
			break;
	}
	*off = addr - best->addr;
	return best;
}

