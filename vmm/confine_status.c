/*
 * Reads the confinement back as the kernel reports it: the fields of
 * /proc/self/status (Seccomp, NoNewPrivs, CapEff, CapBnd, Uid, Gid) into
 * struct el_confine_info.  Pure text parsing (unit-tested).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confine.h"

/* The value after "Key:" at the start of a line, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
	}
	return NULL;
}

static long status_long(const char *text, const char *key)
{
	const char *v = status_field(text, key);
	char *end;
	long n;

	if (!v)
		return -1;
	n = strtol(v, &end, 10);
	return end == v ? -1 : n;
}

static void status_word(const char *text, const char *key, char *out, size_t len)
{
	const char *v = status_field(text, key);
	size_t n = 0;

	if (v)
		while (v[n] && v[n] != '\n' && v[n] != ' ' && v[n] != '\t')
			n++;
	if (n >= len)
		n = len - 1;
	memcpy(out, v ? v : "", n);
	out[n] = 0;
}

void confine_status_parse(const char *text, struct el_confine_info *info)
{
	info->seccomp_mode = (int)status_long(text, "Seccomp");
	info->no_new_privs = (int)status_long(text, "NoNewPrivs");
	info->uid = status_long(text, "Uid");
	info->gid = status_long(text, "Gid");
	status_word(text, "CapEff", info->cap_eff, sizeof(info->cap_eff));
	status_word(text, "CapBnd", info->cap_bnd, sizeof(info->cap_bnd));
}

/* Test and debug knobs of the confinement (vmm/README.md); the nested runner passes them in. */
const char *const confine_env_names[] = {
	"ENTRYLAB_NO_SECCOMP",
	"ENTRYLAB_TEST_SECCOMP_VIOLATE",
	"ENTRYLAB_TEST_VMM_SEGV",
	NULL,
};
