/*
 * A Linux /init's INFO frame text (include/entrylab/linux_init.h) into
 * struct el_linux_info (run.h): KEY=VALUE lines, every key known, every
 * value fitting its field.  Pure; the text is the guest's and untrusted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/linux_init.h"
#include "frame.h"

#define FIELD(key, member) {key, offsetof(struct el_linux_info, member), \
			    sizeof(((struct el_linux_info *)0)->member)}

static const struct {
	const char *key;
	size_t off, size; /* the field in struct el_linux_info, NUL included */
} info_keys[] = {
	FIELD(EL_LINUX_INFO_RELEASE, release),
	FIELD(EL_LINUX_INFO_CMDLINE, cmdline),
	FIELD(EL_LINUX_INFO_MELTDOWN, meltdown),
	FIELD(EL_LINUX_INFO_CLOCKSOURCE, clocksource),
	FIELD(EL_LINUX_INFO_VSYSCALL, vsyscall),
	FIELD(EL_LINUX_INFO_KTEXT, ktext),
};
#define NKEYS EL_ARRAY_SIZE(info_keys)

static int info_bad(char *err, size_t errlen, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int info_bad(char *err, size_t errlen, unsigned line, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "INFO line %u: ", line);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* What a known key's value must look like besides fitting: "" if fine, else why not. */
static const char *value_check(const char *key, const char *v, size_t n)
{
	if (!strcmp(key, EL_LINUX_INFO_VSYSCALL)) {
		static const char *const modes[] = {"none", "xonly", "emulate"};

		for (size_t i = 0; i < EL_ARRAY_SIZE(modes); i++)
			if (strlen(modes[i]) == n && !memcmp(v, modes[i], n))
				return "";
		return "is none of none, xonly, emulate";
	}
	if (!strcmp(key, EL_LINUX_INFO_KTEXT)) {
		if (n > 16)
			return "is longer than a 64-bit address";
		for (size_t i = 0; i < n; i++)
			if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
				return "is not lower-case hex (kallsyms' _text), nor empty";
	}
	return "";
}

int frame_linux_info(const char *text, size_t len, struct el_linux_info *li, char *err,
		     size_t errlen)
{
	bool seen[NKEYS] = {false};
	const char *p = text, *end = text + len;
	unsigned line = 0;

	memset(li, 0, sizeof(*li));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end, *eq, *why;
		size_t klen, vlen, k;

		line++;
		eq = memchr(p, '=', (size_t)(eol - p));
		if (eol == p)
			return info_bad(err, errlen, line, "empty (each line is KEY=VALUE)");
		if (!eq)
			return info_bad(err, errlen, line, "'%.*s' has no '=' (each line is KEY=VALUE)",
					(int)((eol - p) > 40 ? 40 : (eol - p)), p);
		klen = (size_t)(eq - p);
		vlen = (size_t)(eol - eq - 1);
		for (k = 0; k < NKEYS; k++)
			if (strlen(info_keys[k].key) == klen && !memcmp(p, info_keys[k].key, klen))
				break;
		if (k == NKEYS)
			return info_bad(err, errlen, line, "unknown key '%.*s' (linux_init.h: release, "
					"cmdline, meltdown, clocksource, vsyscall, ktext)",
					(int)(klen > 32 ? 32 : klen), p);
		if (seen[k])
			return info_bad(err, errlen, line, "key '%s' given twice", info_keys[k].key);
		seen[k] = true;
		if (vlen >= info_keys[k].size)
			return info_bad(err, errlen, line, "%s is %zu bytes, longer than the %zu kept",
					info_keys[k].key, vlen, info_keys[k].size - 1);
		for (size_t i = 0; i < vlen; i++) {
			unsigned char c = (unsigned char)eq[1 + i];

			if (c < 0x20 || c == 0x7f)
				return info_bad(err, errlen, line, "%s holds control byte 0x%02x at "
						"%zu", info_keys[k].key, c, i);
		}
		why = value_check(info_keys[k].key, eq + 1, vlen);
		if (*why)
			return info_bad(err, errlen, line, "%s '%.*s' %s", info_keys[k].key,
					(int)(vlen > 40 ? 40 : vlen), eq + 1, why);
		memcpy((char *)li + info_keys[k].off, eq + 1, vlen);
		((char *)li + info_keys[k].off)[vlen] = '\0';
		p = nl ? nl + 1 : end;
	}
	return 0;
}
