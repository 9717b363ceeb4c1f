/*
 * A bounded keeper of a byte stream (guest console output): the first
 * head_cap bytes and the newest tail_cap bytes, in fixed buffers allocated
 * on first use; what falls between is counted, not kept.  Memory stays at
 * head_cap + tail_cap whatever is put.
 */
#ifndef EL_TEXT_KEEP_H
#define EL_TEXT_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct text_keep {
	size_t head_cap, tail_cap;
	char *head, *tail; /* tail: a ring, tail_pos the next byte to overwrite */
	size_t head_len, tail_len, tail_pos;
	uint64_t total; /* every byte put */
	bool failed;    /* no memory: later bytes only counted */
};

void text_keep_init(struct text_keep *k, size_t head_cap, size_t tail_cap);
void text_keep_put(struct text_keep *k, const char *p, size_t n);
/* Bytes put but not kept (between head and tail, or lost to no memory). */
uint64_t text_keep_dropped(const struct text_keep *k);
/*
 * The kept text, malloc'd and NUL-terminated: the head, then (if anything
 * was dropped) a line "[entrylab: N bytes of output dropped here ...]",
 * then the tail in order.  Frees the buffers; NULL when out of memory.
 */
char *text_keep_finish(struct text_keep *k, size_t *len);
void text_keep_free(struct text_keep *k);

#endif
