/*
 * What Linux says about itself, from the text of its /proc and /sys files,
 * into the report's terms (include/entrylab/knobs.h config values).  Pure:
 * the host unit tests compile it.  facts.c reads the files.
 */
#ifndef LINIT_FACTS_PARSE_H
#define LINIT_FACTS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The "flags" line of /proc/cpuinfo's first processor (the value after
 * ':'), copied into flags (NUL-terminated, cut at flagslen); -1 if the text
 * has none.
 */
int linit_cpuinfo_flags(const char *cpuinfo, size_t len, char *flags, size_t flagslen);

/* Is the word one of the space-separated flags? */
bool linit_flag_has(const char *flags, const char *word);

/*
 * PTI as Linux set it up: on when the flags show "pti" (X86_FEATURE_PTI,
 * which `pti=on` forces even on a CPU without Meltdown, whose meltdown file
 * then still says "Not affected") or the meltdown file says
 * "Mitigation: PTI"; off otherwise.  EL_ON / EL_OFF.
 */
uint8_t linit_pti(const char *flags, const char *meltdown);

/*
 * A feature Linux uses, as a config value: EL_ON when the flag shows (Linux
 * clears pcid, invpcid for nopcid, noinvpcid and when it will not use them),
 * EL_OFF when CPUID offers it but Linux does not show it, and
 * EL_CONFIG_UNAVAILABLE when CPUID does not offer it (as entrylab's kernel
 * reports a default it cannot honour).
 */
uint8_t linit_flag_config(const char *flags, const char *flag, bool in_cpuid);

/*
 * The legacy vsyscall page's mode from /proc/self/maps: a "[vsyscall]"
 * line Linux shows readable ("r-xp") is emulate, not readable ("--xp")
 * xonly; no line is none.  EL_VSYSCALL_*, always one of those three (the
 * INFO frame takes no other; a kernel old enough to have a native mode
 * shows it "r-xp" too and reads as emulate).
 */
uint8_t linit_vsyscall_mode(const char *maps, size_t len);

/* The vDSO from /proc/self/maps: a "[vdso]" line is EL_VDSO_ON, none EL_VDSO_OFF. */
uint8_t linit_vdso_mode(const char *maps, size_t len);

/* Its name as INFO writes it (none, xonly, emulate, ...): "unknown" for UNSET. */
const char *linit_vsyscall_name(uint8_t mode);

/*
 * One /proc/kallsyms line "ADDR TYPE NAME[\t[MODULE]]" (no '\n'): 0 with its
 * parts, -1 if it is not one.
 */
struct linit_ksym {
	const char *addr, *name;
	size_t addrlen, namelen;
	char type;
};
int linit_ksym_parse(const char *line, size_t len, struct linit_ksym *s);

/* Text symbols (types t and T), the ones KSYMS frames carry. */
bool linit_ksym_is_text(const struct linit_ksym *s);

#endif
