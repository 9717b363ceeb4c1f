/*
 * The framed lines of include/entrylab/serial_frame.h, read back from a
 * captured COM1 stream: frame_decode() splits the text into the console
 * (every byte that is not part of a frame, in order) and the frames, and
 * checks each frame's shape (tag at a line start, kind, LEN, hex, CRC-32,
 * the newline that ends it); frame_result() then validates the BOOT and RUN
 * payloads with the VMM's own report_check() and maps the EXIT value as the
 * exit port does (exit_value_apply).  Pure: no I/O, no allocation beyond
 * the console copy.  The guest is untrusted: the first problem is named in
 * err and no later frame is believed.
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
	FRAME_KINDS,
};

/* BOOT, RUN and one more: a third report is refused by report_check_order anyway. */
#define FRAME_REPORTS_MAX 3

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
	bool bad;                   /* a malformed frame: err names it */
	char err[256];
};

/*
 * Scans text[0..len).  0, or -1 when out of memory (err says so).  A frame
 * problem is not an error of the scan: s->bad and s->err say it, frames
 * before it are kept, frames after it are not believed (their lines are
 * left out of the console).  Free with frame_scan_free().
 */
int frame_decode(const char *text, size_t len, struct frame_scan *s);
void frame_scan_free(struct frame_scan *s);

/*
 * The scan into a run result: BOOT and RUN through report_check() in the
 * order they came (markers cannot be seen without a hypercall channel: a
 * RUN report's region is taken as its own markers said, see README.md),
 * the EXIT value as the exit port maps it.  Sets res->status and detail,
 * have_boot/boot, have_run/run, exit_status, panic_vector.  A scan problem,
 * a report refused or a missing EXIT are EL_RUN_GUEST_BAD_IO (no EXIT:
 * EL_RUN_GUEST_CRASH, the guest stopped before its end).  Returns
 * res->status.
 */
enum el_run_status frame_result(const struct frame_scan *s, struct el_run_result *res);

/* Lower-case hex of a CRC-32 (zlib) of buf: for tests and the guest's twin. */
uint32_t frame_crc(const void *buf, size_t len);

#endif
