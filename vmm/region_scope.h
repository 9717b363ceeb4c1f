/*
 * The region's scope (abi.h enum el_region_scope), decided by the host
 * before boot and handed to the guest: what `--region marked|whole` asks,
 * else what the program's ELF says (marker sites: marked; none: whole, as
 * perf stat measures a command).  One place for the rule, the knob and the
 * conf line, so run, trace and matrix decide alike.
 */
#ifndef EL_REGION_SCOPE_H
#define EL_REGION_SCOPE_H

#include <stddef.h>

#include "entrylab/abi.h"

/*
 * --region VALUE: "marked" or "whole" (el_region_scope_names).  0 and *out
 * set, or -1 for anything else.
 */
int region_scope_parse(const char *s, enum el_region_scope *out);

/*
 * The scope a program runs with.  asked: --region, EL_REGION_SCOPE_NONE when
 * not given.  Without it: MARKED when the ELF lists a BEGIN marker site
 * (EL_REGION_SITES_SECTION, linux_init.h), else WHOLE; an i386 program
 * (ELFCLASS32) has no marker sites (marker.h is 64-bit code): WHOLE.  -1 with the reason
 * (and the fix) in err when the sites section is malformed and the scope
 * was not given, else the scope.
 */
int region_scope_resolve(enum el_region_scope asked, const void *elf, size_t len, char *err,
			 size_t errlen);

/*
 * Our kernel's command line: " el.region=whole" appended for WHOLE (the
 * kernel's default is marked; NONE and MARKED append nothing).  0, or -1
 * with the reason in err when buf (len bytes, NUL-terminated) has no room.
 */
int region_cmdline_append(char *buf, size_t len, enum el_region_scope scope, char *err,
			  size_t errlen);

/*
 * Linux's /init conf line for the scope (linux_init.h, key region=):
 * "region=whole\n", or "" for marked (/init's default) and none.
 */
const char *region_linux_conf(enum el_region_scope scope);

#endif
