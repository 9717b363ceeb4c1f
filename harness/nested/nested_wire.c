/*
 * The nested runner's wire (nested_wire.h): requests built and found,
 * marks found in a stream, control frames parsed.  Pure code: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "nested_wire.h"

void nested_buf_put(struct nested_buf *b, const void *data, size_t len)
{
	if (b->oom || !len)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

void nested_buf_free(struct nested_buf *b)
{
	free(b->p);
	*b = (struct nested_buf){0};
}

void nested_req_begin(struct nested_buf *b, uint64_t nonce)
{
	struct nested_req_head h = {.magic = NESTED_MAGIC_REQ, .version = NESTED_WIRE_VERSION,
				    .nonce = nonce};

	b->len = 0;
	nested_buf_put(b, &h, sizeof(h));
}

void nested_req_item(struct nested_buf *b, enum nested_item kind, const void *data, size_t len)
{
	uint32_t h[2] = {kind, (uint32_t)len};

	if (len > NESTED_REQ_MAX) {
		b->oom = true;
		return;
	}
	nested_buf_put(b, h, sizeof(h));
	nested_buf_put(b, data, len);
}

void nested_req_file(struct nested_buf *b, const char *path, uint32_t mode, const void *data,
		     size_t len)
{
	size_t plen = strlen(path);
	uint32_t h[4] = {NESTED_ITEM_FILE, (uint32_t)(8 + plen + len), mode, (uint32_t)plen};

	if (8 + plen + len > NESTED_REQ_MAX) {
		b->oom = true;
		return;
	}
	nested_buf_put(b, h, sizeof(h));
	nested_buf_put(b, path, plen);
	nested_buf_put(b, data, len);
}

static uint32_t req_crc(const struct nested_req_head *h, const char *items)
{
	struct nested_req_head z = *h;
	uLong crc = crc32(0L, Z_NULL, 0);

	z.crc = 0;
	crc = crc32(crc, (const Bytef *)&z, sizeof(z));
	return (uint32_t)crc32(crc, (const Bytef *)items, h->len);
}

bool nested_req_end(struct nested_buf *b)
{
	struct nested_req_head h;

	if (b->oom || b->len < sizeof(h) || b->len - sizeof(h) > NESTED_REQ_MAX)
		return false;
	memcpy(&h, b->p, sizeof(h));
	h.len = (uint32_t)(b->len - sizeof(h));
	h.crc = req_crc(&h, b->p + sizeof(h));
	memcpy(b->p, &h, sizeof(h));
	return true;
}

/* A string item: no NUL inside (its end is made one by the caller). */
static bool no_nul(const char *p, uint32_t len)
{
	return !memchr(p, 0, len);
}

static bool path_ok(const char *p)
{
	if (p[0] != '/')
		return false;
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");

		if ((n == 2 && s[0] == '.' && s[1] == '.') || (n == 1 && s[0] == '.'))
			return false;
		s += n;
		while (*s == '/')
			s++;
	}
	return true;
}

/*
 * Decodes the items of a request whose CRC held.  Strings are terminated in
 * place: each item is copied one byte down over its 8-byte head, so that its
 * end has room for a NUL (heads are consumed as they are read).
 */
static bool req_decode(char *items, uint32_t len, struct nested_cmd *c, char *err, size_t errlen)
{
	size_t at = 0;

	c->ping = false;
	c->cwd = NULL;
	c->nargs = c->nenv = c->nfiles = 0;
	while (at < len) {
		uint32_t h[2];
		char *s;

		if (len - at < sizeof(h)) {
			snprintf(err, errlen, "a truncated item head at %zu", at);
			return false;
		}
		memcpy(h, items + at, sizeof(h));
		if (h[1] > len - at - sizeof(h)) {
			snprintf(err, errlen, "item %u at %zu runs past the request", h[0], at);
			return false;
		}
		/* Move the body over the head: the byte after it is free for a NUL. */
		s = items + at;
		memmove(s, items + at + sizeof(h), h[1]);
		s[h[1]] = 0;
		at += sizeof(h) + h[1];
		switch (h[0]) {
		case NESTED_ITEM_PING:
			c->ping = true;
			break;
		case NESTED_ITEM_ARG:
			if (c->nargs >= NESTED_MAX_ARGS || !no_nul(s, h[1]))
				goto bad_string;
			c->args[c->nargs++] = s;
			break;
		case NESTED_ITEM_ENV:
			if (c->nenv >= NESTED_MAX_ENV || !no_nul(s, h[1]) ||
			    !strchr(s, '=') || s[0] == '=')
				goto bad_string;
			c->env[c->nenv++] = s;
			break;
		case NESTED_ITEM_CWD:
			if (c->cwd || !no_nul(s, h[1]) || !path_ok(s))
				goto bad_string;
			c->cwd = s;
			break;
		case NESTED_ITEM_FILE: {
			uint32_t f[2];
			struct nested_file *nf;

			if (c->nfiles >= NESTED_MAX_FILES || h[1] < sizeof(f))
				goto bad_string;
			memcpy(f, s, sizeof(f));
			if (f[1] == 0 || f[1] > h[1] - sizeof(f) || f[1] > 4096)
				goto bad_string;
			/* path then contents: move the path down over the 8 bytes, NUL after it */
			nf = &c->files[c->nfiles++];
			memmove(s, s + sizeof(f), f[1]);
			s[f[1]] = 0;
			if (memchr(s, 0, f[1]) || !path_ok(s))
				goto bad_string;
			nf->path = s;
			nf->mode = f[0] & 07777;
			nf->data = s + sizeof(f) + f[1];
			nf->len = h[1] - sizeof(f) - f[1];
			/* The contents stay where they were: after the path's old place. */
			break;
		}
		default:
			snprintf(err, errlen, "unknown item kind %u", h[0]);
			return false;
		}
		continue;
bad_string:
		snprintf(err, errlen, "a malformed item of kind %u (a NUL inside, a relative "
			 "path, or too many)", h[0]);
		return false;
	}
	c->args[c->nargs] = NULL;
	c->env[c->nenv] = NULL;
	if (!c->ping && (!c->cwd || !c->nargs)) {
		snprintf(err, errlen, "a request with no %s", c->cwd ? "command" : "working directory");
		return false;
	}
	return true;
}

