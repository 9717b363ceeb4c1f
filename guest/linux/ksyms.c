/* Streaming /proc/kallsyms line by line (it is megabytes; Linux makes it as it is read). */
#include "ksyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <entrylab/serial_frame.h>

#include "facts_parse.h"
#include "frames.h"
#include "ksyms_chunk.h"

#define KALLSYMS "/proc/kallsyms"

/* Called per line (no '\n'); nonzero stops the walk with that value. */
typedef int line_fn(void *ctx, const char *line, size_t len);

static char kbuf[64 * 1024];

/* 0 at the end, fn's nonzero value when it stopped the walk, -1 (errno) when the file failed. */
static int kallsyms_lines(line_fn *fn, void *ctx)
{
	int fd = open(KALLSYMS, O_RDONLY | O_CLOEXEC), rc = 0;
	size_t have = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (!rc && (n = read(fd, kbuf + have, sizeof(kbuf) - have)) > 0) {
		char *p = kbuf, *end = kbuf + have + (size_t)n, *nl;

		while (!rc && (nl = memchr(p, '\n', (size_t)(end - p)))) {
			rc = fn(ctx, p, (size_t)(nl - p));
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(kbuf, p, have);
		if (have == sizeof(kbuf)) {
			errno = EOVERFLOW; /* a line longer than the buffer: not kallsyms */
			rc = -1;
		}
	}
	if (!rc && n < 0)
		rc = -1;
	close(fd);
	return rc;
}

struct ktext_ctx {
	char *out;
	size_t cap;
};

static int ktext_line(void *ctx, const char *line, size_t len)
{
	struct ktext_ctx *k = ctx;
	struct linit_ksym s;

	if (linit_ksym_parse(line, len, &s) || !linit_ksym_is_text(&s) || s.namelen != 5 ||
	    memcmp(s.name, "_text", 5))
		return 0;
	if (strspn(s.addr, "0") < s.addrlen && s.addrlen < k->cap) {
		memcpy(k->out, s.addr, s.addrlen);
		k->out[s.addrlen] = '\0';
	}
	return 1;
}

void linit_ktext(char *out, size_t cap)
{
	struct ktext_ctx k = {out, cap};

	out[0] = '\0';
	kallsyms_lines(ktext_line, &k);
}

static int ksyms_emit(void *ctx, const char *text, size_t len)
{
	struct linit_ksyms_stats *st = ctx;

	st->bytes += len;
	return linit_frame(EL_FRAME_KIND_KSYMS, text, len);
}

struct send_ctx {
	struct linit_chunk chunk;
	struct linit_ksyms_stats *st;
};

static int send_line(void *ctx, const char *line, size_t len)
{
	struct send_ctx *c = ctx;
	struct linit_ksym s;

	if (linit_ksym_parse(line, len, &s) || !linit_ksym_is_text(&s))
		return 0;
	c->st->symbols++;
	return linit_chunk_line(&c->chunk, line, len) ? 2 : 0;
}

int linit_ksyms_send(struct linit_ksyms_stats *st, char *err, size_t errlen)
{
	static struct send_ctx c;
	int rc;

	memset(st, 0, sizeof(*st));
	c.st = st;
	linit_chunk_init(&c.chunk, ksyms_emit, st);
	rc = kallsyms_lines(send_line, &c);
	if (rc == 0 && (rc = linit_chunk_flush(&c.chunk) ? 2 : 0) == 0) {
		st->frames = c.chunk.frames;
		return 0;
	}
	snprintf(err, errlen, "sending %s as KSYMS frames: %s", KALLSYMS,
		 rc < 0 ? strerror(errno) : "a frame did not fit");
	return -1;
}
