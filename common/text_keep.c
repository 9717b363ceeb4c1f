/*
 * Head + tail keeper (text_keep.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_keep.h"

void text_keep_init(struct text_keep *k, size_t head_cap, size_t tail_cap)
{
	*k = (struct text_keep){.head_cap = head_cap, .tail_cap = tail_cap};
}

static bool keep_alloc(char **buf, size_t cap, bool *failed)
{
	if (*buf || !cap)
		return *buf != NULL;
	*buf = malloc(cap);
	if (!*buf)
		*failed = true;
	return *buf != NULL;
}

/* Into the ring: only the newest tail_cap bytes of p can survive. */
static void keep_tail(struct text_keep *k, const char *p, size_t n)
{
	if (!n || !keep_alloc(&k->tail, k->tail_cap, &k->failed))
		return;
	if (n > k->tail_cap) {
		p += n - k->tail_cap;
		n = k->tail_cap;
	}
	while (n) {
		size_t run = k->tail_cap - k->tail_pos;

		if (run > n)
			run = n;
		memcpy(k->tail + k->tail_pos, p, run);
		k->tail_pos = (k->tail_pos + run) % k->tail_cap;
		k->tail_len = k->tail_len + run > k->tail_cap ? k->tail_cap : k->tail_len + run;
		p += run;
		n -= run;
	}
}

void text_keep_put(struct text_keep *k, const char *p, size_t n)
{
	k->total += n;
	if (k->failed)
		return;
	if (k->head_len < k->head_cap) {
		size_t h = k->head_cap - k->head_len;

		if (h > n)
			h = n;
		if (!keep_alloc(&k->head, k->head_cap, &k->failed))
			return;
		memcpy(k->head + k->head_len, p, h);
		k->head_len += h;
		p += h;
		n -= h;
	}
	keep_tail(k, p, n);
}

uint64_t text_keep_dropped(const struct text_keep *k)
{
	return k->total - k->head_len - k->tail_len;
}

char *text_keep_finish(struct text_keep *k, size_t *len)
{
	uint64_t dropped = text_keep_dropped(k);
	size_t start = k->tail_len < k->tail_cap ? 0 : k->tail_pos;
	char note[160];
	int nn = 0;
	char *out, *o;

	if (dropped)
		nn = snprintf(note, sizeof(note),
			      "%s[entrylab: %llu bytes of output dropped here; kept the first %zu "
			      "and the newest %zu]\n",
			      k->head_len && k->head[k->head_len - 1] != '\n' ? "\n" : "",
			      (unsigned long long)dropped, k->head_len, k->tail_len);
	out = malloc(k->head_len + (size_t)nn + k->tail_len + 1);
	if (out) {
		o = out;
		if (k->head_len)
			memcpy(o, k->head, k->head_len);
		o += k->head_len;
		memcpy(o, note, (size_t)nn);
		o += nn;
		if (k->tail_len) {
			memcpy(o, k->tail + start, k->tail_len - start);
			memcpy(o + (k->tail_len - start), k->tail, start);
		}
		o += k->tail_len;
		*o = '\0';
		if (len)
			*len = (size_t)(o - out);
	}
	text_keep_free(k);
	return out;
}

void text_keep_free(struct text_keep *k)
{
	free(k->head);
	free(k->tail);
	k->head = k->tail = NULL;
	k->head_len = k->tail_len = k->tail_pos = 0;
}
