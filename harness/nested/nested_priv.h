/*
 * Inside the nested runner (nested.h is the outside): the pure pieces that
 * the unit tests reach (command encoding, result stream, record lines) and
 * the QEMU launcher.  The protocol with harness/nested/init is described at
 * the top of nested.c.
 */
#ifndef EL_NESTED_PRIV_H
#define EL_NESTED_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Environment the VM's init gives the inner entrylab. */
#define NESTED_ENV_INNER "ENTRYLAB_NESTED_INNER"
#define NESTED_ENV_OUTPUT "ENTRYLAB_NESTED_OUTPUT"
/* The file the inner entrylab writes its exit status to as it exits (nested_inner_arm()). */
#define NESTED_ENV_STATUS "ENTRYLAB_NESTED_STATUS"
/*
 * Tests only: ENTRYLAB_TEST_INNER_CRASH=SEGV|ABRT|KILL|BUS on the host is
 * forwarded to the inner entrylab, which raises that signal once its records
 * file is open (nested_inner_test_crash()).
 */
#define NESTED_ENV_TEST_CRASH "ENTRYLAB_TEST_INNER_CRASH"

/* quiet: the console is only shown with -v or on failure; the crypto self-tests cost ~0.2 s */
#define NESTED_KERNEL_APPEND "console=ttyS0 quiet loglevel=3 panic=-1 cryptomgr.notests"

/* ---- nested_proto.c: what goes into the VM and what comes back ---- */

/*
 * The shell fragment /nested/cmd that init sources: EL_CWD='...' and
 * `set -- 'arg1' 'arg2' ...` (argv[1..argc-1]), every word single-quoted.
 * Returns a malloc'd string, NULL when out of memory.
 */
char *nested_cmd_script(int argc, char *const *argv, const char *cwd);

/* Writes word to f as one single-quoted shell word. */
void nested_shell_quote(FILE *f, const char *word);
/* CLOCK_MONOTONIC in seconds: every deadline of the nested runner (nested_qemu.c). */
double nested_now_s(void);

/* Lexically joins cwd and path (absolute path: itself), folding "." and "..". */
bool nested_path_join(const char *cwd, const char *path, char *out, size_t cap);

/*
 * The results channel, "ELN1 <verb> ...\n" lines from init:
 *   ready UPTIME    the VM is up and /dev/kvm works; the inner command starts
 *   records N       followed by N raw bytes appended to the inner records file
 *   fail TEXT       init could not run the command
 *   exit STATUS     the inner command's exit status (the last line, or one of:)
 *   killed SIGNAL   the inner command died of a signal (no exit status)
 *   lost STATUS     it ended without writing its status: $? (128 + N or not) is all
 *                   there is
 */
typedef void nested_bytes_fn(void *ctx, const char *data, size_t len);

struct nested_stream {
	nested_bytes_fn *records; /* receives record bytes as they arrive */
	void *ctx;
	char line[512];
	size_t line_len;
	size_t records_left; /* raw bytes still due for the current "records N" */
	bool ready, exited, failed;
	double ready_uptime; /* guest uptime at "ready", seconds */
	int exit_status;
	int killed_signal; /* "killed N": N, else 0 */
	bool lost;         /* "lost STATUS": exit_status is the shell's $? */
	char fail_msg[400];
	char error[160]; /* first protocol violation, "" if none */
};

void nested_stream_init(struct nested_stream *s, nested_bytes_fn *records, void *ctx);
void nested_stream_feed(struct nested_stream *s, const char *data, size_t len);

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
nested_bytes_fn nested_records_feed; /* ctx: struct nested_records */
/* Drops what is held; returns the number of bytes of an unfinished last line (dropped). */
size_t nested_records_close(struct nested_records *r);

/* ---- nested_sink.c: guest output to the host's stdout/stderr, capped, never blocking ---- */

/* A destination that takes no byte for this long is stalled: nothing more is passed on. */
#define NESTED_STALL_MS 1000

struct nested_sink {
	int fd;
	const char *name;      /* "stdout", "stderr", for the note */
	uint64_t cap;          /* EL_NESTED_STREAM_CAP */
	uint64_t passed;       /* bytes written to fd */
	uint64_t dropped_cap;  /* bytes over the cap */
	uint64_t dropped_stall; /* bytes not written: fd stalled or closed */
	double deadline;       /* CLOCK_MONOTONIC seconds: no waiting past it (0: none) */
	bool stalled, broken;
};

void nested_sink_init(struct nested_sink *k, int fd, const char *name);
/*
 * Passes on what the cap and the reader allow, PIPE_BUF at a time, waiting
 * at most NESTED_STALL_MS for each and never past the deadline.
 */
void nested_sink_write(struct nested_sink *k, const char *data, size_t len);
/* true, with "the nested VM's stdout: passed on N bytes, dropped ..." in buf, if any was dropped. */
bool nested_sink_note(const struct nested_sink *k, char *buf, size_t cap);

/* ---- nested_qemu.c: one QEMU run with its four serial ports piped back ---- */

enum nested_chan { NESTED_CONSOLE, NESTED_STDOUT, NESTED_STDERR, NESTED_RESULTS, NESTED_DIAG,
		   NESTED_NR_CHAN };

struct nested_vm {
	const char *qemu;   /* executable (PATH is searched) */
	const char *kernel; /* vmlinux (PVH) or vmlinuz */
	int initrd_fd;      /* the whole initramfs, passed to QEMU as /dev/fd/N */
	const char *append;
	const char *bios; /* NULL: QEMU's default (SeaBIOS) */
	const char *memory;
	double boot_timeout_s; /* QEMU start to "ready" */
	double total_timeout_s;
	bool verbose;
	/* called with every chunk read from a channel (NESTED_DIAG: QEMU's own output) */
	void (*chunk)(void *ctx, enum nested_chan ch, const char *data, size_t len);
	void *ctx;
	/* polled after each results chunk; true once the VM said "ready" */
	bool (*is_ready)(void *ctx);
	/* polled in the pump: nonzero kills QEMU now (interrupted, or records cannot be kept) */
	int (*stopping)(void *ctx);
};

enum nested_end { NESTED_END_EXITED, NESTED_END_BOOT_TIMEOUT, NESTED_END_TIMEOUT,
		  NESTED_END_SPAWN_FAILED, NESTED_END_STOPPED };

struct nested_outcome {
	enum nested_end end;
	int wait_status;  /* QEMU's, from waitpid (NESTED_END_EXITED) */
	double boot_s;    /* QEMU start to "ready"; < 0 if never */
	double wall_s;
	char detail[256]; /* spawn failure: what and why */
};

void nested_qemu_run(const struct nested_vm *vm, struct nested_outcome *out);

/* ---- nested_session.c: one VM run, its channels routed, its outcome judged ---- */

/* Returns the inner exit status, or an EL_EXIT_* code after saying why. */
struct nested_request;
struct nested_ready;
int nested_session(const struct nested_request *r, int initrd_fd,
		   const struct nested_ready *ready);

#endif
