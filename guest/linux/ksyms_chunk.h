/*
 * Whole lines gathered into text frames of at most EL_FRAME_TEXT_MAX bytes
 * (KSYMS, include/entrylab/linux_init.h).  Pure: the host unit tests
 * compile it; the emit callback writes the frame.
 */
#ifndef LINIT_KSYMS_CHUNK_H
#define LINIT_KSYMS_CHUNK_H

#include <stddef.h>

#include <entrylab/serial_frame.h>

typedef int linit_chunk_emit_fn(void *ctx, const char *text, size_t len);

struct linit_chunk {
	char buf[EL_FRAME_TEXT_MAX];
	size_t len;
	linit_chunk_emit_fn *emit;
	void *ctx;
	unsigned long lines, frames;
};

void linit_chunk_init(struct linit_chunk *c, linit_chunk_emit_fn *emit, void *ctx);

/*
 * Appends line[0..len) and a '\n'; emits the chunk first when they do not
 * fit.  0, or -1 when emit failed or the line alone exceeds a frame (no
 * kallsyms line does: KSYM_NAME_LEN is 512).
 */
int linit_chunk_line(struct linit_chunk *c, const char *line, size_t len);

/* Emits what is gathered (nothing if empty).  0, or emit's failure. */
int linit_chunk_flush(struct linit_chunk *c);

#endif
