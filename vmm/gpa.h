/*
 * Guest-physical memory: the RAM layout and the one checked translator from
 * guest-physical addresses to host pointers.  Every access the VMM makes
 * to guest memory goes through el_gpa(); the guest is untrusted, so a range
 * that is not entirely inside one RAM slot yields NULL, never a pointer.
 *
 * Layout (guest-physical):
 *
 *   0                 .. min(mem, 3 GiB)    RAM, slot 0
 *   3 GiB             .. 4 GiB              hole: LAPIC, IOAPIC, KVM's TSS pages
 *   4 GiB             .. 4 GiB + rest       RAM, slot 1 (only when mem > 3 GiB)
 *
 * One host mapping backs both slots, so host offset = gpa (slot 0) or
 * gpa - 1 GiB (slot 1).
 */
#ifndef EL_GPA_H
#define EL_GPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "el_limits.h"

#define EL_MEM_LOW_END 0xc0000000ull    /* RAM below this, then the hole */
#define EL_MEM_HIGH_BASE 0x100000000ull /* the rest of RAM from here */
#define EL_MEM_SLOTS 2

struct el_mem_slot {
	uint64_t gpa, size;
	uint8_t *hva;
};

struct el_mem {
	uint8_t *base; /* host mapping of all RAM */
	uint64_t size;
	struct el_mem_slot slot[EL_MEM_SLOTS];
	unsigned nr_slots;
};

struct el_vm;

/* Host pointer for [gpa, gpa + len), or NULL unless it lies inside one RAM slot. */
void *el_gpa(struct el_vm *vm, uint64_t gpa, uint64_t len);
void *el_mem_gpa(const struct el_mem *mem, uint64_t gpa, uint64_t len);
/* True if [gpa, gpa + len) lies inside one RAM slot (no host mapping needed). */
bool el_mem_contains(const struct el_mem *mem, uint64_t gpa, uint64_t len);

/*
 * Maps bytes of anonymous memory (MAP_NORESERVE, hugepages advised) and
 * lays it out as above.  bytes: a multiple of 4 KiB in [EL_MEM_MIN,
 * EL_MEM_MAX].  -1 with a message naming the problem and the fix in err.
 */
int el_mem_alloc(struct el_mem *mem, uint64_t bytes, char *err, size_t errlen);
/*
 * The slot layout of bytes of RAM at base (NULL: the layout only, for checks
 * such as pvh_parse() before any memory is mapped).
 */
void el_mem_layout(struct el_mem *mem, uint8_t *base, uint64_t bytes);
void el_mem_free(struct el_mem *mem);

/* End of RAM below 4 GiB (where 32-bit code can reach). */
uint64_t el_mem_low_end(const struct el_mem *mem);

#endif
