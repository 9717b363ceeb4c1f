/* The region's scope, decided before boot (region_scope.h). */
#include "region_scope.h"

#include <stdio.h>
#include <string.h>

#include "entrylab/linux_init.h"
#include "host_elf.h"

/* More than any program lists; a marked program needs one BEGIN among them. */
#define SITES_MAX 4096

int region_scope_parse(const char *s, enum el_region_scope *out)
{
	for (int k = EL_REGION_SCOPE_MARKED; k < EL_REGION_SCOPE_COUNT; k++) {
		if (!strcmp(s, el_region_scope_names[k])) {
			*out = (enum el_region_scope)k;
			return 0;
		}
	}
	return -1;
}

int region_scope_resolve(enum el_region_scope asked, const void *elf, size_t len, char *err,
			 size_t errlen)
{
	static struct el_region_site sites[SITES_MAX];
	char why[400];
	int n;

	if (asked == EL_REGION_SCOPE_MARKED || asked == EL_REGION_SCOPE_WHOLE)
		return (int)asked;
	if (len > EI_CLASS && ((const unsigned char *)elf)[EI_CLASS] == ELFCLASS32)
		return EL_REGION_SCOPE_WHOLE;
	n = elf_region_sites(elf, len, sites, SITES_MAX, why, sizeof(why));
	if (n < 0) {
		snprintf(err, errlen, "its marker sites (section %s): %s; rebuild it with "
			 "<entrylab/marker.h>, or give --region whole to measure it whole",
			 EL_REGION_SITES_SECTION, why);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (sites[i].op == EL_REGION_BEGIN)
			return EL_REGION_SCOPE_MARKED;
	return EL_REGION_SCOPE_WHOLE;
}

int region_cmdline_append(char *buf, size_t len, enum el_region_scope scope, char *err,
			  size_t errlen)
{
	size_t used = strlen(buf);
	int n;

	if (scope != EL_REGION_SCOPE_WHOLE)
		return 0;
	n = snprintf(buf + used, len - used, "%sel.region=%s", used ? " " : "",
		     el_region_scope_names[scope]);
	if (n < 0 || (size_t)n >= len - used) {
		buf[used] = '\0';
		snprintf(err, errlen, "the guest command line has no room for el.region (%zu of %zu "
			 "bytes used): shorten --append", used, len);
		return -1;
	}
	return 0;
}

const char *region_linux_conf(enum el_region_scope scope)
{
	return scope == EL_REGION_SCOPE_WHOLE ? "region=whole\n" : "";
}
