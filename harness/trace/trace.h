/*
 * `entrylab trace`: the guest under QEMU TCG with our plugin (eltrace,
 * harness/trace/) counting every instruction between the region markers.
 * The pieces, one file each: the QEMU command (trace_qemu.c) and process
 * (trace_spawn.c, started by harness/qemu/), the plugin's output
 * (trace_parse.c), the console (trace_console.c), how it ended
 * (trace_outcome.c), symbols (trace_syms.c, on common/host_elf.c),
 * attribution (trace_attr.c), output (trace_report.c, trace_listing.c) and
 * one trace as functions (trace_once.c).  The command's options and output
 * are cli/cli_trace.c and cli/cmd_trace.c.  harness/trace/README.md
 * documents the whole.
 */
#ifndef EL_TRACE_H
#define EL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpio.h"
#include "cpuid.h"
#include "entrylab/abi.h"
#include "entrylab/linux_init.h"
#include "program.h"
#include "request.h"
#include "run.h"

/* The plugin, embedded at build time (harness/trace/trace.cmake). */
extern const unsigned char entrylab_trace_plugin[], entrylab_trace_plugin_end[];

/* Guest virtual addresses the trace splits on (harness/trace/README.md). */
#define EL_TRACE_USER_END 0x0000800000000000ull
#define EL_TRACE_VSYSCALL 0xffffffffff600000ull
#define EL_TRACE_VSYSCALL_END 0xffffffffff601000ull
/* Fixed guest wall clock (2024-01-01T00:00:00Z): nothing in a trace depends on the host's. */
#define EL_TRACE_EPOCH_S 1704067200ull
/*
 * The guest's TSC rate under -icount shift=0: QEMU's TSC is its virtual
 * clock in ns, which advances 1 ns per instruction, so 1 GHz exactly.
 * Passed as el.tsc_khz, it spares the guest the PIT calibration (50 ms of
 * guest time, 50 million instructions, ~90% of a small trace's run).
 */
#define EL_TRACE_TSC_KHZ 1000000ull
/* Largest plugin output read back (a --listing of a big region is tens of MB). */
#define TRACE_PLUGIN_OUT_MAX (1ull << 30)
/* A trace's defaults where a run's differ: TCG is slower than KVM. */
#define EL_TRACE_MEMORY (256ull << 20)
#define EL_TRACE_TIMEOUT 600.0

/* What a trace adds to a run request (trace's own options). */
struct el_trace_opts {
	bool listing;     /* --listing: every instruction with its count */
	const char *qemu; /* --qemu FILE; NULL = $ENTRYLAB_QEMU or qemu-system-x86_64 */
	unsigned top;     /* --top N: symbols in the table (0 = default) */
};

/* ---- the QEMU process (trace_qemu.c) -------------------------------------- */

/*
 * QEMU's -cpu for a --cpu request: "max" plus feat=on|off per toggle.
 * -1 with a message in err for a feature TCG can never give (+arch-perfmon,
 * +kvmclock); QEMU's own `enforce` refuses the others.
 */
int trace_qemu_cpu(const struct el_cpu_request *req, char *out, size_t len, char *err,
		   size_t errlen);
/* Guest command line: append, the fixed wall clock, " -- " and the program's arguments. */
int trace_guest_cmdline(char *out, size_t len, const char *append, const char *init_args,
			char *err, size_t errlen);

struct el_trace_run {
	bool split_frames;   /* (set before trace_spawn) a Linux guest: COM1's frames apart */
	char *frames;        /* ... its frame lines (frame.h frame_split; malloc'd), NULL if none */
	size_t frames_len;
	bool frames_overflow; /* more frame bytes than FRAME_SPLIT_MAX, or no memory for them */
	int exit_code;       /* QEMU's exit status when it exited */
	int signal;          /* the signal that ended it, 0 if none */
	bool timed_out;      /* --timeout expired: QEMU was killed */
	bool spawn_failed;   /* QEMU could not be started (message in err) */
	bool no_qemu;        /* ... because there is no such executable */
	char *console;       /* COM1 as kept (common/output_cap.h; malloc'd, NUL-terminated) */
	size_t console_len;
	uint64_t console_bytes, console_dropped; /* written by the guest; of those not kept */
	char *qemu_err;      /* QEMU's stderr (malloc'd, NUL-terminated) */
	char *plugin_out;    /* the plugin's output file, NULL if it wrote none */
	size_t plugin_out_len;
	double wall_ms;
	char cpu[512];       /* -cpu as given to QEMU */
	char qemu[256];      /* the QEMU binary */
	char bios[256];      /* -bios FILE (qboot), "" for QEMU's default (SeaBIOS) */
	char err[512];
};

