/* The INFO frame's text (facts.h).  Pure: the host unit tests compile it. */
#include <string.h>

#include <entrylab/linux_init.h>

#include "facts.h"
#include "facts_parse.h"

struct info_out {
	char *p;
	size_t left;
};

/* "key=value\n", the value cut (never the newline) to what is left. */
static void info_put(struct info_out *o, const char *key, const char *value)
{
	size_t k = strlen(key), v = strlen(value);

	if (o->left < k + 2)
		return;
	memcpy(o->p, key, k);
	o->p[k] = '=';
	o->p += k + 1;
	o->left -= k + 1;
	if (v > o->left - 1)
		v = o->left - 1;
	for (size_t i = 0; i < v; i++) {
		unsigned char c = (unsigned char)value[i];

		o->p[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	o->p[v] = '\n';
	o->p += v + 1;
	o->left -= v + 1;
}

size_t linit_info_format(const struct linit_facts *f, char *out, size_t cap)
{
	struct info_out o = {out, cap};

	info_put(&o, EL_LINUX_INFO_RELEASE, f->release);
	info_put(&o, EL_LINUX_INFO_MELTDOWN, f->meltdown);
	info_put(&o, EL_LINUX_INFO_CLOCKSOURCE, f->clocksource);
	info_put(&o, EL_LINUX_INFO_VSYSCALL, linit_vsyscall_name(f->config[EL_CFG_VSYSCALL]));
	info_put(&o, EL_LINUX_INFO_KTEXT, f->ktext);
	/* Last: the one long value, cut if need be, never at the expense of another. */
	info_put(&o, EL_LINUX_INFO_CMDLINE, f->cmdline);
	return cap - o.left;
}
