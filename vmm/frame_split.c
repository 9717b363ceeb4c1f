/*
 * The frames out of a COM1 stream as it arrives (frame.h, frame_split_*):
 * a small line-state machine, so a reader can bound the console and still
 * keep every frame line, in chunks of any size.
 */
#include <stdlib.h>
#include <string.h>

#include "frame.h"

#define TAG_LEN (sizeof(EL_FRAME_TAG) - 1)

enum { LINE_START, LINE_CONSOLE, LINE_FRAME };

void frame_split_init(struct frame_split *fs, frame_console_fn *console, void *ctx)
{
	memset(fs, 0, sizeof(*fs));
	fs->console = console;
	fs->ctx = ctx;
}

static void frames_put(struct frame_split *fs, const char *p, size_t n)
{
	if (fs->overflow || fs->frames_len + n + 1 > FRAME_SPLIT_MAX) {
		fs->overflow = true;
		fs->frames_dropped += n;
		return;
	}
	if (fs->frames_len + n + 1 > fs->frames_cap) {
		size_t c = fs->frames_cap ? fs->frames_cap : 16384;
		char *b;

		while (c < fs->frames_len + n + 1)
			c *= 2;
		if (c > FRAME_SPLIT_MAX)
			c = FRAME_SPLIT_MAX;
		b = realloc(fs->frames, c);
		if (!b) {
			fs->overflow = fs->oom = true;
			fs->frames_dropped += n;
			return;
		}
		fs->frames = b;
		fs->frames_cap = c;
	}
	memcpy(fs->frames + fs->frames_len, p, n);
	fs->frames_len += n;
}

static void console_put(struct frame_split *fs, const char *p, size_t n)
{
	if (n)
		fs->console(fs->ctx, p, n);
}

static void held_release(struct frame_split *fs)
{
	console_put(fs, fs->held, fs->held_len);
	fs->held_len = 0;
}

/* A console line's bytes up to its end (n bytes, none of them '\n'). */
static void console_bytes(struct frame_split *fs, const char *p, size_t n)
{
	if (!n)
		return;
	/* A '\r' held for a newline that did not come is the line's after all. */
	held_release(fs);
	if (p[n - 1] == '\r') {
		console_put(fs, p, n - 1);
		fs->held[0] = '\r';
		fs->held_len = 1;
	} else {
		console_put(fs, p, n);
	}
}

/* The line start decided: a console line; the bytes seen so far are its. */
static void start_is_console(struct frame_split *fs)
{
	held_release(fs);
	fs->state = LINE_CONSOLE;
	console_bytes(fs, fs->start, fs->start_len);
	fs->start_len = 0;
}

void frame_split_put(struct frame_split *fs, const char *p, size_t n)
{
	const char *end = p + n;

	while (p < end) {
		if (fs->state == LINE_START) {
			/* Not the tag (a newline included): a console line, this byte its. */
			if (*p != EL_FRAME_TAG[fs->start_len]) {
				start_is_console(fs);
				continue;
			}
			fs->start[fs->start_len++] = *p++;
			if (fs->start_len == TAG_LEN) {
				fs->held_len = 0; /* the line end before a frame is the frame's */
				fs->state = LINE_FRAME;
				frames_put(fs, fs->start, fs->start_len);
				fs->start_len = 0;
			}
			continue;
		}
		{
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *stop = nl ? nl : end;

			if (fs->state == LINE_FRAME) {
				frames_put(fs, p, (size_t)(stop - p) + (nl ? 1 : 0));
			} else if (nl) {
				/*
				 * The line's end ("\n", or "\r\n" with a '\r' maybe held from
				 * the chunk before) is held until the next line shows what it is.
				 */
				bool cr;

				if (stop > p) {
					held_release(fs);
					cr = stop[-1] == '\r';
					console_put(fs, p, (size_t)(stop - p) - cr);
				} else {
					cr = fs->held_len == 1 && fs->held[0] == '\r';
				}
				memcpy(fs->held, cr ? "\r\n" : "\n", cr ? 2 : 1);
				fs->held_len = cr ? 2 : 1;
			} else {
				console_bytes(fs, p, (size_t)(stop - p));
			}
			if (nl)
				fs->state = LINE_START;
			p = nl ? nl + 1 : end;
		}
	}
}

void frame_split_finish(struct frame_split *fs)
{
	if (fs->state == LINE_START && fs->start_len) {
		/* A line that ends the stream shorter than the tag is console text. */
		held_release(fs);
		console_put(fs, fs->start, fs->start_len);
		fs->start_len = 0;
	}
	held_release(fs);
	frames_put(fs, "", 0);
	if (fs->frames)
		fs->frames[fs->frames_len] = '\0';
}

void frame_split_free(struct frame_split *fs)
{
	free(fs->frames);
	fs->frames = NULL;
	fs->frames_len = fs->frames_cap = 0;
}
