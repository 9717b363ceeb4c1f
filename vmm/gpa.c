/*
 * Guest RAM: allocation, the slot layout (gpa.h) and the checked
 * guest-physical to host translation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "gpa.h"
#include "vm.h"

bool el_mem_contains(const struct el_mem *mem, uint64_t gpa, uint64_t len)
{
	for (unsigned i = 0; i < mem->nr_slots; i++) {
		const struct el_mem_slot *s = &mem->slot[i];

		if (gpa >= s->gpa && gpa - s->gpa < s->size)
			return len <= s->size - (gpa - s->gpa);
	}
	return false;
}

void *el_mem_gpa(const struct el_mem *mem, uint64_t gpa, uint64_t len)
{
	for (unsigned i = 0; i < mem->nr_slots; i++) {
		const struct el_mem_slot *s = &mem->slot[i];

		/* Written as differences so that no sum can wrap. */
		if (gpa < s->gpa || gpa - s->gpa >= s->size)
			continue;
		if (len > s->size - (gpa - s->gpa))
			return NULL;
		return s->hva + (gpa - s->gpa);
	}
	return NULL;
}

void *el_gpa(struct el_vm *vm, uint64_t gpa, uint64_t len)
{
	return el_mem_gpa(&vm->mem, gpa, len);
}

uint64_t el_mem_low_end(const struct el_mem *mem)
{
	return mem->nr_slots ? mem->slot[0].gpa + mem->slot[0].size : 0;
}

int el_mem_alloc(struct el_mem *mem, uint64_t bytes, char *err, size_t errlen)
{
	void *p;

	memset(mem, 0, sizeof(*mem));
	if (el_limits_mem_check(bytes, err, errlen))
		return -1;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %llu MiB of guest memory: %s; lower --memory",
			 (unsigned long long)(bytes >> 20), strerror(errno));
		return -1;
	}
	/* Fewer EPT/NPT entries and faults; failure only costs speed. */
	madvise(p, bytes, MADV_HUGEPAGE);

	el_mem_layout(mem, p, bytes);
	return 0;
}

void el_mem_layout(struct el_mem *mem, uint8_t *base, uint64_t bytes)
{
	mem->base = base;
	mem->size = bytes;
	mem->slot[0] = (struct el_mem_slot){
		.gpa = 0, .size = bytes < EL_MEM_LOW_END ? bytes : EL_MEM_LOW_END, .hva = base};
	mem->nr_slots = 1;
	if (bytes > EL_MEM_LOW_END) {
		mem->slot[1] = (struct el_mem_slot){.gpa = EL_MEM_HIGH_BASE,
						    .size = bytes - EL_MEM_LOW_END,
						    .hva = base ? base + EL_MEM_LOW_END : NULL};
		mem->nr_slots = 2;
	}
}

void el_mem_free(struct el_mem *mem)
{
	if (mem->base)
		munmap(mem->base, mem->size);
	memset(mem, 0, sizeof(*mem));
}
