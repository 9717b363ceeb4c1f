/*
 * The instructions a guest's failure is likely to stop on, by their opcode
 * bytes after the legacy prefixes and one REX prefix (insn_name.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "insn_name.h"

static const struct {
	uint8_t len;
	uint8_t op[3];
	const char *name;
} insns[] = {
	{2, {0x0f, 0x34}, "SYSENTER"},
	{2, {0x0f, 0x35}, "SYSEXIT"},
	{2, {0x0f, 0x05}, "SYSCALL"},
	{2, {0x0f, 0x07}, "SYSRET"},
	{2, {0x0f, 0x0b}, "UD2"},
	{2, {0x0f, 0x30}, "WRMSR"},
	{2, {0x0f, 0x32}, "RDMSR"},
	{2, {0x0f, 0xa2}, "CPUID"},
	{3, {0x0f, 0x01, 0xc1}, "VMCALL"},
	{3, {0x0f, 0x01, 0xd9}, "VMMCALL"},
	{3, {0x0f, 0x01, 0xd8}, "VMRUN"},
	{1, {0xf1}, "ICEBP (INT1)"},
	{1, {0xcc}, "INT3"},
	{1, {0xce}, "INTO"},
	{1, {0xcf}, "IRET"},
	{1, {0xf4}, "HLT"},
	{1, {0xe4}, "IN"},
	{1, {0xe5}, "IN"},
	{1, {0xec}, "IN"},
	{1, {0xed}, "IN"},
	{1, {0xe6}, "OUT"},
	{1, {0xe7}, "OUT"},
	{1, {0xee}, "OUT"},
	{1, {0xef}, "OUT"},
	{1, {0x6c}, "INS"},
	{1, {0x6d}, "INS"},
	{1, {0x6e}, "OUTS"},
	{1, {0x6f}, "OUTS"},
};

static bool is_prefix(uint8_t b)
{
	static const uint8_t prefixes[] = {0x66, 0x67, 0xf0, 0xf2, 0xf3, 0x26,
					   0x2e, 0x36, 0x3e, 0x64, 0x65};

	return memchr(prefixes, b, sizeof(prefixes)) != NULL;
}

const char *insn_name(const uint8_t *bytes, size_t len, char *buf, size_t buflen)
{
	size_t i = 0;

	while (i < len && i < 14 && is_prefix(bytes[i]))
		i++;
	if (i < len && (bytes[i] & 0xf0) == 0x40) /* REX */
		i++;
	if (i + 2 <= len && bytes[i] == 0xcd) {
		snprintf(buf, buflen, "INT 0x%02x", bytes[i + 1]);
		return buf;
	}
	for (size_t k = 0; k < EL_ARRAY_SIZE(insns); k++) {
		if (i + insns[k].len <= len && !memcmp(bytes + i, insns[k].op, insns[k].len)) {
			snprintf(buf, buflen, "%s", insns[k].name);
			return buf;
		}
	}
	return NULL;
}