/*
 * An instruction the plugin looks for by address and by the bytes a file
 * has there (eltrace's entry= and end=): at most 16, fewer where the
 * segment ends first.
 */
struct el_trace_mark {
	uint64_t vaddr;
	uint8_t bytes[16];
	unsigned n;
};

/* The program's marker sites a trace of a Linux guest hands the plugin, at most. */
#define EL_TRACE_SITES_MAX 64
/*
 * What tracing a Linux guest adds (trace_linux.c): QEMU boots the kernel
 * file itself (-kernel: an ELF vmlinux by its PVH note, or a bzImage) with
 * entrylab's /init in the initrd, and the window is the program's marker
 * sites.  Filled by trace_prepare, freed by trace_job_free.
 */
struct el_trace_linux {
	struct el_region_site sites[EL_TRACE_SITES_MAX]; /* the program's, link-time = run-time */
	unsigned nsites;
	/* --region whole: the program's ELF entry point and /init's EL_LINUX_WHOLE_END_SYMBOL */
	struct el_trace_mark entry, whole_end;
	bool bzimage;           /* the kernel file is a bzImage (else an ELF vmlinux) */
	bool kernel_symtab;     /* ... an ELF whose symbol table has _text: symbols from it */
	bool ksyms;             /* /init sends /proc/kallsyms (conf ksyms=1): no symbols else */
	char cache[700];        /* the kernel symbol cache file, "" without a cache directory */
	char *cached;           /* its lines when it had them (a hit), else NULL */
	size_t cached_len;
	struct el_cpio initrd;  /* /init, the program, its arguments and conf (initrd_linux.h) */
	char kernel_file[4096]; /* what QEMU reads in place (spec->kernel_file); "": a copy */
	char cmdline[4096];     /* linux_cmdline_compose: base, trace knobs, --append */
};

/* One trace: the request, its spec and programs (the caller's), the options, the markers. */
struct el_trace_job {
	const struct el_run_request *req;
	const struct el_run_spec *spec;
	const struct el_programs *prog;
	struct el_trace_opts opts;
	uint64_t begin, end; /* filled by trace_prepare: our kernel's marker OUTs */
	enum el_region_scope scope; /* filled by trace_prepare: spec's, MARKED or WHOLE */
	struct el_trace_linux *lx; /* filled by trace_prepare for --guest linux, else NULL */
};

/* The firmware a trace boots with: qboot where installed, else NULL (QEMU's SeaBIOS). */
const char *trace_qemu_firmware(void);

/*
 * Runs argv (argv[0] found in PATH), capturing stdout as the console; -v
 * echoes it.  With r->split_frames, frame lines go to r->frames instead
 * (and are not echoed).
 */
void trace_spawn(const char *const argv[], double timeout_s, bool echo, struct el_trace_run *r);

/* Writes the images to a private directory, runs QEMU, collects everything, cleans up. */
void trace_qemu_run(const struct el_trace_job *job, struct el_trace_run *r);
void trace_run_free(struct el_trace_run *r);

/* ---- the plugin's output (trace_parse.c) ------------------------------------ */

struct el_trace_insn {
	uint64_t vaddr;
	uint64_t count; /* executions inside the region */
	uint64_t first; /* rank of its first execution there (listing), 0 unknown */
	uint8_t size;
	uint8_t bytes[16];
	char *disas; /* NULL without --listing */
};

/* The plugin's kinds of window (harness/trace/eltrace.h enum window_kind). */
enum el_trace_window {
	EL_TRACE_WINDOW_OUT,   /* our kernel, marked: BEGIN OUT to END OUT */
	EL_TRACE_WINDOW_USER,  /* our kernel, whole: first user instruction after BEGIN OUT */
	EL_TRACE_WINDOW_SITES, /* a Linux program, marked: its marker SYSCALLs */
	EL_TRACE_WINDOW_ENTRY, /* a Linux program, whole: its entry point to /init's label */
	EL_TRACE_WINDOWS
};
/* As the plugin writes them (its "window" line). */
extern const char *const el_trace_window_names[EL_TRACE_WINDOWS];

