/*
 * EL_LINUX_CONF (include/entrylab/linux_init.h): the KEY=VALUE lines the
 * host writes for /init.  Pure (host unit tests compile it).
 */
#ifndef LINIT_CONF_H
#define LINIT_CONF_H

#include <stddef.h>
#include <stdint.h>

#include <entrylab/abi.h>

struct linit_conf {
	uint64_t events[EL_MAX_COUNTERS]; /* events=: EL_EVSEL_* CFGs, in order */
	unsigned nr_events;
	int ksyms;        /* ksyms=1 */
	uint32_t region;  /* region=: enum el_region_scope, MARKED when absent */
	int no_faults;    /* faults=0: no software page-fault event (a trace: it would be traced) */
	char argv0[128]; /* argv0=NAME: the program's argv[0]; "": EL_LINUX_PROGRAM */
};

/*
 * Parses text[0..len): lines "KEY=VALUE" ending in '\n' (the last one may
 * end the text instead), empty lines ignored.  Every problem is refused:
 * an unknown or repeated key, a line without '=', a NUL, a bad value.
 * 0, or -1 with the line and the problem in err.
 */
int linit_conf_parse(const char *text, size_t len, struct linit_conf *c, char *err,
		     size_t errlen);

#endif
