/* Lines into frames, never one cut across two. */
#include "ksyms_chunk.h"

#include <string.h>

void linit_chunk_init(struct linit_chunk *c, linit_chunk_emit_fn *emit, void *ctx)
{
	c->len = 0;
	c->emit = emit;
	c->ctx = ctx;
	c->lines = 0;
	c->frames = 0;
}

int linit_chunk_flush(struct linit_chunk *c)
{
	int rc;

	if (!c->len)
		return 0;
	rc = c->emit(c->ctx, c->buf, c->len);
	c->len = 0;
	c->frames++;
	return rc ? -1 : 0;
}

int linit_chunk_line(struct linit_chunk *c, const char *line, size_t len)
{
	if (len + 1 > sizeof(c->buf))
		return -1;
	if (c->len + len + 1 > sizeof(c->buf) && linit_chunk_flush(c))
		return -1;
	memcpy(c->buf + c->len, line, len);
	c->buf[c->len + len] = '\n';
	c->len += len + 1;
	c->lines++;
	return 0;
}
