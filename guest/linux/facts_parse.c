/* Linux's /proc and /sys text into report terms: each parser one fact. */
#include "facts_parse.h"

#include <string.h>

#include <entrylab/knobs.h>

#define MELTDOWN_PTI "Mitigation: PTI"

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* Does the line [p, e) start with prefix? */
static bool starts(const char *p, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(e - p) >= n && !memcmp(p, prefix, n);
}

int linit_cpuinfo_flags(const char *cpuinfo, size_t len, char *flags, size_t flagslen)
{
	const char *p = cpuinfo, *end = cpuinfo + len;

	if (!flagslen)
		return -1;
	while (p < end) {
		const char *e = line_end(p, end), *colon;
		size_t n;

		/* "flags\t\t: fpu vme ..." (the key, tabs, ": "). */
		if (starts(p, e, "flags") && (colon = memchr(p, ':', (size_t)(e - p)))) {
			const char *k = p + 5;

			while (k < colon && (*k == ' ' || *k == '\t'))
				k++;
			if (k == colon) {
				colon++;
				while (colon < e && *colon == ' ')
					colon++;
				n = (size_t)(e - colon);
				if (n >= flagslen)
					n = flagslen - 1;
				memcpy(flags, colon, n);
				flags[n] = '\0';
				return 0;
			}
		}
		p = e + 1;
	}
	flags[0] = '\0';
	return -1;
}

bool linit_flag_has(const char *flags, const char *word)
{
	size_t n = strlen(word);
	const char *p = flags;

	if (!n)
		return false;
	while ((p = strstr(p, word))) {
		bool left = p == flags || p[-1] == ' ';
		bool right = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';

		if (left && right)
			return true;
		p += n;
	}
	return false;
}

uint8_t linit_pti(const char *flags, const char *meltdown)
{
	if (linit_flag_has(flags, "pti"))
		return EL_ON;
	if (meltdown && !strncmp(meltdown, MELTDOWN_PTI, strlen(MELTDOWN_PTI)))
		return EL_ON;
	return EL_OFF;
}

uint8_t linit_flag_config(const char *flags, const char *flag, bool in_cpuid)
{
	if (linit_flag_has(flags, flag))
		return EL_ON;
	return in_cpuid ? EL_OFF : EL_CONFIG_UNAVAILABLE;
}

/* The line of maps whose path is name ("[vsyscall]"), or NULL; *perms its permissions. */
static const char *maps_find(const char *maps, size_t len, const char *name, const char **perms)
{
	const char *p = maps, *end = maps + len;
	size_t n = strlen(name);

	while (p < end) {
		const char *e = line_end(p, end), *sp;

		/* "start-end perms offset dev inode   path" */
		if ((size_t)(e - p) > n && !memcmp(e - n, name, n) && e[-n - 1] == ' ' &&
		    (sp = memchr(p, ' ', (size_t)(e - p))) && e - sp > 5) {
			*perms = sp + 1;
			return p;
		}
		p = e + 1;
	}
	return NULL;
}

uint8_t linit_vsyscall_mode(const char *maps, size_t len)
{
	const char *perms;

	if (!maps_find(maps, len, "[vsyscall]", &perms))
		return EL_VSYSCALL_NONE;
	return perms[0] == 'r' ? EL_VSYSCALL_EMULATE : EL_VSYSCALL_XONLY;
}

uint8_t linit_vdso_mode(const char *maps, size_t len)
{
	const char *perms;

	return maps_find(maps, len, "[vdso]", &perms) ? EL_VDSO_ON : EL_VDSO_OFF;
}

const char *linit_vsyscall_name(uint8_t mode)
{
	switch (mode) {
	case EL_VSYSCALL_EMULATE:
		return "emulate";
	case EL_VSYSCALL_XONLY:
		return "xonly";
	default:
		return "none";
	}
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int linit_ksym_parse(const char *line, size_t len, struct linit_ksym *s)
{
	size_t i = 0, name;

	while (i < len && is_hex(line[i]))
		i++;
	if (i == 0 || i > 16 || i + 3 > len || line[i] != ' ' || line[i + 2] != ' ')
		return -1;
	s->addr = line;
	s->addrlen = i;
	s->type = line[i + 1];
	name = i + 3;
	s->name = line + name;
	for (i = name; i < len && line[i] != '\t' && line[i] != ' '; i++)
		;
	s->namelen = i - name;
	return s->namelen ? 0 : -1;
}

bool linit_ksym_is_text(const struct linit_ksym *s)
{
	return s->type == 't' || s->type == 'T';
}
