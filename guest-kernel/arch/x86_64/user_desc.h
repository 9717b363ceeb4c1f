/*
 * struct user_desc (Linux's asm/ldt.h) and the code/data descriptors made
 * from it, as Linux's fill_ldt() and fill_user_desc(): for modify_ldt(2)
 * (ldt.c) and set_thread_area/get_thread_area (tls.c).  Pure layouts and
 * inline functions.
 */
#ifndef EL_ARCH_USER_DESC_H
#define EL_ARCH_USER_DESC_H

#include "kernel.h"

/* struct user_desc: the flag bits after the three words. */
struct user_desc {
	uint32_t entry_number;
	uint32_t base_addr;
	uint32_t limit;
	uint32_t flags;
};
_Static_assert(sizeof(struct user_desc) == 16, "user_desc is 16 bytes, in both ABIs");

#define UD_SEG_32BIT BIT(0)
#define UD_CONTENTS_SHIFT 1 /* 2 bits: 0 data, 1 expand-down data, 2 code, 3 conforming code */
#define UD_READ_EXEC_ONLY BIT(3)
#define UD_LIMIT_IN_PAGES BIT(4)
#define UD_SEG_NOT_PRESENT BIT(5)
#define UD_USEABLE BIT(6)
#define UD_LM BIT(7)
#define UD_DEFINED 0x7f /* lm (bit 7) and the padding bits never matter */

/* Code/data descriptor fields (Intel SDM vol. 3, 3.4.5). */
#define DESC_ACCESSED BIT(40)
#define DESC_WRITABLE BIT(41)
#define DESC_S BIT(44)
#define DESC_DPL3 (3ull << 45)
#define DESC_P BIT(47)
#define DESC_AVL BIT(52)
#define DESC_L BIT(53)
#define DESC_DB BIT(54)
#define DESC_G BIT(55)

/* The 32-bit base of a code/data descriptor. */
static inline uint32_t desc_base(uint64_t d)
{
	return (uint32_t)(((d >> 16) & 0xffffff) | ((d >> 56) & 0xff) << 24);
}

/* fill_ldt(): DPL 3, the accessed bit set, L never set. */
static inline uint64_t desc_encode(const struct user_desc *u)
{
	uint32_t f = u->flags;
	uint64_t type = (uint64_t)!(f & UD_READ_EXEC_ONLY) << 1 | /* writable data, readable code */
			(uint64_t)((f >> UD_CONTENTS_SHIFT) & 3) << 2;

	return (u->limit & 0xffff) | (uint64_t)(u->base_addr & 0xffffff) << 16 | type << 40 |
	       DESC_ACCESSED | DESC_S | DESC_DPL3 | ((f & UD_SEG_NOT_PRESENT) ? 0 : DESC_P) |
	       (uint64_t)((u->limit >> 16) & 0xf) << 48 | ((f & UD_USEABLE) ? DESC_AVL : 0) |
	       ((f & UD_SEG_32BIT) ? DESC_DB : 0) | ((f & UD_LIMIT_IN_PAGES) ? DESC_G : 0) |
	       (uint64_t)(u->base_addr >> 24) << 56;
}

/* fill_user_desc(): what get_thread_area reports of descriptor d at entry idx. */
static inline void desc_decode(uint64_t d, uint32_t idx, struct user_desc *u)
{
	uint32_t type = (uint32_t)(d >> 40) & 0xf;

	u->entry_number = idx;
	u->base_addr = desc_base(d);
	u->limit = (uint32_t)(d & 0xffff) | (uint32_t)((d >> 48) & 0xf) << 16;
	u->flags = ((d & DESC_DB) ? UD_SEG_32BIT : 0) | (type >> 2) << UD_CONTENTS_SHIFT |
		   ((type & 2) ? 0 : UD_READ_EXEC_ONLY) | ((d & DESC_G) ? UD_LIMIT_IN_PAGES : 0) |
		   ((d & DESC_P) ? 0 : UD_SEG_NOT_PRESENT) | ((d & DESC_AVL) ? UD_USEABLE : 0) |
		   ((d & DESC_L) ? UD_LM : 0);
}

/* Linux's LDT_empty(): "no segment" as documented (read_exec_only and seg_not_present only). */
static inline bool ud_empty(const struct user_desc *u)
{
	return !u->base_addr && !u->limit &&
	       (u->flags & UD_DEFINED) == (UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT);
}

#endif