struct el_trace_data {
	enum el_trace_window window; /* the kind the plugin was asked for */
	uint64_t begin, end;   /* the markers the plugin was given */
	uint64_t begun;        /* BEGIN markers that ran (OUT, site SYSCALL, entry point) */
	uint64_t opened;       /* windows that opened */
	uint64_t windows;      /* closed begin..end windows */
	bool open;             /* a window began and never ended */
	uint64_t executed;     /* instructions of the whole run */
	bool plugin_error;     /* the plugin says its counts are incomplete */
	struct el_trace_insn *insns;
	size_t n;
};

/* 0, or -1 with a message in err (the text is the plugin's, checked as untrusted). */
int trace_parse(const char *text, size_t len, struct el_trace_data *d, char *err, size_t errlen);
void trace_data_free(struct el_trace_data *d);

/* ---- the console (trace_console.c) ------------------------------------------ */

/* Boot report lines -> report fields (cpuid, CR0/4, EFER, config, self-checks); true if found. */
bool trace_console_boot(const char *con, struct el_report *boot);
/* "[vdso] NAME at ADDR": the image's name ("lfence-branch") and base; false if none. */
bool trace_console_vdso(const char *con, char *name, size_t namelen, uint64_t *base);
/* "... exited with status N" (last one); false if none. */
bool trace_console_exit_status(const char *con, int *status);
/*
 * "region: iterations N tsc_ticks N tsc_khz N syscalls N page_faults N
 * interrupts N" (guest-kernel/report.c): *r with tsc_begin 0, tsc_end the
 * ticks, valid 1; false (and *r zeroed) if the guest printed none.
 */
bool trace_console_region(const char *con, struct el_region *r);
/* The guest kernel said it panicked or took a fatal exception. */
bool trace_console_panicked(const char *con);
/*
 * The region's iterations as the program declared them to el_region_begin(),
 * in its benchmark's unit (guest/benches.def): from the guest kernel's
 * "region: iterations N ..." line when it prints one (the last), else from a
 * built-in benchmark's result line "BENCH iterations=N ..." (guest/lib/bench.c
 * el_result; bench NULL skips it).  False if the console has neither.
 */
bool trace_console_iterations(const char *con, const char *bench, uint64_t *n);

/*
 * Why the plugin's output holds no measurement (no window closed), in the
 * terms of the window it was asked for: "the program's markers never ran:
 * no BEGIN marker executed", "... the program never reached user mode",
 * "BEGIN ran but no END ..."; NULL when at least one window closed.
 */
const char *trace_not_measured(const struct el_trace_data *d);

/* What QEMU's exit, its stderr, the console and the plugin's output say happened. */
void trace_outcome(const struct el_trace_run *q, const struct el_trace_data *d, bool have_data,
		   struct el_run_result *res);

/* ---- symbols (trace_syms.c) ------------------------------------------------- */

struct el_sym {
	uint64_t addr, size; /* size 0: an assembler label, it extends to the next symbol */
	const char *name;    /* into the table's strings */
	uint8_t sized_func;  /* STT_FUNC with a size: wins over labels inside it */
	uint8_t global;      /* binding: 2 global, 1 weak, 0 local */
};

struct el_symtab {
	const char *image;   /* "kernel", "program", "vdso" */
	struct el_sym *syms; /* sorted by addr */
	size_t n;
	char *strings;
#define EL_SYMTAB_RANGES 8
	uint64_t lo[EL_SYMTAB_RANGES], hi[EL_SYMTAB_RANGES]; /* executable segments, biased */
	unsigned nranges;    /* where this table applies */
};

/*
 * Code symbols (FUNC and labels in executable sections) of an ELF image,
 * from .symtab, else .dynsym, plus bias.  0, or -1 with a message in err.
 */
int symtab_load(struct el_symtab *t, const char *image, const void *elf, size_t len,
		uint64_t bias, char *err, size_t errlen);
