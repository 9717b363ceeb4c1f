/*
 * eltrace's shared state (the plugin of `entrylab trace`): one entry per
 * guest instruction ever translated, the markers, the open window.  One
 * vCPU and single-threaded TCG (-icount), so no locking.
 */
#ifndef EL_ELTRACE_H
#define EL_ELTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "qemu_plugin_abi.h"

#define MAX_INSN_BYTES 16
/* Marker sites (a Linux guest's program): at most this many of each kind. */
#define MAX_SITES 64
/* User code runs below this address (the trace's split, harness/trace/trace.h). */
#define USER_END 0x0000800000000000ull

struct insn {
	uint64_t count;  /* completed executions, whole run (eltrace_count.c) */
	uint64_t snap;   /* count when the open window began */
	uint64_t window; /* completed executions inside windows */
	uint64_t first;  /* listing: rank of the first execution in a window, 0 = none */
	uint64_t vaddr;
	const void *haddr;
	char *disas;        /* listing only */
	struct insn *chain; /* hash bucket */
	struct insn *next;  /* all instructions */
	bool rep_string;    /* REP-prefixed string instruction: see eltrace_count.c */
	uint8_t size;
	uint8_t bytes[MAX_INSN_BYTES];
};

struct eltrace {
	uint64_t begin, end; /* the marker OUTs' virtual addresses (our kernel) */
	/* or the program's marker SYSCALLs (user addresses, sites mode) */
	uint64_t begin_site[MAX_SITES], end_site[MAX_SITES];
	unsigned nbegin, nend;
	uint64_t armed; /* sites: where the BEGIN SYSCALL that ran last returns to, 0 none */
	const char *out;
	bool listing;
	struct insn **bucket;
	size_t nbuckets, ninsns;
	struct insn *all;
	bool open;
	uint64_t windows, rank;
	bool failed; /* out of memory: the output says so */
};

extern struct eltrace st;

/* Sites mode: the window opens and closes at the program's marker SYSCALLs. */
static inline bool sites_mode(void)
{
	return st.nbegin > 0;
}

/* The entry of a translated instruction, created on first sight; NULL out of memory. */
struct insn *insn_get(const struct qemu_plugin_insn *qi);

/* Is e the marker SYSCALL at one of these user addresses (address and bytes 0f 05)? */
bool insn_is_site(const struct insn *e, const uint64_t *sites, unsigned n);

/* Translation callback: instruments a block (eltrace_count.c). */
void count_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
/* At exit: close a window the guest left open. */
void count_finish(void);

#endif
