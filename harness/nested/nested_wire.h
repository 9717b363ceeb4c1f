/*
 * The nested runner's wire: what the host and the agent inside the runner's
 * VM (nested_agent.c) say to each other over three virtio-serial ports.
 * Pure code (nested_wire.c), reached by the unit tests and a fuzz target.
 *
 *   entrylab.ctl  both ways.  Host -> agent: requests (struct
 *                 nested_req_head, then items).  Agent -> host: a begin mark
 *                 (below), then frames (struct nested_frame_head): ACK,
 *                 RECORDS, LOG, FAIL, EXIT.
 *   entrylab.out  agent -> host: the inner command's stdout, raw, between a
 *   entrylab.err  begin mark and an end mark; likewise its stderr.
 *
 * A port is a byte stream that outlives a connection: bytes of an earlier
 * command (a host killed while it sent, output still queued in QEMU) may
 * come first.  So every request names a random nonce, every stream the agent
 * sends for it starts with NESTED_MARK_BEGIN + that nonce, and the host drops
 * whatever comes before; the data streams end with NESTED_MARK_END + the
 * nonce.  The nonce never reaches the inner command, so its output cannot
 * forge a mark.  The agent finds a request by its magic and checks its CRC,
 * so stale bytes before it are skipped.
 */
#ifndef EL_NESTED_WIRE_H
#define EL_NESTED_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NESTED_PORT_CTL "entrylab.ctl"
#define NESTED_PORT_OUT "entrylab.out"
#define NESTED_PORT_ERR "entrylab.err"

#define NESTED_WIRE_VERSION 1u
#define NESTED_MAGIC_REQ 0x514e4c45u  /* "ELNQ" in memory */
#define NESTED_MAGIC_MARK 0x4d4e4c45u /* "ELNM" */
/* A whole request (files included) and one frame from the agent, at most. */
#define NESTED_REQ_MAX (256u << 20)
#define NESTED_FRAME_MAX (1u << 20)
/* The agent's frames carry at most this much of a record file or log at once. */
#define NESTED_CHUNK 65536u

/* ---- requests (host -> agent) ---- */

struct nested_req_head {
	uint32_t magic;   /* NESTED_MAGIC_REQ */
	uint32_t version; /* NESTED_WIRE_VERSION */
	uint32_t len;     /* of the items that follow */
	uint32_t crc;     /* crc32 of this head (crc as 0) and the items */
	uint64_t nonce;
};

/* Each item: uint32 kind, uint32 len, len bytes. */
enum nested_item {
	NESTED_ITEM_PING = 1, /* no command: the agent answers ACK and waits for the next request */
	NESTED_ITEM_ARG,      /* argv[1..], in order (the agent runs /nested/entrylab) */
	NESTED_ITEM_ENV,      /* NAME=VALUE for the inner command */
	NESTED_ITEM_CWD,      /* absolute */
	NESTED_ITEM_FILE,     /* uint32 mode, uint32 path length, path (absolute), contents */
};

#define NESTED_MAX_ARGS 4096
#define NESTED_MAX_ENV 64
#define NESTED_MAX_FILES 1024

struct nested_file {
	const char *path; /* NUL-terminated, inside the decoded request */
	const char *data;
	size_t len;
	uint32_t mode;
};

/* A decoded request: every pointer is into the buffer it was decoded from. */
struct nested_cmd {
	uint64_t nonce;
	bool ping;
	const char *cwd;
	unsigned nargs, nenv, nfiles;
	const char *args[NESTED_MAX_ARGS + 1]; /* NULL-ended */
	const char *env[NESTED_MAX_ENV + 1];
	struct nested_file files[NESTED_MAX_FILES];
};

/* A growing buffer; oom is sticky. */
struct nested_buf {
	char *p;
	size_t len, cap;
	bool oom;
};
void nested_buf_put(struct nested_buf *b, const void *data, size_t len);
void nested_buf_free(struct nested_buf *b);

/* Host: a request is nested_req_begin, items, nested_req_end (head filled in). */
void nested_req_begin(struct nested_buf *b, uint64_t nonce);
void nested_req_item(struct nested_buf *b, enum nested_item kind, const void *data, size_t len);
void nested_req_file(struct nested_buf *b, const char *path, uint32_t mode, const void *data,
		     size_t len);
