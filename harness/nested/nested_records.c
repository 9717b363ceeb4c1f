/*
 * Records coming back from the nested VM, appended to the host's output
 * file (opened by the command before the VM started) as they arrive: only
 * whole lines that parse as JSON objects, each batch in one O_APPEND write
 * that is rolled back if torn and fsync'ed (record_out_write), so a VM that
 * dies or is interrupted mid-run leaves every record that came back and no
 * partial one.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nested_priv.h"
#include "record_out.h"

void nested_records_init(struct nested_records *r, struct record_out *out)
{
	memset(r, 0, sizeof(*r));
	r->out = out;
}

static bool record_line_ok(const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;
	bool ok;

	if (!tok || len > INT_MAX) {
		if (tok)
			json_tokener_free(tok);
		return false;
	}
	obj = json_tokener_parse_ex(tok, line, (int)len);
	ok = obj && json_object_is_type(obj, json_type_object) &&
	     json_tokener_get_error(tok) == json_tokener_success &&
	     (size_t)json_tokener_get_parse_end(tok) == len;
	json_object_put(obj);
	json_tokener_free(tok);
	return ok;
}

/* The batch on disk, then each of its lines to on_record (progress is told only then). */
static void records_write(struct nested_records *r, const char *batch, size_t len,
			  unsigned long lines)
{
	if (!len || r->failed)
		return;
	if (!r->out) {
		r->failed = true;
		fprintf(stderr, "entrylab: nested runner: records came back but this command has "
				"no output file; they are dropped\n");
		return;
	}
	if (record_out_write(r->out, batch, len, lines)) {
		r->failed = true; /* record_out_write said why */
		return;
	}
	r->written += lines;
	for (const char *p = batch, *nl; r->on_record && p < batch + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(batch + len - p));
		r->on_record(r->ctx, p, (size_t)(nl - p));
	}
}

void nested_records_feed(void *ctx, const char *data, size_t len)
{
	struct nested_records *r = ctx;
	size_t done = 0, out = 0;
	unsigned long lines = 0;
	char *nl;

	if (len > SIZE_MAX / 2 - r->pending_len)
		return;
	if (r->pending_len + len > r->pending_cap) {
		size_t cap = r->pending_cap ? r->pending_cap : 4096;
		char *p;

		while (cap < r->pending_len + len)
			cap *= 2;
		p = realloc(r->pending, cap);
		if (!p) {
			fprintf(stderr, "entrylab: nested runner: out of memory holding records\n");
			return;
		}
		r->pending = p;
		r->pending_cap = cap;
	}
	memcpy(r->pending + r->pending_len, data, len);
	r->pending_len += len;

	/* Compact the good lines to the front of the buffer, then write them at once. */
	while ((nl = memchr(r->pending + done, '\n', r->pending_len - done))) {
		size_t line_len = (size_t)(nl - (r->pending + done));

		if (line_len && record_line_ok(r->pending + done, line_len)) {
			memmove(r->pending + out, r->pending + done, line_len + 1);
			out += line_len + 1;
			lines++;
		} else if (line_len) {
			r->rejected++;
			fprintf(stderr, "entrylab: nested runner: dropped a record line that "
					"is not a JSON object (%zu bytes)\n", line_len);
		}
		done += line_len + 1;
	}
	records_write(r, r->pending, out, lines);
	memmove(r->pending, r->pending + done, r->pending_len - done);
	r->pending_len -= done;
}

size_t nested_records_close(struct nested_records *r)
{
	size_t left = r->pending_len;

	free(r->pending);
	r->pending = NULL;
	r->pending_len = r->pending_cap = 0;
	return left;
}
