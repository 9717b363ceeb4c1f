/*
 * Inside the nested runner (nested.h is the outside): the runner VMs
 * (nested_runner.c), one command on one (nested_session.c), the agent in the
 * VM (nested_agent.c), record lines and output sinks; the wire between host
 * and agent is nested_wire.h.  The unit tests reach the pure pieces here.
 */
#ifndef EL_NESTED_PRIV_H
#define EL_NESTED_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "nested.h"

/* Environment the agent gives the inner entrylab. */
#define NESTED_ENV_INNER "ENTRYLAB_NESTED_INNER"
#define NESTED_ENV_OUTPUT "ENTRYLAB_NESTED_OUTPUT"
/* Where the inner entrylab appends its records, in its root (the agent reads them). */
#define NESTED_INNER_RECORDS "/.entrylab-records.jsonl"
/*
 * Tests only: ENTRYLAB_TEST_INNER_CRASH=SEGV|ABRT|KILL|BUS on the host is
 * forwarded to the inner entrylab, which raises that signal once its records
 * file is open (nested_inner_test_crash()).
 */
#define NESTED_ENV_TEST_CRASH "ENTRYLAB_TEST_INNER_CRASH"

/* quiet: the console is only shown with -v or on failure; the crypto self-tests cost ~0.2 s */
#define NESTED_KERNEL_APPEND "console=ttyS0 quiet loglevel=3 panic=-1 cryptomgr.notests"
/* Per boot on top of its --timeout: the inner boot (~5-10 s) and its record shipped back. */
#define NESTED_BOOT_MARGIN_S 60.0
/* The whole run when the command has no --timeout. */
#define NESTED_NO_TIMEOUT_S 3600.0

/* CLOCK_MONOTONIC in seconds: every deadline of the nested runner. */
double nested_now_s(void);
/* A positive number of seconds from the environment, else def. */
double nested_env_seconds(const char *name, double def);
/* The VM's text (its log, its console) on stderr: \r dropped, controls escaped as \xHH. */
void nested_print_text(const char *data, size_t len);

/* Lexically joins cwd and path (absolute path: itself), folding "." and "..". */
bool nested_path_join(const char *cwd, const char *path, char *out, size_t cap);

/* A memfd holding base.cpio then the archive cpio[0..len): the VM's initramfs; -1 said why. */
int nested_initrd_memfd(const char *base, const void *cpio, size_t len);

/* ---- nested_runner.c: the VMs ---- */

struct nested_runner {
	char dir[NESTED_PATH_MAX];  /* the slot's directory (warm), a private one (cold) */
	int lock;                   /* the slot's flock'd lock, -1 (cold) */
	int fd[3];                  /* ctl, out, err: the ports' sockets, connected */
	pid_t pid;                  /* its QEMU (0 when not known) */
	unsigned slot;
	bool warm, started;         /* started: this command booted it */
	double wait_s, setup_s;     /* for a free slot; connecting (and booting) */
};

struct nested_runner_opts {
	const struct nested_ready *ready;
	const char *memory;
	bool warm, verbose;
	double boot_timeout_s;
	const volatile sig_atomic_t *stop;
};

/* How many warm runners may run at once (ENTRYLAB_NESTED_RUNNERS, default one per CPU). */
unsigned nested_runner_slots(void);
/* The directory the warm runners live in (made 0700 if missing); false with the fix in err. */
bool nested_runner_base(char *out, size_t cap, char *err, size_t errlen);
/* A runner for one command, connected: 0, or an EL_EXIT_* / 128 + signal after saying why. */
int nested_runner_get(struct nested_runner *rn, const struct nested_runner_opts *o);
/* Done with it: broken stops its VM (the next command starts another). */
void nested_runner_put(struct nested_runner *rn, bool broken);


/* The last lines of one of the runner's files (console.log, qemu.log) to stderr. */
void nested_runner_print_tail(const struct nested_runner *rn, const char *name, int lines);

/* ---- nested_session.c: one command on a runner ---- */

struct nested_buf;
/* The request for r on rn (argv, cwd, env, files); 0 or EL_EXIT_USAGE after saying why. */
int nested_request_encode(struct nested_buf *b, uint64_t nonce, const struct nested_request *r,
			  const struct nested_runner *rn);
/* The first request of a runner that was just started: 0 once its agent answered. */
int nested_session_ping(struct nested_runner *rn, double timeout_s,
			const volatile sig_atomic_t *stop);
/*
 * Runs the command: its exit status, or an EL_EXIT_* code after saying why.
 * broken: the runner must go; retry: and nothing ran, so it may be sent again.
 */
int nested_session(const struct nested_request *r, struct nested_runner *rn, bool *broken,
		   bool *retry);

/* ---- nested_records.c: record lines ---- */

/*
 * Record lines: bytes in, whole validated lines appended to the host file
 * (one write per batch, rolled back if torn, fsync'ed), partial lines held
 * back; each line handed to on_record once it is on disk.
 */
struct record_out;
struct nested_records {
	struct record_out *out; /* host output file, open; NULL: records are dropped */
	char *pending;          /* bytes after the last newline */
	size_t pending_len, pending_cap;
	unsigned long written, rejected;
	bool failed; /* the host file could not be written (or there is none); message printed */
	void (*on_record)(void *ctx, const char *line, size_t len);
	void *ctx;
};

void nested_records_init(struct nested_records *r, struct record_out *out);
void nested_records_feed(void *ctx, const char *data, size_t len); /* ctx: struct nested_records */
/* Drops what is held; returns the number of bytes of an unfinished last line (dropped). */
size_t nested_records_close(struct nested_records *r);

/* ---- nested_sink.c: the inner stdout/stderr passed on, with backpressure ---- */

/* After the command ended, a destination that takes nothing for this long gets no more. */
#define NESTED_STALL_MS 1000

struct nested_sink {
	int fd;
	const char *name;    /* "stdout", "stderr", for the note */
	bool chunked;        /* a pipe or socket: PIPE_BUF per write, after POLLOUT */
	char buf[65536 + 64];
	size_t off, len;     /* bytes buf[off..len) wait for fd */
	uint64_t passed, dropped;
	double last_progress; /* when fd last took a byte */
	bool discarding, broken;
};

void nested_sink_init(struct nested_sink *k, int fd, const char *name);
void nested_sink_put(void *ctx, const char *data, size_t len); /* ctx: struct nested_sink */
bool nested_sink_pending(const struct nested_sink *k);
/* Writes what fd takes without blocking (a file or terminal: all of it). */
void nested_sink_flush(struct nested_sink *k);
/* Drops what is held and whatever comes later (counted). */
void nested_sink_give_up(struct nested_sink *k);
/* true, with "the nested VM's stdout: passed on N bytes, dropped M ..." in buf, if any was dropped. */
bool nested_sink_note(const struct nested_sink *k, char *buf, size_t cap);

#endif
