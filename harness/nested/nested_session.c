/*
 * One nested session: QEMU started with the initramfs, its channels routed
 * (inner stdout/stderr forwarded as they come, results parsed, records
 * appended, console kept for -v and for failures), and the way it ended
 * turned into entrylab's exit status with a message naming problem and fix.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host_io.h"
#include "nested.h"
#include "nested_priv.h"
#include "record_out.h"
#include "status.h"

#define CONSOLE_KEEP 65536
#define CONSOLE_TAIL_LINES 40
#define NESTED_QBOOT "/usr/share/qemu/qboot.rom"
/* Per boot on top of its --timeout: the inner boot (~5-10 s) and its record shipped back. */
#define NESTED_BOOT_MARGIN_S 60.0
/* The whole run when the command has no --timeout. */
#define NESTED_NO_TIMEOUT_S 3600.0

struct session {
	const struct nested_request *args;
	struct nested_stream stream;
	struct nested_records records;
	const volatile sig_atomic_t *stop;
	bool verbose;
	char console[CONSOLE_KEEP];
	size_t console_len;
	char diag[4096];
	size_t diag_len;
	struct nested_sink out, err; /* the host's stdout and stderr (nested_sink.c) */
};

/* Keeps the newest bytes; older halves are dropped as the buffer fills. */
static void keep(char *buf, size_t cap, size_t *len, const char *data, size_t n)
{
	if (n >= cap) {
		data += n - cap / 2;
		n = cap / 2;
	}
	if (*len + n > cap) {
		size_t drop = *len + n - cap / 2;

		drop = drop > *len ? *len : drop;
		memmove(buf, buf + drop, *len - drop);
		*len -= drop;
	}
	memcpy(buf + *len, data, n);
	*len += n;
}

/* The console as text: the guest's tty turns "\n" into "\r\n". */
static void write_console(struct nested_sink *k, const char *data, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = strcspn(data + i, "\r");

		n = n > len - i ? len - i : n;
		nested_sink_write(k, data + i, n);
		i += n + (i + n < len);
	}
}

static void chan_console(struct session *s, const char *data, size_t len)
{
	keep(s->console, sizeof(s->console), &s->console_len, data, len);
	if (s->verbose)
		write_console(&s->err, data, len);
}

static void chan_stdout(struct session *s, const char *data, size_t len)
{
	nested_sink_write(&s->out, data, len);
}

static void chan_stderr(struct session *s, const char *data, size_t len)
{
	nested_sink_write(&s->err, data, len);
}

static void chan_results(struct session *s, const char *data, size_t len)
{
	nested_stream_feed(&s->stream, data, len);
}

static void chan_diag(struct session *s, const char *data, size_t len)
{
	keep(s->diag, sizeof(s->diag), &s->diag_len, data, len);
	if (s->verbose)
		nested_sink_write(&s->err, data, len);
}

static void (*const chan_sink[NESTED_NR_CHAN])(struct session *, const char *, size_t) = {
	[NESTED_CONSOLE] = chan_console, [NESTED_STDOUT] = chan_stdout,
	[NESTED_STDERR] = chan_stderr,   [NESTED_RESULTS] = chan_results,
	[NESTED_DIAG] = chan_diag,
};

static void session_chunk(void *ctx, enum nested_chan ch, const char *data, size_t len)
{
	if ((unsigned)ch < NESTED_NR_CHAN)
		chan_sink[ch](ctx, data, len);
}

/* The caller's signal, -1 when records can no longer be written, else 0. */
static int session_stopping(void *ctx)
{
	const struct session *s = ctx;

	if (s->stop && *s->stop)
		return *s->stop;
	return s->records.failed ? -1 : 0;
}

static bool session_ready(void *ctx)
{
	return ((struct session *)ctx)->stream.ready;
}

static void print_console_tail(const struct session *s)
{
	struct nested_sink k;
	size_t start = s->console_len;
	int lines = 0;

	if (s->diag_len)
		fprintf(stderr, "QEMU said:\n%.*s%s", (int)s->diag_len, s->diag,
			s->diag[s->diag_len - 1] == '\n' ? "" : "\n");
	if (s->verbose || !s->console_len)
		return; /* with -v it is on the screen already */
	while (start > 0 && lines <= CONSOLE_TAIL_LINES)
		lines += s->console[--start] == '\n';
	fprintf(stderr, "last lines of the nested VM's console:\n");
	fflush(stderr);
	nested_sink_init(&k, 2, "console");
	write_console(&k, s->console + start + (start > 0), s->console_len - start - (start > 0));
}