/* false when out of memory or too big (NESTED_REQ_MAX) */
bool nested_req_end(struct nested_buf *b);

/*
 * Agent: looks for a whole, valid request in buf[0..len).  Returns the bytes
 * to drop from the front: with *cmd filled when *found (the request's items
 * stay in buf: decode before dropping), else the junk before a possible
 * request.  *need: bytes wanted before another look (0: look again now).
 * The items are decoded in place (NULs written over the kinds that follow
 * strings); err says what was wrong with a request that had a good CRC.
 */
size_t nested_req_find(char *buf, size_t len, struct nested_cmd *cmd, bool *found,
		       size_t *need, char *err, size_t errlen);

/* ---- marks (agent -> host, every stream) ---- */

enum nested_mark_kind { NESTED_MARK_BEGIN = 1, NESTED_MARK_END = 2 };
#define NESTED_MARK_LEN 16 /* uint32 magic, uint32 kind, uint64 nonce */
void nested_mark(uint8_t out[NESTED_MARK_LEN], enum nested_mark_kind kind, uint64_t nonce);

typedef void nested_emit_fn(void *ctx, const char *data, size_t len);

/*
 * Finds one mark in a stream fed in chunks.  Bytes before it go to emit
 * (NULL: dropped); up to NESTED_MARK_LEN - 1 bytes that may be the start of
 * the mark are held back until the next chunk tells.  Returns how many bytes
 * of data it consumed: all of them, or up to the end of the mark (found set).
 */
struct nested_mark_scan {
	uint8_t mark[NESTED_MARK_LEN];
	uint8_t held[NESTED_MARK_LEN];
	size_t nheld;
	bool found;
};
void nested_mark_scan_init(struct nested_mark_scan *s, enum nested_mark_kind kind,
			   uint64_t nonce);
size_t nested_mark_scan_feed(struct nested_mark_scan *s, const char *data, size_t len,
			     nested_emit_fn *emit, void *ctx);

/* ---- frames on entrylab.ctl (agent -> host), after the begin mark ---- */

struct nested_frame_head {
	uint32_t type; /* enum nested_frame */
	uint32_t len;  /* <= NESTED_FRAME_MAX */
};

enum nested_frame {
	NESTED_F_ACK = 1, /* struct nested_ack: the request is taken */
	NESTED_F_RECORDS, /* bytes appended to the inner command's records file */
	NESTED_F_LOG,     /* text: the VM's kernel log and the agent's own lines */
	NESTED_F_FAIL,    /* text: the command could not be started */
	NESTED_F_EXIT,    /* struct nested_exit: the last frame of a command */
};

struct nested_ack {
	uint64_t seq;       /* commands this runner has taken, this one included (pings are none) */
	uint64_t uptime_ms; /* the VM's uptime */
	uint64_t ready_ms;  /* its uptime when the agent was ready (the boot) */
};

enum nested_exit_how { NESTED_EXITED = 1, NESTED_KILLED = 2 };
struct nested_exit {
	uint32_t how;  /* enum nested_exit_how */
	int32_t value; /* exit status, or the signal */
};

/* Host: the ctl stream after its begin mark, parsed frame by frame. */
struct nested_ctl {
	nested_emit_fn *records, *log;
	void *ctx;
	struct nested_frame_head head;
	size_t have;        /* bytes of the current head or payload */
	char *payload;      /* NESTED_FRAME_MAX */
	bool acked, exited, failed;
	struct nested_ack ack;
	struct nested_exit exit;
	char fail_msg[400];
	char error[160]; /* the first violation; nothing more is parsed after one */
};
bool nested_ctl_init(struct nested_ctl *c, nested_emit_fn *records, nested_emit_fn *log,
		     void *ctx);
void nested_ctl_feed(struct nested_ctl *c, const char *data, size_t len);
void nested_ctl_free(struct nested_ctl *c);

/* Agent: one frame's head (payload follows). */
void nested_frame_head(struct nested_frame_head *h, enum nested_frame type, size_t len);

#endif
