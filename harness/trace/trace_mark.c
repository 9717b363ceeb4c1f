/*
 * The listing's marker column: which instructions are the entry code's
 * landmarks (CR3 writes, SWAPGS, SYSRET, IRET, MSR writes, TLB flushes,
 * fences, ...), recognised from the bytes, so a listing can be read for
 * them at a glance.  The table is the documentation: harness/trace/README.md
 * lists the same names.
 */
#include <string.h>

#include "array_size.h"
#include "trace.h"

enum { MOD_ANY, MOD_REG, MOD_MEM };

/* An opcode (after prefixes and REX), optionally a ModRM reg field and mod kind. */
struct mark_rule {
	uint8_t len; /* opcode bytes to compare (a fixed ModRM byte included) */
	uint8_t op[3];
	int8_t reg;      /* ModRM.reg after the opcode, -1 any */
	uint8_t mod;     /* MOD_ANY, MOD_REG (mod 3), MOD_MEM (mod != 3) */
	uint8_t need_66; /* mandatory 66 prefix (INVPCID) */
	const char *mark;
};

static const struct mark_rule rules[] = {
	/* mov %reg, %crN (the CPU ignores ModRM.mod here) */
	{2, {0x0f, 0x22}, 3, MOD_ANY, 0, "CR3"},
	{2, {0x0f, 0x22}, -1, MOD_ANY, 0, "CR"},
	{3, {0x0f, 0x01, 0xf8}, -1, MOD_ANY, 0, "SWAPGS"},
	{2, {0x0f, 0x05}, -1, MOD_ANY, 0, "SYSCALL"},
	{2, {0x0f, 0x07}, -1, MOD_ANY, 0, "SYSRET"},
	{1, {0xcf}, -1, MOD_ANY, 0, "IRET"},
	{2, {0x0f, 0x34}, -1, MOD_ANY, 0, "SYSENTER"},
	{2, {0x0f, 0x35}, -1, MOD_ANY, 0, "SYSEXIT"},
	{2, {0x0f, 0x30}, -1, MOD_ANY, 0, "WRMSR"},
	{2, {0x0f, 0x32}, -1, MOD_ANY, 0, "RDMSR"},
	{3, {0x0f, 0x38, 0x82}, -1, MOD_MEM, 1, "INVPCID"},
	{2, {0x0f, 0x01}, 7, MOD_MEM, 0, "INVLPG"},
	{3, {0x0f, 0x01, 0xca}, -1, MOD_ANY, 0, "CLAC"},
	{3, {0x0f, 0x01, 0xcb}, -1, MOD_ANY, 0, "STAC"},
	{3, {0x0f, 0x01, 0xf9}, -1, MOD_ANY, 0, "RDTSCP"},
	{2, {0x0f, 0x31}, -1, MOD_ANY, 0, "RDTSC"},
	{2, {0x0f, 0xae}, 5, MOD_REG, 0, "LFENCE"},
	{2, {0x0f, 0xae}, 6, MOD_REG, 0, "MFENCE"},
	{2, {0x0f, 0xae}, 7, MOD_REG, 0, "SFENCE"},
	{2, {0x0f, 0x00}, 5, MOD_ANY, 0, "VERW"},
	{2, {0x0f, 0xa2}, -1, MOD_ANY, 0, "CPUID"},
	{1, {0xfa}, -1, MOD_ANY, 0, "CLI"},
	{1, {0xfb}, -1, MOD_ANY, 0, "STI"},
	{1, {0xf4}, -1, MOD_ANY, 0, "HLT"},
	{1, {0xe6}, -1, MOD_ANY, 0, "OUT"},
	{1, {0xe7}, -1, MOD_ANY, 0, "OUT"},
	{1, {0xee}, -1, MOD_ANY, 0, "OUT"},
	{1, {0xef}, -1, MOD_ANY, 0, "OUT"},
	{1, {0xe4}, -1, MOD_ANY, 0, "IN"},
	{1, {0xe5}, -1, MOD_ANY, 0, "IN"},
	{1, {0xec}, -1, MOD_ANY, 0, "IN"},
	{1, {0xed}, -1, MOD_ANY, 0, "IN"},
};

static bool is_prefix(uint8_t c)
{
	static const uint8_t legacy[] = {0x66, 0x67, 0xf0, 0xf2, 0xf3, 0x2e,
					 0x36, 0x3e, 0x26, 0x64, 0x65};

	return memchr(legacy, c, sizeof(legacy)) != NULL;
}

static bool rule_matches(const struct mark_rule *r, const uint8_t *op, unsigned n, bool has_66)
{
	uint8_t modrm;

	if (n < r->len || memcmp(op, r->op, r->len) || (r->need_66 && !has_66))
		return false;
	if (r->reg < 0 && r->mod == MOD_ANY)
		return true;
	if (n < (unsigned)r->len + 1u)
		return false;
	modrm = op[r->len];
	if (r->reg >= 0 && ((modrm >> 3) & 7) != r->reg)
		return false;
	if (r->mod == MOD_REG)
		return (modrm >> 6) == 3;
	if (r->mod == MOD_MEM)
		return (modrm >> 6) != 3;
	return true;
}

const char *trace_insn_mark(const uint8_t *bytes, unsigned n)
{
	unsigned i = 0;
	bool has_66 = false;

	for (; i < n && is_prefix(bytes[i]); i++)
		has_66 |= bytes[i] == 0x66;
	if (i < n && (bytes[i] & 0xf0) == 0x40) /* REX */
		i++;
	for (size_t r = 0; r < EL_ARRAY_SIZE(rules); r++)
		if (rule_matches(&rules[r], bytes + i, n - i, has_66))
			return rules[r].mark;
	return "";
}
