/*
 * Black-box helpers for the KVM tests: run the entrylab binary as a user
 * would, capture its output and exit status, and read back its records.
 */
#ifndef EL_TEST_HARNESS_H
#define EL_TEST_HARNESS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

struct el_proc {
	int status;  /* exit status, or 128+signal */
	char *out;   /* stdout, NUL-terminated */
	char *err;   /* stderr, NUL-terminated */
};

/* Runs argv (argv[0] is a program path) with stdout/stderr captured. */
void proc_run(struct el_proc *p, const char *const argv[]);
void proc_free(struct el_proc *p);

/* Runs `entrylab ARGS... ` (NULL-terminated list after the first). */
void entrylab(struct el_proc *p, const char *first, ...);

/* A fresh, empty output file path in a per-test temporary directory. */
const char *tmp_output(const char *name);

/* The last record of a JSON-lines file (NULL if none); caller puts it. */
struct json_object *last_record(const char *path);
/* Number of records (lines) in a file. */
int record_count(const char *path);

/* Dotted lookup: "guest.cpuid.pge"; NULL if absent. */
struct json_object *jget(struct json_object *o, const char *path);
const char *jstr(struct json_object *o, const char *path);

/*
 * The entry-variant matrix the suites run programs under: pti off/on x
 * entry.ret iret/sysret x entry.irq_return direct/trampoline.  Variant i
 * (0 .. EL_VARIANTS - 1) is the OR of the EL_VARIANT_* bits of the knobs
 * it turns on: EL_VARIANT_OFF (0) is everything off, EL_VARIANT_ON
 * (EL_VARIANTS - 1) everything on.  The knob values are the boot parameters'
 * (guest-kernel/config.c) and the record's guest.config.pti/ret/irq_return.
 */
enum {
	EL_VARIANT_TRAMPOLINE = 1, /* entry.irq_return=trampoline (else direct) */
	EL_VARIANT_SYSRET = 2,     /* entry.ret=sysret (else iret) */
	EL_VARIANT_PTI = 4,        /* pti=on (else off) */
	EL_VARIANT_OFF = 0,
	EL_VARIANT_ON = EL_VARIANT_PTI | EL_VARIANT_SYSRET | EL_VARIANT_TRAMPOLINE,
};
#define EL_VARIANTS (EL_VARIANT_ON + 1)
const char *el_variant_pti(int i);
const char *el_variant_ret(int i);
const char *el_variant_irq(int i);
/* "pti=%s entry.ret=%s entry.irq_return=%s" of variant i, into buf. */
void el_variant_append(int i, char *buf, size_t len);

/*
 * True when `entrylab run` will use the nested runner here: the engine
 * probe's decision (harness/engine/engine.h), the very function entrylab
 * asks, so $ENTRYLAB_KVM_DEVICE and ENTRYLAB_FORCE_NESTED count for both.
 */
bool nested_mode(void);

/* Whether exe is an executable in one of $PATH's directories (the Bochs tests' tools). */
bool in_path(const char *exe);

#endif
