/*
 * PVH start-of-day data (layout in pvh_start.h): hvm_start_info, its memmap
 * and module list, the boot GDT matching the vCPU's entry selectors, and
 * the kernel command line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "entrylab/pvh.h"
#include "pvh_start.h"

#define ERR0(...) (snprintf(err, errlen, __VA_ARGS__), 0)
#define PAGE_MASK 0xfffull

int pvh_cmdline_compose(char *out, size_t outlen, const char *append, uint64_t tsc_khz,
			char *err, size_t errlen)
{
	size_t max = outlen < EL_CMDLINE_MAX ? outlen : EL_CMDLINE_MAX;
	char tail[96] = "";
	struct timespec now;
	int t = 0, n;

	if (!append)
		append = "";
	if (tsc_khz)
		t += snprintf(tail + t, sizeof(tail) - (size_t)t, " el.tsc_khz=%" PRIu64, tsc_khz);
	/* Unix time at (about) the vCPU's TSC 0: a guest's CLOCK_REALTIME without kvmclock. */
	if (clock_gettime(CLOCK_REALTIME, &now) == 0 && now.tv_sec > 0)
		t += snprintf(tail + t, sizeof(tail) - (size_t)t, " el.epoch_ns=%" PRIu64,
			      (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
	n = snprintf(out, max, "%s%s", append, tail + (*append || !t ? 0 : 1));
	if (n < 0 || (size_t)n >= max) {
		snprintf(err, errlen,
			 "the guest command line is %d bytes; the limit is %zu: shorten --append",
			 n, max - 1);
		return -1;
	}
	return 0;
}

/* Flat 4 GiB code and data, and a 32-bit TSS at 0 (limit 0x67): what PVH entry promises. */
static const uint64_t boot_gdt[EL_BOOT_GDT_ENTRIES] = {
	0,
	0x00cf9b000000ffffull, /* 0x08: code, 32-bit, base 0, limit 4 GiB, accessed */
	0x00cf93000000ffffull, /* 0x10: data, read/write, base 0, limit 4 GiB, accessed */
	0x00008b0000000067ull, /* 0x18: 32-bit TSS (busy), base 0, limit 0x67 */
};

static unsigned memmap_fill(struct el_mem *mem, struct pvh_memmap_entry *map)
{
	unsigned n = 0;

	for (unsigned i = 0; i < mem->nr_slots && n < EL_MEMMAP_MAX; i++)
		map[n++] = (struct pvh_memmap_entry){
			.addr = mem->slot[i].gpa, .size = mem->slot[i].size, .type = PVH_MEM_RAM};
	return n;
}

/* Module 0 at the top of RAM below 3 GiB; returns its GPA or 0 (message in err). */
static uint64_t initrd_place(struct el_mem *mem, uint64_t kernel_end, const unsigned char *initrd,
			     size_t len, char *err, size_t errlen)
{
	uint64_t top = el_mem_low_end(mem), floor = (kernel_end + PAGE_MASK) & ~PAGE_MASK;
	uint64_t gpa;
	void *dst;

	if (floor < EL_BOOT_AREA_END)
		floor = EL_BOOT_AREA_END;
	if (len > top || ((top - len) & ~PAGE_MASK) < floor)
		return ERR0("the initrd (%zu bytes) does not fit between the kernel (ending at "
			    "0x%" PRIx64 ") and 0x%" PRIx64 ": raise --memory",
			    len, kernel_end, top);
	gpa = (top - len) & ~PAGE_MASK;
	dst = el_mem_gpa(mem, gpa, len);
	if (!dst)
		return ERR0("initrd range 0x%" PRIx64 " (+%zu) is not RAM", gpa, len);
	memcpy(dst, initrd, len);
	return gpa;
}

uint64_t pvh_start_build(struct el_mem *mem, const char *cmdline, uint64_t kernel_end,
			 const unsigned char *initrd, size_t initrd_len, char *err,
			 size_t errlen)
{
	struct pvh_start_info *si = el_mem_gpa(mem, EL_START_INFO_GPA, sizeof(*si));
	struct pvh_module *mod = el_mem_gpa(mem, EL_MODLIST_GPA, sizeof(*mod));
	struct pvh_memmap_entry *map =
		el_mem_gpa(mem, EL_MEMMAP_GPA, EL_MEMMAP_MAX * sizeof(*map));
	void *gdt = el_mem_gpa(mem, EL_BOOT_GDT_GPA, sizeof(boot_gdt));
	char *cl = el_mem_gpa(mem, EL_CMDLINE_GPA, EL_CMDLINE_MAX);
	size_t cl_len = strlen(cmdline);

	if (!si || !mod || !map || !gdt || !cl)
		return ERR0("guest RAM does not cover the boot-info area below 0x%x",
			    EL_BOOT_AREA_END);
	if (cl_len >= EL_CMDLINE_MAX)
		return ERR0("the guest command line is %zu bytes; the limit is %u: shorten "
			    "--append",
			    cl_len, EL_CMDLINE_MAX - 1);

	memset(si, 0, sizeof(*si));
	si->magic = PVH_START_MAGIC;
	si->version = PVH_START_VERSION;
	memcpy(cl, cmdline, cl_len + 1);
	si->cmdline_paddr = EL_CMDLINE_GPA;
	si->memmap_entries = memmap_fill(mem, map);
	si->memmap_paddr = EL_MEMMAP_GPA;
	memcpy(gdt, boot_gdt, sizeof(boot_gdt));

	if (initrd && initrd_len) {
		uint64_t gpa = initrd_place(mem, kernel_end, initrd, initrd_len, err, errlen);

		if (!gpa)
			return 0;
		*mod = (struct pvh_module){.paddr = gpa, .size = initrd_len};
		si->nr_modules = 1;
		si->modlist_paddr = EL_MODLIST_GPA;
	}
	return EL_START_INFO_GPA;
}