size_t nested_req_find(char *buf, size_t len, struct nested_cmd *cmd, bool *found,
		       size_t *need, char *err, size_t errlen)
{
	const uint32_t magic = NESTED_MAGIC_REQ;
	struct nested_req_head h;
	size_t at = 0;

	*found = false;
	*need = 0;
	err[0] = 0;
	for (;;) {
		char *m = len - at >= sizeof(magic) ? memmem(buf + at, len - at, &magic,
							     sizeof(magic)) : NULL;

		if (!m) {
			/* Keep a tail that may be the start of the magic. */
			size_t keep = len - at < sizeof(magic) - 1 ? len - at : sizeof(magic) - 1;

			*need = sizeof(h);
			return len - keep;
		}
		at = (size_t)(m - buf);
		if (len - at < sizeof(h)) {
			*need = at + sizeof(h) - len;
			return at;
		}
		memcpy(&h, buf + at, sizeof(h));
		if (h.version != NESTED_WIRE_VERSION || h.len > NESTED_REQ_MAX) {
			at++;
			continue;
		}
		if (len - at - sizeof(h) < h.len) {
			*need = at + sizeof(h) + h.len - len;
			return at;
		}
		if (req_crc(&h, buf + at + sizeof(h)) != h.crc) {
			at++;
			continue;
		}
		*found = true;
		cmd->nonce = h.nonce;
		if (!req_decode(buf + at + sizeof(h), h.len, cmd, err, errlen))
			cmd->nargs = 0;
		return at + sizeof(h) + h.len;
	}
}

void nested_mark(uint8_t out[NESTED_MARK_LEN], enum nested_mark_kind kind, uint64_t nonce)
{
	uint32_t h[2] = {NESTED_MAGIC_MARK, kind};

	memcpy(out, h, sizeof(h));
	memcpy(out + sizeof(h), &nonce, sizeof(nonce));
}

void nested_mark_scan_init(struct nested_mark_scan *s, enum nested_mark_kind kind,
			   uint64_t nonce)
{
	memset(s, 0, sizeof(*s));
	nested_mark(s->mark, kind, nonce);
}

static void emit_to(nested_emit_fn *emit, void *ctx, const void *data, size_t len)
{
	if (emit && len)
		emit(ctx, data, len);
}

size_t nested_mark_scan_feed(struct nested_mark_scan *s, const char *data, size_t len,
			     nested_emit_fn *emit, void *ctx)
{
	const size_t P = NESTED_MARK_LEN;
	const uint8_t *d = (const uint8_t *)data;
	const uint8_t *m;
	size_t total, k;

	if (s->found || !len)
		return 0;
	/* The mark starting in the held bytes and ending in (or continuing into) data. */
	for (size_t i = 0; i < s->nheld; i++) {
		size_t from_held = s->nheld - i, want = P - from_held;

		if (memcmp(s->held + i, s->mark, from_held))
			continue;
		if (len >= want) {
			if (memcmp(d, s->mark + from_held, want))
				continue;
			emit_to(emit, ctx, s->held, i);
			s->nheld = 0;
			s->found = true;
			return want;
		}
		if (!memcmp(d, s->mark + from_held, len)) {
			emit_to(emit, ctx, s->held, i);
			memmove(s->held, s->held + i, from_held);
			memcpy(s->held + from_held, d, len);
			s->nheld = from_held + len;
			return len;
		}
	}
	m = memmem(d, len, s->mark, P);
	if (m) {
		emit_to(emit, ctx, s->held, s->nheld);
		s->nheld = 0;
		emit_to(emit, ctx, d, (size_t)(m - d));
		s->found = true;
		return (size_t)(m - d) + P;
	}
	/* No mark: hold back the longest tail of held + data that begins the mark. */
	total = s->nheld + len;
	for (k = P - 1 < total ? P - 1 : total; k > 0; k--) {
		size_t j;

		for (j = 0; j < k; j++) {
			size_t pos = total - k + j;
			uint8_t byte = pos < s->nheld ? s->held[pos] : d[pos - s->nheld];

			if (byte != s->mark[j])
				break;
		}
		if (j == k)
			break;
	}
	if (total - k <= s->nheld) {
		uint8_t tmp[NESTED_MARK_LEN * 2];
		size_t keep_held = s->nheld - (total - k);

		emit_to(emit, ctx, s->held, total - k);
		memcpy(tmp, s->held + (total - k), keep_held);
		memcpy(tmp + keep_held, d, len);
		memcpy(s->held, tmp, keep_held + len);
		s->nheld = keep_held + len;
	} else {
		emit_to(emit, ctx, s->held, s->nheld);
		emit_to(emit, ctx, data, total - k - s->nheld);
		memcpy(s->held, d + len - k, k);
		s->nheld = k;
	}
	return len;
}

