/* The event table, shared by events.c (encodings) and events_parse.c (names). */
#ifndef EL_EVENTS_PRIV_H
#define EL_EVENTS_PRIV_H

#include "events.h"

/* Microarchitecture families with their own encodings (table columns). */
enum ev_uarch { UA_INTEL, UA_INTEL_SKL, UA_INTEL_GLC, UA_ZEN, UA_ZEN4, UA_COUNT };
#define EV_MAX_UARCHS 4

struct ev_uarch_desc {
	const char *column; /* `entrylab list events` column */
	const char *what;
};

struct ev_row {
	const char *name;
	const char *alias; /* perf's other name, or NULL */
	const char *what;
	uint64_t code[UA_COUNT]; /* 0 = no encoding for that family */
};

extern const struct ev_uarch_desc ev_uarchs[UA_COUNT];
extern const struct ev_row ev_table[];
extern const unsigned ev_table_len;

/* Families cpu belongs to, most specific first (its model's, then the vendor's). */
unsigned ev_uarchs_of(const struct el_event_cpu *cpu, enum ev_uarch *out);

#endif