void symtab_free(struct el_symtab *t);
/* The order of a table's symbols (qsort): by address, the best name of equals first. */
int symtab_cmp(const void *a, const void *b);
/* Is addr inside the table's executable segments (symbol or not)? */
bool symtab_covers(const struct el_symtab *t, uint64_t addr);
/* Symbol containing addr and the offset into it; NULL outside the segments or before the first. */
const struct el_sym *symtab_lookup(const struct el_symtab *t, uint64_t addr, uint64_t *off);

/* ---- a Linux kernel's symbols without a symbol table (trace_ksyms.c) -------- */

/* How far past its last symbol a kallsyms table reaches (the last function's length). */
#define EL_KSYMS_TAIL 0x10000ull

/*
 * /proc/kallsyms' text symbol lines ("ADDR t|T NAME" each ended by '\n',
 * ADDR hex, NAME 1..127 printable bytes, maybe "\t[module]" after it), as
 * /init's KSYMS frames or the cache hold them, into a table of image
 * "kernel": each address plus shift (wrapping: the cache's offsets from
 * _text plus _text's address), every symbol a label up to the next one,
 * the table's range from the first symbol to EL_KSYMS_TAIL past the last.
 * 0, or -1 with the first bad line named in err.
 */
int symtab_from_kallsyms(struct el_symtab *t, const char *text, size_t len, uint64_t shift,
			 char *err, size_t errlen);
/* _text's address in such lines; 0 if absent. */
uint64_t kallsyms_text_base(const char *text, size_t len);

/*
 * The kernel symbol cache: one file per kernel file, named by its SHA-256,
 * in $ENTRYLAB_KSYMS_CACHE ("" disables it), else $XDG_CACHE_HOME/entrylab/
 * ksyms, else ~/.cache/entrylab/ksyms.  ksyms_cache_path: the file's path,
 * -1 when there is no cache directory.  ksyms_cache_read: its lines, each
 * address an offset from _text (malloc'd; NULL if absent or not a cache
 * file).  ksyms_cache_write: KSYMS lines with text_base subtracted, written
 * to a temporary file and renamed (0, or -1 with err).
 */
int ksyms_cache_path(const void *kernel, size_t len, char *out, size_t outlen);
char *ksyms_cache_read(const char *path, size_t *len);
int ksyms_cache_write(const char *path, const char *ksyms, size_t len, uint64_t text_base,
		      char *err, size_t errlen);

/* ---- attribution (trace_attr.c) ------------------------------------------- */

enum el_trace_space { EL_TRACE_USER, EL_TRACE_KERNEL };

struct el_trace_maps {
	const struct el_symtab *tabs[4]; /* tried in order; NULL entries skipped */
	unsigned n;
};

/* Privilege by address: the user half and the vsyscall page (CPL 3) are user. */
enum el_trace_space trace_space(uint64_t vaddr);

struct el_trace_where {
	const char *image;  /* "kernel", "program", "vdso", "vsyscall", "unknown" */
	char name[128];     /* symbol, or "[vsyscall] time", or "[unknown user]" */
	uint64_t off;       /* into the symbol */
};
void trace_where(const struct el_trace_maps *m, uint64_t vaddr, struct el_trace_where *w);

struct el_trace_symcount {
	char name[128];
	const char *image;
	enum el_trace_space space;
	uint64_t count;
};

struct el_trace_totals {
	uint64_t user, kernel;
	struct el_trace_symcount *syms; /* sorted by count, then name */
	size_t nsyms;
};

/* Sums the instructions by privilege and by symbol. 0, or -1 out of memory. */
int trace_totals(const struct el_trace_data *d, const struct el_trace_maps *m,
		 struct el_trace_totals *t);
void trace_totals_free(struct el_trace_totals *t);

/* ---- output (trace_report.c, trace_listing.c) --------------------------------- */

struct json_object;
/* The record's "trace" object. iterations 0 = unknown (per_iter null). */
struct json_object *trace_json(const struct el_trace_data *d, const struct el_trace_totals *t,
			       uint64_t iterations);
/*
 * The record's "region" object as `run` writes it, from the console's
 * region line, with its scope; "exits" is null (TCG has no VM exits to
 * count).  No line: every figure null and not_measured, why (NULL: the
 * guest printed none).  NULL for scope NONE (no program).
 */
struct json_object *trace_region_json(const char *console, enum el_region_scope scope,
				      const char *why);