void nested_frame_head(struct nested_frame_head *h, enum nested_frame type, size_t len)
{
	h->type = type;
	h->len = (uint32_t)len;
}

bool nested_ctl_init(struct nested_ctl *c, nested_emit_fn *records, nested_emit_fn *log,
		     void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->records = records;
	c->log = log;
	c->ctx = ctx;
	c->payload = malloc(NESTED_FRAME_MAX);
	return c->payload != NULL;
}

void nested_ctl_free(struct nested_ctl *c)
{
	free(c->payload);
	c->payload = NULL;
}

static void ctl_violation(struct nested_ctl *c, const char *what)
{
	if (!c->error[0])
		snprintf(c->error, sizeof(c->error), "%s", what);
}

static void ctl_text(char *out, size_t cap, const char *data, size_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = data[i] >= 0x20 && data[i] < 0x7f ? data[i] : '?';
	out[n] = 0;
}

/* One whole frame. */
static void ctl_frame(struct nested_ctl *c)
{
	const struct nested_frame_head *h = &c->head;

	if (c->exited) {
		ctl_violation(c, "a frame after EXIT");
		return;
	}
	if (!c->acked && h->type != NESTED_F_ACK && h->type != NESTED_F_FAIL) {
		ctl_violation(c, "a frame before ACK");
		return;
	}
	switch (h->type) {
	case NESTED_F_ACK:
		if (c->acked || h->len != sizeof(c->ack)) {
			ctl_violation(c, c->acked ? "a second ACK" : "an ACK of the wrong size");
			return;
		}
		memcpy(&c->ack, c->payload, sizeof(c->ack));
		c->acked = true;
		break;
	case NESTED_F_RECORDS:
		if (c->records && h->len)
			c->records(c->ctx, c->payload, h->len);
		break;
	case NESTED_F_LOG:
		if (c->log && h->len)
			c->log(c->ctx, c->payload, h->len);
		break;
	case NESTED_F_FAIL:
		ctl_text(c->fail_msg, sizeof(c->fail_msg), c->payload, h->len);
		c->failed = true;
		break;
	case NESTED_F_EXIT:
		if (h->len != sizeof(c->exit)) {
			ctl_violation(c, "an EXIT of the wrong size");
			return;
		}
		memcpy(&c->exit, c->payload, sizeof(c->exit));
		if ((c->exit.how != NESTED_EXITED && c->exit.how != NESTED_KILLED) ||
		    (c->exit.how == NESTED_EXITED && (c->exit.value < 0 || c->exit.value > 255)) ||
		    (c->exit.how == NESTED_KILLED && (c->exit.value < 1 || c->exit.value > 64))) {
			ctl_violation(c, "an EXIT with an impossible status");
			return;
		}
		c->exited = true;
		break;
	default:
		ctl_violation(c, "a frame of unknown type");
	}
}

void nested_ctl_feed(struct nested_ctl *c, const char *data, size_t len)
{
	while (len && !c->error[0]) {
		size_t n;

		if (c->have < sizeof(c->head)) {
			n = sizeof(c->head) - c->have;
			n = n < len ? n : len;
			memcpy((char *)&c->head + c->have, data, n);
			c->have += n;
			data += n;
			len -= n;
			if (c->have == sizeof(c->head) && c->head.len > NESTED_FRAME_MAX) {
				ctl_violation(c, "a frame longer than 1 MiB");
				return;
			}
		} else {
			size_t got = c->have - sizeof(c->head);

			n = c->head.len - got;
			n = n < len ? n : len;
			memcpy(c->payload + got, data, n);
			c->have += n;
			data += n;
			len -= n;
		}
		if (c->have == sizeof(c->head) + c->head.len) {
			ctl_frame(c);
			c->have = 0;
		}
	}
}
