/*
 * The framed lines of include/entrylab/serial_frame.h, read back from a
 * captured COM1 stream: frame_decode() splits the text into the console
 * (every byte that is not part of a frame, in order) and the frames, and
 * checks each frame's shape (tag at a line start, kind, LEN, hex, CRC-32,
 * the newline that ends it); frame_result() then validates the BOOT and RUN
 * payloads with the VMM's own report_check(), parses a Linux /init's INFO
 * text (frame_linux_info) and maps the EXIT value as the exit port does
 * (exit_value_apply).  Pure: no I/O; it allocates only the console copy and
 * the text frames' buffers, each bounded.  The guest is untrusted: the first
 * problem is named in err and no later frame is believed.
 */
#ifndef EL_FRAME_H
#define EL_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "entrylab/abi.h"
#include "entrylab/serial_frame.h"
#include "run.h"

enum frame_kind {
	FRAME_BOOT,
	FRAME_RUN,
	FRAME_EXIT,
	FRAME_INFO,  /* text: KEY=VALUE lines (linux_init.h) */
	FRAME_KSYMS, /* text: kallsyms lines */
	FRAME_KINDS,
};

/* BOOT, RUN and one more: a third report is refused by report_check_order anyway. */
#define FRAME_REPORTS_MAX 3

/*
 * The text frames' totals over a stream (serial_frame.h: each frame carries
 * 1..EL_FRAME_TEXT_MAX bytes, no NUL).  INFO is one KEY=VALUE line per
 * linux_init.h key, so one frame's worth in all; KSYMS is /proc/kallsyms'
 * text symbols (Debian 6.1: 1.9 MiB in 49,503 lines), with room to spare.
 * More is a malformed stream, not a bigger allocation.
 */
#define FRAME_INFO_MAX EL_FRAME_TEXT_MAX
#define FRAME_KSYMS_MAX (16u << 20)

struct frame_report {
	enum frame_kind kind;
	struct el_report r;
};

struct frame_scan {
	char *console;        /* the text that is not a frame, NUL-terminated (malloc'd) */
	size_t console_len;
	unsigned nr_frames;   /* frames accepted (well-formed, before any problem) */
	unsigned count[FRAME_KINDS]; /* frames of each kind accepted */
	struct frame_report reports[FRAME_REPORTS_MAX]; /* BOOT and RUN payloads, in order */
	unsigned nr_reports;
	uint32_t exit_value;        /* the EXIT payload, little endian */
	char *info;                 /* INFO payloads in order, NUL-terminated (malloc'd; NULL: none) */
	size_t info_len;            /* at most FRAME_INFO_MAX */
	char *ksyms;                /* KSYMS payloads in order, NUL-terminated (malloc'd; NULL: none) */
	size_t ksyms_len;           /* at most FRAME_KSYMS_MAX */
	size_t info_cap, ksyms_cap; /* the buffers' sizes */
	bool bad;                   /* a malformed frame: err names it */
	char err[256];
};

/*
 * Scans text[0..len).  0, or -1 when out of memory (err says so).  A frame
 * problem is not an error of the scan: s->bad and s->err say it, frames
 * before it are kept, frames after it are not believed (their lines are
 * left out of the console).  Order: nothing after EXIT; INFO only before
 * the first report (linux_init.h: once, before BOOT).  Free with
 * frame_scan_free().
 */
int frame_decode(const char *text, size_t len, struct frame_scan *s);
void frame_scan_free(struct frame_scan *s);

/*
 * The scan into a run result: INFO through frame_linux_info() (have_linux,
 * linux_info), BOOT and RUN through report_check() in the order they came
 * (markers cannot be seen without a hypercall channel: a RUN report's
 * region is taken as its own markers said, see README.md), the EXIT value
 * as the exit port maps it.  Sets res->status and detail, have_linux,
 * have_boot/boot, have_run/run, exit_status, panic_vector.  A scan problem,
 * a malformed INFO, a report refused are EL_RUN_GUEST_BAD_IO; no EXIT is
 * EL_RUN_GUEST_CRASH (the guest stopped before its end).  KSYMS is the
 * caller's (s->ksyms).  Returns res->status.
 */
enum el_run_status frame_result(const struct frame_scan *s, struct el_run_result *res);

/*
 * A Linux /init's INFO text (linux_init.h) into *li: "KEY=VALUE" lines, each
 * ended by '\n' (the last may end the text instead), keys the
 * EL_LINUX_INFO_* names, each at most once; a key not given stays "".
 * Refused, with the line and the reason in err: an empty line, a line
 * without '=', an unknown or repeated key, a value longer than its field,
 * a control byte in a value, a vsyscall other than none|xonly|emulate, a
 * ktext that is not hex.  Pure.  0, or -1 (*li then holds what came before).
 */
int frame_linux_info(const char *text, size_t len, struct el_linux_info *li, char *err,
		     size_t errlen);

/*
 * The frames out of a COM1 stream as it arrives, in chunks of any size, for
 * a reader that keeps the console bounded (a KVM run's console device, a
 * trace's QEMU pipe) but must not lose a frame to the bound: each line that
 * starts with EL_FRAME_TAG goes, with its newline, into fs->frames (bounded
 * by FRAME_SPLIT_MAX), every other byte to console(ctx, bytes, n) in order.
 * The newline (or "\r\n") that ends the line before a frame line is the
 * frame's, as frame_decode() has it, and reaches neither.  After
 * frame_split_finish(), frame_decode(fs->frames, fs->frames_len) gives the
 * frames; its console is then empty.  fs->overflow: frame lines passed
 * FRAME_SPLIT_MAX (fs->frames_dropped bytes not kept), or no memory for
 * them (fs->oom); a caller names that before anything the frames say.
 */
#define FRAME_SPLIT_MAX (2u * FRAME_KSYMS_MAX + (1u << 20))

typedef void frame_console_fn(void *ctx, const char *p, size_t n);

struct frame_split {
	frame_console_fn *console;
	void *ctx;
	char *frames;            /* frame lines, NUL-terminated after finish (malloc'd) */
	size_t frames_len, frames_cap;
	uint64_t frames_dropped; /* frame bytes past FRAME_SPLIT_MAX */
	bool overflow, oom;
	/* the line being read */
	int state;                          /* line start (undecided), console line, frame line */
	char start[sizeof(EL_FRAME_TAG)];   /* its first bytes while they match the tag */
	size_t start_len;
	char held[2];                       /* "\r" pending, "\n" or "\r\n": the last line's end */
	size_t held_len;
};

void frame_split_init(struct frame_split *fs, frame_console_fn *console, void *ctx);
void frame_split_put(struct frame_split *fs, const char *p, size_t n);
/* End of the stream: what is held goes to the console, fs->frames is terminated. */
void frame_split_finish(struct frame_split *fs);
void frame_split_free(struct frame_split *fs);

/* Lower-case hex of a CRC-32 (zlib) of buf: for tests and the guest's twin. */
uint32_t frame_crc(const void *buf, size_t len);

#endif
