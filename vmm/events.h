/*
 * Counter events: perf names (-e) -> event selects for the guest PMU.
 * Parsing is vendor-neutral and happens before anything boots; resolving a
 * name to its encoding needs the CPU's vendor, family and model, because
 * cache and TLB events are model-specific (a model without a known
 * encoding gets EL_EVENT_NONE, reported not-supported, never a guess).
 */
#ifndef EL_EVENTS_H
#define EL_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "entrylab/abi.h"

#define EL_EVENT_NAME_MAX 40

struct el_event_req {
	char name[EL_EVENT_NAME_MAX]; /* as written, the record's key: "instructions:k" */
	int id;                       /* row of the event table; -1 for a raw event */
	uint64_t raw;                 /* raw event select (id -1) */
	uint64_t priv;                /* EL_EVSEL_USR and/or EL_EVSEL_OS */
};

struct el_event_list {
	unsigned n;
	struct el_event_req ev[EL_MAX_COUNTERS];
};

/*
 * Parses an -e LIST ("cycles,instructions:k,r01c2:u"); NULL or "" is no
 * event.  Returns 0, or -1 with a message naming the token and the fix.
 */
int events_parse(const char *list, struct el_event_list *out, char *err, size_t errlen);

/* The CPU an encoding is for: CPUID vendor string, family and model (decoded). */
struct el_event_cpu {
	const char *vendor;
	unsigned family, model;
};

/* The event select (EL_EVSEL_* layout, USR/OS included) or EL_EVENT_NONE. */
uint64_t events_resolve(const struct el_event_req *e, const struct el_event_cpu *cpu);

/* Fills cfg[0..list->n) with events_resolve() of each. */
void events_resolve_all(const struct el_event_list *list, const struct el_event_cpu *cpu,
			uint64_t *cfg);

/*
 * Appends " el.events=0x..,0x.." for cfg[0..n) to the command line in buf
 * (nothing when n is 0).  Returns 0, or -1 with a message when it does not fit.
 */
int events_cmdline_append(char *buf, size_t len, const uint64_t *cfg, unsigned n, char *err,
			  size_t errlen);

/*
 * events_resolve_all() for the CPU this process runs on (the CPUID
 * instruction): KVM gives the vCPU the host's vendor, family and model.
 */
void events_for_this_cpu(const struct el_event_list *list, uint64_t *cfg);

/* `entrylab list events`: the table, and the encodings cpu gets. */
void events_list(FILE *f, const struct el_event_cpu *cpu);
void events_list_this_cpu(FILE *f);

#endif