struct el_run_result;
/* The table on stdout: status, user/kernel split, top symbols, per iteration. */
void trace_summary(FILE *f, const struct el_trace_job *job, const struct el_run_result *res,
		   const struct el_trace_data *d, const struct el_trace_totals *t,
		   const char *output);
void trace_csv(FILE *f, const char *sep, const struct el_trace_data *d,
	       const struct el_trace_totals *t, uint64_t iterations);
/*
 * The listing's marker for an instruction's bytes: "CR3" (mov to CR3), "CR",
 * "SWAPGS", "SYSCALL", "SYSRET", "IRET", "WRMSR", "INVPCID", "INVLPG",
 * "LFENCE", ... (trace_mark.c has the table); "" for the rest.
 */
const char *trace_insn_mark(const uint8_t *bytes, unsigned n);
/* Every instruction of the region once, in order of first execution, under its symbol. */
void trace_listing(FILE *f, const struct el_trace_data *d, const struct el_trace_maps *m,
		   uint64_t iterations);


/* ---- one trace as functions (cmd_trace.c), for commands that trace many times (matrix) ---- */

/* Everything one trace leaves behind; the record points into none of it. */
struct el_trace_result {
	struct el_trace_run q;
	struct el_trace_data d;
	struct el_trace_totals t;
	struct el_symtab tabs[3];
	struct el_trace_maps m;
	bool have_data; /* d holds the plugin's output, t the region's counts when measured */
	const char *not_measured; /* have_data but no window closed: why (trace_not_measured) */
	uint64_t iterations; /* the region's, as the benchmark declared it; else the request's */
};

/*
 * With job->req, spec, prog and opts set (the request finished and its
 * programs prepared): QEMU's -cpu checked, the region markers found (our
 * kernel's OUTs, or for --guest linux the program's sites, the kernel file
 * and its symbols, the initrd and command line: trace_linux_prepare).  0,
 * or an EL_EXIT_* code after printing why.  trace_job_free() in any case.
 */
int trace_prepare(struct el_trace_job *job);
void trace_job_free(struct el_trace_job *job);
/* Runs QEMU once; the record (caller puts it), *res and *out (free with trace_result_free). */
struct json_object *trace_once(const struct el_trace_job *job, struct el_run_result *res,
			       struct el_trace_result *out);
void trace_result_free(struct el_trace_result *out);

/* ---- a Linux guest (trace_linux.c) ------------------------------------------ */

/*
 * Knobs a trace adds to a Linux guest's command line (before --append, so
 * the user's own win): under TCG the LAPIC timer has no TSC-deadline mode,
 * and calibrating it spins on PAUSE, which leaves TCG's execution loop each
 * time: 2.5 s of a 4 s boot (harness/trace/README.md, "Linux").
 */
#define EL_TRACE_LINUX_KNOBS "nolapic_timer"

/* trace_prepare for --guest linux; 0 or an EL_EXIT_* code after printing why. */
int trace_linux_prepare(struct el_trace_job *job);
void trace_linux_free(struct el_trace_linux *lx);
/*
 * A Linux guest's ending from COM1's frames (frame.h: INFO, BOOT, RUN,
 * KSYMS, EXIT) on top of what trace_outcome() made of QEMU's exit; the
 * frames' scan is left in *scan for the caller (frame_scan_free).
 */
struct frame_scan;
void trace_linux_outcome(const struct el_trace_run *q, struct el_run_result *res,
			 struct frame_scan *scan);
/*
 * Linux's vDSO in the trace's user code: its image found inside the vmlinux
 * (not a bzImage's: compressed), placed where the instructions outside the
 * program have its bytes.  0 with the table in *t, -1 if not found.
 */
int trace_linux_vdso(const struct el_trace_job *job, const struct el_trace_data *d,
		     const struct el_symtab *prog, struct el_symtab *t);
/*
 * The kernel's symbols for the trace: the vmlinux symbol table (moved to
 * where INFO ktext says _text is), else the KSYMS frames (and the cache
 * written from them), else the cache placed at INFO ktext.  0, or -1 with
 * why in err (the trace goes on without kernel symbols).
 */
int trace_linux_kernel_syms(const struct el_trace_job *job, const struct el_run_result *res,
			    const struct frame_scan *scan, struct el_symtab *t, char *err,
			    size_t errlen);

#endif
