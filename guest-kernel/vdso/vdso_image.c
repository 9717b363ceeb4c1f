/*
 * The table of embedded vDSO images and the boot-time check that an image
 * can be mapped as is: the build checks the same (vdso_check.cmake), this
 * catches a kernel linked with stale or foreign images.
 */
#include "lib/kprintf.h"
#include "lib/string.h"
#include "vdso/elf64.h"
#include "vdso/vdso_image.h"

/* Dynamic tags: what a mapped-as-is vDSO must have, and what it must not. */
static const struct {
	int64_t tag;
	bool required;
	const char *name;
} dyn_rules[] = {
	{4, true, "DT_HASH"},
	{0x6ffffef5, true, "DT_GNU_HASH"},
	{14, true, "DT_SONAME"},
	{0x6ffffffc, true, "DT_VERDEF"},
	{1, false, "DT_NEEDED"},
	{7, false, "DT_RELA"},
	{17, false, "DT_REL"},
	{22, false, "DT_TEXTREL"},
	{23, false, "DT_JMPREL"},
	{36, false, "DT_RELR"},
};

#define VDSO_IMAGE_DECL(tsc, clamp)                                                        \
	extern const uint8_t vdso_image_##tsc##_##clamp[], vdso_image_##tsc##_##clamp##_end[];
#define VDSO_IMAGE_ENTRY(tsc, clamp)                                                       \
	{#tsc "-" #clamp, vdso_image_##tsc##_##clamp, vdso_image_##tsc##_##clamp##_end}

VDSO_IMAGE_DECL(lfence, branch)
VDSO_IMAGE_DECL(lfence, cmov)
VDSO_IMAGE_DECL(lfence2, branch)
VDSO_IMAGE_DECL(lfence2, cmov)
VDSO_IMAGE_DECL(rdtscp, branch)
VDSO_IMAGE_DECL(rdtscp, cmov)
VDSO_IMAGE_DECL(none, branch)
VDSO_IMAGE_DECL(none, cmov)

static const struct vdso_image images[VDSO_TSC_VARIANTS][VDSO_CLAMP_VARIANTS] = {
	[EL_TSC_LFENCE] = {[EL_CLAMP_BRANCH] = VDSO_IMAGE_ENTRY(lfence, branch),
			   [EL_CLAMP_CMOV] = VDSO_IMAGE_ENTRY(lfence, cmov)},
	[EL_TSC_LFENCE2] = {[EL_CLAMP_BRANCH] = VDSO_IMAGE_ENTRY(lfence2, branch),
			    [EL_CLAMP_CMOV] = VDSO_IMAGE_ENTRY(lfence2, cmov)},
	[EL_TSC_RDTSCP] = {[EL_CLAMP_BRANCH] = VDSO_IMAGE_ENTRY(rdtscp, branch),
			   [EL_CLAMP_CMOV] = VDSO_IMAGE_ENTRY(rdtscp, cmov)},
	[EL_TSC_NONE] = {[EL_CLAMP_BRANCH] = VDSO_IMAGE_ENTRY(none, branch),
			 [EL_CLAMP_CMOV] = VDSO_IMAGE_ENTRY(none, cmov)},
};

const struct vdso_image *vdso_image_get(unsigned tsc, unsigned clamp)
{
	if (tsc >= VDSO_TSC_VARIANTS || clamp >= VDSO_CLAMP_VARIANTS)
		return 0;
	return &images[tsc][clamp];
}

static bool inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static const char *check_dynamic(const uint8_t *img, const struct elf64_phdr *dyn, uint64_t size)
{
	static char why[64];
	const struct elf64_dyn *d = (const void *)(img + dyn->offset);
	uint64_t n = dyn->filesz / sizeof(*d), i;
	unsigned r, seen = 0;

	if (!inside(dyn->offset, dyn->filesz, size) || dyn->offset % 8)
		return "PT_DYNAMIC lies outside the image";
	for (i = 0; i < n && d[i].tag != 0; i++)
		for (r = 0; r < ARRAY_SIZE(dyn_rules); r++)
			if (d[i].tag == dyn_rules[r].tag) {
				if (!dyn_rules[r].required) {
					ksnprintf(why, sizeof(why), "it has %s", dyn_rules[r].name);
					return why;
				}
				seen |= 1u << r;
			}
	if (i == n)
		return "the dynamic section has no DT_NULL";
	for (r = 0; r < ARRAY_SIZE(dyn_rules); r++)
		if (dyn_rules[r].required && !(seen & (1u << r))) {
			ksnprintf(why, sizeof(why), "it lacks %s", dyn_rules[r].name);
			return why;
		}
	return 0;
}

const char *vdso_image_check(const struct vdso_image *img)
{
	static const uint8_t ident[7] = {0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* LE */, 1};
	const struct elf64_ehdr *eh = (const void *)img->start;
	const struct elf64_phdr *ph, *load = 0, *dyn = 0;
	uint64_t size = (uint64_t)(img->end - img->start);
	unsigned i;

	if (size < sizeof(*eh) || memcmp(eh->ident, ident, sizeof(ident)) ||
	    eh->type != ET_DYN || eh->machine != EM_X86_64)
		return "not an x86-64 ELF shared object";
	if (eh->phentsize != sizeof(*ph) ||
	    !inside(eh->phoff, (uint64_t)eh->phnum * sizeof(*ph), size))
		return "program headers outside the image";
	ph = (const void *)(img->start + eh->phoff);
	for (i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_LOAD) {
			if (load)
				return "more than one PT_LOAD";
			load = &ph[i];
		} else if (ph[i].type == PT_DYNAMIC) {
			dyn = &ph[i];
		}
	}
	if (!load || load->offset || load->vaddr || load->flags != PF_RX ||
	    load->filesz != load->memsz || load->memsz > size)
		return "its PT_LOAD is not one R+X segment at 0 within the image";
	if (!dyn)
		return "no PT_DYNAMIC";
	return check_dynamic(img->start, dyn, size);
}
