/*
 * Fuzz target: the ELF checks of what the VMM loads, on the same bytes: the
 * guest kernel's PVH loader (vmm/pvh_load.c, pvh_parse against 64 MiB of
 * RAM, then pvh_load into a real buffer when it passes), the --exec check
 * (vmm/initrd.c exec_check) and common/elf_check.c (elf_check, elf_place).
 */
#include "elf_check.h"
#include "fuzz.h"
#include "gpa.h"
#include "initrd.h"
#include "pvh_load.h"

#define RAM_SIZE (64u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t *ram;
	struct el_mem mem = {.size = RAM_SIZE, .nr_slots = 1};
	struct pvh_image img;
	struct elf_info info;
	char err[512];
	uint64_t bias;

	if (!ram && !(ram = calloc(1, RAM_SIZE)))
		abort();
	mem.base = ram;
	mem.slot[0] = (struct el_mem_slot){.gpa = 0, .size = RAM_SIZE, .hva = ram};
	if (pvh_parse(data, size, &mem, &img, err, sizeof(err)) == 0 &&
	    pvh_load(data, size, &mem, &img, err, sizeof(err)) != 0)
		fuzz_fail("pvh_load refused an image pvh_parse accepted");
	exec_check(data, size, err, sizeof(err));
	if (elf_check(data, size, &info) == 0)
		elf_place(&info, 1ull << 47, &bias);
	return 0;
}