/* One note per destination that did not get all of the guest's output. */
static void session_notes(const struct session *s)
{
	char note[300];

	if (nested_sink_note(&s->out, note, sizeof(note)))
		fprintf(stderr, "entrylab: nested runner: %s (harness/nested/README.md)\n", note);
	if (nested_sink_note(&s->err, note, sizeof(note)))
		fprintf(stderr, "entrylab: nested runner: %s (harness/nested/README.md)\n", note);
}

static double env_seconds(const char *name, double def)
{
	const char *v = getenv(name);
	char *end;
	double d;

	if (!v || !*v)
		return def;
	d = strtod(v, &end);
	return *end || d <= 0 ? def : d;
}

/* "no record came back" or "N records came back (kept in FILE)". */
static void records_said(const struct session *s, char *buf, size_t cap)
{
	const struct record_out *o = s->args->output;

	if (!s->records.written)
		snprintf(buf, cap, "no record came back");
	else
		snprintf(buf, cap, "%lu record%s came back (kept in %s)", s->records.written,
			 s->records.written == 1 ? "" : "s", o ? o->path : "the output");
}

/*
 * The inner entrylab's end, as init saw it.  A signal, an end without a
 * status, or a guest status with no record (from a command that writes one
 * per boot) is the VMM's failure (125), never a guest's exit status.
 */
static int session_inner_end(struct session *s)
{
	const struct nested_stream *st = &s->stream;
	const int sig = st->killed_signal, code = st->exit_status;
	const char *name = sig ? sigabbrev_np(sig) : NULL;
	char recs[4200];

	records_said(s, recs, sizeof(recs));
	if (sig) {
		fprintf(stderr, "entrylab: nested runner: the VMM inside the nested runner died of "
				"SIG%s (signal %d, %s); %s; a crash of entrylab, not the guest's "
				"exit: report it with the command and the output of -v\n",
			name ? name : "?", sig, strsignal(sig), recs);
		return EL_EXIT_VMM;
	}
	if (st->lost) {
		fprintf(stderr, "entrylab: nested runner: the VMM inside the nested runner ended "
				"without reporting its exit status (the shell saw %d%s); %s; run "
				"again with -v to see the VM's console\n",
			code, code > 128 ? ", 128 + a signal?" : "", recs);
		return EL_EXIT_VMM;
	}
	/* 120, 121 and 125: the inner entrylab refused, before or without a record. */
	if (s->args->expects_record && !s->records.written && code != EL_EXIT_USAGE &&
	    code != EL_EXIT_UNSUPPORTED && code != EL_EXIT_VMM) {
		fprintf(stderr, "entrylab: nested runner: the VMM inside the nested runner exited "
				"with status %d but %s: a VMM error, not the guest's status; run "
				"again with -v to see the VM's console\n", code, recs);
		return EL_EXIT_VMM;
	}
	return code;
}

static int session_judge(struct session *s, const struct nested_vm *vm,
			 const struct nested_outcome *out)
{
	const int ws = out->wait_status;
	const char *when = s->stream.ready ? "before the command finished"
					    : "before the VM came up";

	switch (out->end) {
	case NESTED_END_SPAWN_FAILED:
		fprintf(stderr, "entrylab: nested runner: %s; install QEMU (apt-get install "
				"qemu-system-x86) or set ENTRYLAB_QEMU to its path\n", out->detail);
		return EL_EXIT_VMM;
	case NESTED_END_BOOT_TIMEOUT:
		fprintf(stderr, "entrylab: nested runner: the VM did not come up within "
				"%.0f s; killed QEMU (a slow machine: raise "
				"ENTRYLAB_NESTED_BOOT_TIMEOUT)\n",
			vm->boot_timeout_s);
		print_console_tail(s);
		return EL_EXIT_VMM;
	case NESTED_END_TIMEOUT:
		fprintf(stderr, "entrylab: nested runner: the command did not finish within %.0f s "
				"in the nested VM; killed QEMU (raise --timeout or "
				"ENTRYLAB_NESTED_TIMEOUT)\n", vm->total_timeout_s);
		print_console_tail(s);
		return EL_EXIT_TIMEOUT;
	case NESTED_END_STOPPED:
		if (session_stopping(s) > 0)
			return 128 + session_stopping(s); /* the caller says what was kept */
		fprintf(stderr, "entrylab: nested runner: stopped the VM: its records cannot be "
				"written (above)\n");
		return EL_EXIT_VMM;
	case NESTED_END_EXITED:
		break;
	}
	if (s->stream.error[0]) {
		fprintf(stderr, "entrylab: nested runner: the VM's results channel carried %s; "
				"the initramfs does not match this entrylab: rebuild "
				"(cmake --build)\n",
			s->stream.error);
		print_console_tail(s);
		return EL_EXIT_VMM;
	}
	if (s->stream.exited)
		return session_inner_end(s);
	if (s->stream.failed)
		fprintf(stderr, "entrylab: nested runner: the VM could not run the command: %s\n",
			s->stream.fail_msg);
	else if (WIFSIGNALED(ws))
		fprintf(stderr, "entrylab: nested runner: QEMU died of signal %d (%s) %s\n",
			WTERMSIG(ws), strsignal(WTERMSIG(ws)), when);
	else if (WEXITSTATUS(ws))
		fprintf(stderr, "entrylab: nested runner: QEMU exited with status %d %s "
				"(what it said is below; a bad kernel file? run "
				"harness/nested/fetch-kernel.sh "
				"again with ENTRYLAB_NESTED_REFETCH=1)\n", WEXITSTATUS(ws), when);
	else
		fprintf(stderr, "entrylab: nested runner: the VM stopped %s (its kernel panicked "
				"or init died; its console is below)\n", when);
	print_console_tail(s);
	return EL_EXIT_VMM;
}

