/*
 * eltrace's shared state (the plugin of `entrylab trace`): one entry per
 * guest instruction ever translated, the window's kind and markers, the
 * open window.  One vCPU and single-threaded TCG (-icount), so no locking.
 */
#ifndef EL_ELTRACE_H
#define EL_ELTRACE_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * How a window opens and closes (eltrace.c has the arguments of each):
 *   OUT    our kernel, marked: at the BEGIN OUT, to the END OUT
 *   USER   our kernel, whole program: at the first user instruction once
 *          the BEGIN OUT ran, to the END OUT
 *   SITES  a Linux program, marked: where a BEGIN site's SYSCALL returns,
 *          to an END site's SYSCALL
 *   ENTRY  a Linux program, whole: at its ELF entry point, to /init's
 *          instruction after its waitpid (EL_LINUX_WHOLE_END_SYMBOL)
 */
enum window_kind { WINDOW_OUT, WINDOW_USER, WINDOW_SITES, WINDOW_ENTRY, WINDOW_KINDS };
extern const char *const window_kind_names[WINDOW_KINDS];

/* An instruction the plugin looks for: its address and, when given, its first bytes. */
struct mark {
	uint64_t vaddr;
	uint8_t bytes[MAX_INSN_BYTES];
	unsigned nbytes; /* 0: matched by address alone */
};

struct eltrace {
	enum window_kind kind;
	struct mark begin, end; /* OUT, USER: the OUTs; ENTRY: the entry point and /init's label */
	/* SITES: the program's marker SYSCALLs (user addresses) */
	uint64_t begin_site[MAX_SITES], end_site[MAX_SITES];
	unsigned nbegin, nend;
	uint64_t armed; /* sites: where the BEGIN SYSCALL that ran last returns to, 0 none */
	bool armed_user; /* USER: the BEGIN OUT ran, the next user block opens the window */
	uint64_t begun;  /* BEGIN markers executed (OUT, site SYSCALL, entry instruction) */
	uint64_t opened; /* windows opened */
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

/*
 * The plugin's arguments into s (eltrace_args.c, pure: the unit tests run
 * it).  0, or -1 with what is wrong and what is expected in err.
 */
int eltrace_args(struct eltrace *s, int argc, char **argv, char *err, size_t errlen);

/* Is e the instruction m names: its address, and its bytes when m has some? */
bool mark_matches(const struct mark *m, const struct insn *e);

/* The entry of a translated instruction, created on first sight; NULL out of memory. */
struct insn *insn_get(const struct qemu_plugin_insn *qi);

/* Is e the marker SYSCALL at one of these user addresses (address and bytes 0f 05)? */
bool insn_is_site(const struct insn *e, const uint64_t *sites, unsigned n);

/* Translation callback: instruments a block (eltrace_count.c). */
void count_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
/* At exit: close a window the guest left open. */
void count_finish(void);

#endif