int nested_session(const struct nested_request *args, int initrd_fd,
		   const struct nested_ready *ready)
{
	struct session *s = calloc(1, sizeof(*s));
	struct nested_outcome out;
	struct nested_vm vm = { 0 };
	const char *mem = getenv("ENTRYLAB_NESTED_MEMORY");
	const double boots = args->boots ? args->boots : 1;
	/* The whole run: per boot its --timeout plus one boot and shipping its record back. */
	const double run_s = args->timeout_s > 0 ? boots * (args->timeout_s + NESTED_BOOT_MARGIN_S)
						  : NESTED_NO_TIMEOUT_S;
	size_t torn;
	int rc;

	if (!s) {
		fprintf(stderr, "entrylab: nested runner: out of memory\n");
		return EL_EXIT_VMM;
	}
	s->args = args;
	s->verbose = args->verbose;
	nested_records_init(&s->records, args->output);
	s->records.on_record = args->on_record;
	s->records.ctx = args->ctx;
	nested_stream_init(&s->stream, nested_records_feed, &s->records);
	vm.qemu = ready->qemu;
	vm.kernel = ready->kernel;
	vm.initrd_fd = initrd_fd;
	vm.append = NESTED_KERNEL_APPEND;
	/* qboot starts a PVH kernel ~0.2 s sooner than SeaBIOS under TCG. */
	vm.bios = access(NESTED_QBOOT, R_OK) ? NULL : NESTED_QBOOT;
	vm.memory = mem && *mem ? mem : "2G";
	vm.boot_timeout_s = env_seconds("ENTRYLAB_NESTED_BOOT_TIMEOUT", 120);
	vm.total_timeout_s = env_seconds("ENTRYLAB_NESTED_TIMEOUT", vm.boot_timeout_s + run_s);
	vm.verbose = args->verbose;
	nested_sink_init(&s->out, 1, "stdout");
	nested_sink_init(&s->err, 2, "stderr");
	/* One deadline: forwarding output never waits past the end of the whole run. */
	s->out.deadline = s->err.deadline = nested_now_s() + vm.total_timeout_s;
	vm.chunk = session_chunk;
	vm.is_ready = session_ready;
	vm.stopping = session_stopping;
	s->stop = args->stop;
	vm.ctx = s;

	fflush(stdout);
	fflush(stderr);
	nested_qemu_run(&vm, &out);
	if (args->verbose && out.boot_s >= 0)
		fprintf(stderr, "entrylab: nested runner: the VM was up in %.2f s (QEMU start to "
				"/dev/kvm ready; guest uptime %.2f s), whole run %.2f s\n",
			out.boot_s, s->stream.ready_uptime, out.wall_s);
	session_notes(s);
	torn = nested_records_close(&s->records);
	if (torn)
		fprintf(stderr, "entrylab: nested runner: dropped an unfinished record (%zu bytes) "
				"the VM was writing when it stopped\n", torn);
	rc = session_judge(s, &vm, &out);
	/* A record that did not reach the host file is a lost result, whatever the guest said. */
	if (s->records.failed)
		rc = EL_EXIT_VMM;
	free(s);
	return rc;
}
