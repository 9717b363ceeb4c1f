/*
 * One command on a nested runner (nested_runner.c gives the VM): the
 * request sent (argv, the environment the inner entrylab needs, the cwd and
 * the command's files), then the three ports pumped until the agent's EXIT
 * and both data streams' end marks: records appended as they come, stdout
 * and stderr passed on with backpressure (nested_sink.c), the VM's log kept
 * for -v and for failures.  The way it ended becomes entrylab's exit
 * status; a runner that died or broke the protocol is the VMM's failure
 * (125), never the guest's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confine.h"
#include "host_io.h"
#include "nested.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "program.h"
#include "record_nested.h"
#include "record_out.h"
#include "status.h"

#define LOG_KEEP 65536
#define LOG_TAIL_LINES 40
/*
 * A runner that takes a request answers within this (it reads it and says
 * ACK); ENTRYLAB_NESTED_ACK_TIMEOUT replaces it.
 */
#define NESTED_ACK_TIMEOUT_S 20.0
#define ACK_TIMEOUT_S() nested_env_seconds("ENTRYLAB_NESTED_ACK_TIMEOUT", NESTED_ACK_TIMEOUT_S)
#define PUMP_MS 50

struct session {
	const struct nested_request *args;
	struct nested_runner *rn;
	struct nested_records records;
	struct nested_ctl ctl;
	struct nested_mark_scan ctl_begin, begin[2], end[2];
	struct nested_sink sink[2];
	bool verbose, died;
	char log[LOG_KEEP];
	size_t log_len;
};

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

static void on_log(void *ctx, const char *data, size_t len)
{
	struct session *s = ctx;

	keep(s->log, sizeof(s->log), &s->log_len, data, len);
	if (s->verbose) {
		fputs("nested: ", stderr);
		nested_print_text(data, len);
		if (len && data[len - 1] != '\n')
			fputc('\n', stderr);
	}
}

static void print_log_tail(const struct session *s)
{
	size_t start = s->log_len;
	int lines = 0;

	if (s->verbose || !s->log_len)
		return; /* with -v it is on the screen already */
	while (start > 0 && lines <= LOG_TAIL_LINES)
		lines += s->log[--start] == '\n';
	fprintf(stderr, "last lines of the nested VM's log:\n");
	nested_print_text(s->log + start + (start > 0), s->log_len - start - (start > 0));
}

static void on_records(void *ctx, const char *data, size_t len)
{
	nested_records_feed(&((struct session *)ctx)->records, data, len);
}

/* ---- the request ---- */

static void put_env(struct nested_buf *b, const char *name, const char *value)
{
	char *item;

	if (asprintf(&item, "%s=%s", name, value) < 0) {
		b->oom = true;
		return;
	}
	nested_req_item(b, NESTED_ITEM_ENV, item, strlen(item));
	free(item);
}

/* Only names of letters: the test hook's value is a signal's name. */
static bool test_crash_ok(const char *v)
{
	return v && *v && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(v) && strlen(v) <= 8;
}

int nested_request_encode(struct nested_buf *b, uint64_t nonce, const struct nested_request *r,
			  const struct nested_runner *rn)
{
	char cwd[4096], path[8192], num[64], err[512];
	struct stat st;

	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	nested_req_begin(b, nonce);
	for (int i = 1; i < r->argc; i++)
		nested_req_item(b, NESTED_ITEM_ARG, r->argv[i], strlen(r->argv[i]));
	nested_req_item(b, NESTED_ITEM_CWD, cwd, strlen(cwd));
	/* the confinement's test and debug knobs (vmm/confine.h) reach the inner entrylab */
	for (const char *const *e = confine_env_names; *e; e++)
		if (getenv(*e))
			put_env(b, *e, getenv(*e));
	if (test_crash_ok(getenv(NESTED_ENV_TEST_CRASH)))
		put_env(b, NESTED_ENV_TEST_CRASH, getenv(NESTED_ENV_TEST_CRASH));
	/* --guest linux's default kernel as the host resolved it (the file is sent too) */
	if (getenv(EL_LINUX_KERNEL_ENV))
		put_env(b, EL_LINUX_KERNEL_ENV, getenv(EL_LINUX_KERNEL_ENV));
	put_env(b, EL_NESTED_ENV_RUNNER, rn->warm ? "warm" : "cold");
	put_env(b, EL_NESTED_ENV_STARTED, rn->started ? "1" : "0");
	snprintf(num, sizeof(num), "%.3f", rn->wait_s);
	put_env(b, EL_NESTED_ENV_WAIT, num);
	snprintf(num, sizeof(num), "%.3f", rn->setup_s);
	put_env(b, EL_NESTED_ENV_SETUP, num);
	for (size_t i = 0; r->files && r->files[i]; i++) {
		size_t len;
		char *data;

		if (!nested_path_join(cwd, r->files[i], path, sizeof(path)) || !strcmp(path, "/")) {
			fprintf(stderr, "entrylab: nested runner: %s: path too long or not a file\n",
				r->files[i]);
			return EL_EXIT_USAGE;
		}
		data = io_read_file(r->files[i], NESTED_REQ_MAX, &len, err, sizeof(err));
		if (!data) {
			fprintf(stderr, "entrylab: nested runner: %s\n", err);
			return EL_EXIT_USAGE;
		}
		nested_req_file(b, path, stat(r->files[i], &st) ? 0644 : st.st_mode & 0777, data,
				len);
		free(data);
	}
	if (!nested_req_end(b)) {
		fprintf(stderr, "entrylab: nested runner: the command's files are more than "
				"%u MiB in all (or out of memory)\n", NESTED_REQ_MAX >> 20);
		return EL_EXIT_USAGE;
	}
	return 0;
}

/* Writes the request, not past deadline; 0, 128 + a signal, or -1 (the runner is not reading). */
static int send_all(int fd, const char *p, size_t len, double deadline,
		    const volatile sig_atomic_t *stop)
{
	while (len) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		ssize_t n;

		if (stop && *stop)
			return 128 + *stop;
		if (nested_now_s() > deadline)
			return -1;
		if (poll(&pfd, 1, PUMP_MS) <= 0)
			continue;
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static uint64_t new_nonce(void)
{
	uint64_t n = 0;

	while (getrandom(&n, sizeof(n), 0) != sizeof(n) || !n)
		;
	return n;
}

/* The control stream: the begin mark, then frames. */
static void feed_ctl(struct session *s, const char *d, size_t n)
{
	size_t used = s->ctl_begin.found ? 0 : nested_mark_scan_feed(&s->ctl_begin, d, n, NULL, NULL);

	if (s->ctl_begin.found && n > used)
		nested_ctl_feed(&s->ctl, d + used, n - used);
}

/* A data stream: dropped until its begin mark, passed on until its end mark. */
static void feed_data(struct session *s, int i, const char *d, size_t n)
{
	while (n) {
		size_t used;

		if (!s->begin[i].found)
			used = nested_mark_scan_feed(&s->begin[i], d, n, NULL, NULL);
		else if (!s->end[i].found)
			used = nested_mark_scan_feed(&s->end[i], d, n, nested_sink_put, &s->sink[i]);
		else
			used = n; /* nothing comes after the end mark */
		if (!used)
			break;
		d += used;
		n -= used;
	}
}

/* One read from a port; false at EOF (the runner's QEMU is gone) or an error. */
static bool pump_read(struct session *s, int which)
{
	static char buf[65536];
	ssize_t n = recv(s->rn->fd[which], buf, sizeof(buf), MSG_DONTWAIT);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (which == 0)
		feed_ctl(s, buf, (size_t)n);
	else
		feed_data(s, which - 1, buf, (size_t)n);
	return true;
}

static bool session_done(const struct session *s)
{
	if (s->ctl.failed || s->ctl.error[0])
		return true;
	return s->ctl.exited && s->end[0].found && s->end[1].found;
}

enum pump_end { PUMP_DONE, PUMP_DIED, PUMP_TIMEOUT, PUMP_NO_ACK, PUMP_STOPPED, PUMP_RECORDS };

static enum pump_end pump(struct session *s, double deadline, double ack_deadline)
{
	const volatile sig_atomic_t *stop = s->args ? s->args->stop : NULL;

	while (!session_done(s)) {
		struct pollfd p[5];
		double now = nested_now_s();
		int n = 0;

		if (stop && *stop)
			return PUMP_STOPPED;
		if (s->records.failed)
			return PUMP_RECORDS;
		if (now > deadline)
			return PUMP_TIMEOUT;
		if (!s->ctl.acked && now > ack_deadline)
			return PUMP_NO_ACK;
		for (int i = 0; i < 2; i++) {
			struct nested_sink *k = &s->sink[i];

			/* After the end, a reader that took nothing for a while gets no more. */
			if (s->ctl.exited && nested_sink_pending(k) &&
			    (now - k->last_progress) * 1000 > NESTED_STALL_MS)
				nested_sink_give_up(k);
			if (!k->chunked)
				nested_sink_flush(k);
		}
		p[n++] = (struct pollfd){.fd = s->rn->fd[0], .events = POLLIN};
		for (int i = 0; i < 2; i++) {
			struct nested_sink *k = &s->sink[i];

			/* Read a port only into an empty sink: a slow reader slows the command. */
			p[n++] = (struct pollfd){.fd = nested_sink_pending(k) || s->end[i].found
						 ? -1 : s->rn->fd[i + 1], .events = POLLIN};
			p[n++] = (struct pollfd){.fd = nested_sink_pending(k) && k->chunked ? k->fd : -1,
						 .events = POLLOUT};
		}
		if (poll(p, (nfds_t)n, PUMP_MS) < 0 && errno != EINTR)
			return PUMP_DIED;
		if (p[0].revents && !pump_read(s, 0))
			return PUMP_DIED;
		for (int i = 0; i < 2; i++) {
			if (p[1 + 2 * i].revents && !pump_read(s, i + 1))
				return PUMP_DIED;
			if (p[2 + 2 * i].revents)
				nested_sink_flush(&s->sink[i]);
		}
	}
	/* What the sinks still hold. */
	for (int i = 0; i < 2; i++) {
		while (nested_sink_pending(&s->sink[i]) &&
		       (nested_now_s() - s->sink[i].last_progress) * 1000 <= NESTED_STALL_MS) {
			struct pollfd p = {.fd = s->sink[i].fd, .events = POLLOUT};

			poll(&p, 1, PUMP_MS);
			nested_sink_flush(&s->sink[i]);
		}
		if (nested_sink_pending(&s->sink[i]))
			nested_sink_give_up(&s->sink[i]);
	}
	return PUMP_DONE;
}

static struct session *session_new(const struct nested_request *args, struct nested_runner *rn,
				   uint64_t nonce)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s || !nested_ctl_init(&s->ctl, on_records, on_log, s)) {
		free(s);
		fprintf(stderr, "entrylab: nested runner: out of memory\n");
		return NULL;
	}
	s->args = args;
	s->rn = rn;
	s->verbose = args && args->verbose;
	nested_records_init(&s->records, args ? args->output : NULL);
	if (args) {
		s->records.on_record = args->on_record;
		s->records.ctx = args->ctx;
	}
	nested_mark_scan_init(&s->ctl_begin, NESTED_MARK_BEGIN, nonce);
	for (int i = 0; i < 2; i++) {
		nested_mark_scan_init(&s->begin[i], NESTED_MARK_BEGIN, nonce);
		nested_mark_scan_init(&s->end[i], NESTED_MARK_END, nonce);
	}
	nested_sink_init(&s->sink[0], 1, "stdout");
	nested_sink_init(&s->sink[1], 2, "stderr");
	for (int i = 0; i < 3; i++)
		fcntl(rn->fd[i], F_SETFL, fcntl(rn->fd[i], F_GETFL) | O_NONBLOCK);
	return s;
}

static void session_free(struct session *s)
{
	nested_ctl_free(&s->ctl);
	free(s);
}

int nested_session_ping(struct nested_runner *rn, double timeout_s,
			const volatile sig_atomic_t *stop)
{
	const uint64_t nonce = new_nonce();
	const double deadline = nested_now_s() + timeout_s;
	struct nested_buf b = {0};
	struct session *s = session_new(NULL, rn, nonce);
	int rc;

	if (!s)
		return EL_EXIT_VMM;
	nested_req_begin(&b, nonce);
	nested_req_item(&b, NESTED_ITEM_PING, NULL, 0);
	rc = nested_req_end(&b) ? send_all(rn->fd[0], b.p, b.len, deadline, stop) : -1;
	nested_buf_free(&b);
	while (!rc && !s->ctl.acked && !s->ctl.failed && !s->ctl.error[0]) {
		struct pollfd p = {.fd = rn->fd[0], .events = POLLIN};

		if (stop && *stop) {
			rc = 128 + *stop;
			break;
		}
		if (nested_now_s() > deadline) {
			fprintf(stderr, "entrylab: nested runner: the VM did not come up within %.0f s; "
					"killed QEMU (a slow machine: raise "
					"ENTRYLAB_NESTED_BOOT_TIMEOUT)\n", timeout_s);
			rc = EL_EXIT_VMM;
			break;
		}
		if (poll(&p, 1, PUMP_MS) > 0 && !pump_read(s, 0)) {
			fprintf(stderr, "entrylab: nested runner: the VM stopped before it came up "
					"(its kernel panicked, a module did not load, or QEMU "
					"failed)\n");
			rc = EL_EXIT_VMM;
			break;
		}
	}
	if (!rc && (s->ctl.failed || s->ctl.error[0])) {
		fprintf(stderr, "entrylab: nested runner: the VM answered its first request with "
				"%s%s\n", s->ctl.failed ? "a failure: " : "", s->ctl.failed ?
			s->ctl.fail_msg : s->ctl.error);
		rc = EL_EXIT_VMM;
	}
	if (rc == -1) {
		fprintf(stderr, "entrylab: nested runner: the VM did not take its first request\n");
		rc = EL_EXIT_VMM;
	}
	session_free(s);
	return rc;
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
 * The inner entrylab's end.  A signal, or a guest status with no record
 * (from a command that writes one per boot), is the VMM's failure (125),
 * never a guest's exit status.
 */
static int inner_end(struct session *s)
{
	const struct nested_exit *ex = &s->ctl.exit;
	char recs[4200];

	records_said(s, recs, sizeof(recs));
	if (ex->how == NESTED_KILLED) {
		const char *name = sigabbrev_np(ex->value);

		fprintf(stderr, "entrylab: nested runner: the VMM inside the nested runner died of "
				"SIG%s (signal %d, %s); %s; a crash of entrylab, not the guest's "
				"exit: report it with the command and the output of -v\n",
			name ? name : "?", ex->value, strsignal(ex->value), recs);
		return EL_EXIT_VMM;
	}
	/* 120, 121 and 125: the inner entrylab refused, before or without a record. */
	if (s->args->expects_record && !s->records.written && ex->value != EL_EXIT_USAGE &&
	    ex->value != EL_EXIT_UNSUPPORTED && ex->value != EL_EXIT_VMM) {
		fprintf(stderr, "entrylab: nested runner: the VMM inside the nested runner exited "
				"with status %d but %s: a VMM error, not the guest's status; run "
				"again with -v to see the VM's log\n", ex->value, recs);
		return EL_EXIT_VMM;
	}
	return ex->value;
}

static int judge(struct session *s, enum pump_end end, double total_s, bool *broken)
{
	char recs[4200];

	records_said(s, recs, sizeof(recs));
	switch (end) {
	case PUMP_STOPPED:
		return 128 + *s->args->stop; /* the caller says what was kept */
	case PUMP_RECORDS:
		fprintf(stderr, "entrylab: nested runner: stopped the command: its records cannot "
				"be written (above)\n");
		return EL_EXIT_VMM;
	case PUMP_TIMEOUT:
		*broken = true;
		fprintf(stderr, "entrylab: nested runner: the command did not finish within %.0f s "
				"in the nested VM; stopped its runner (raise --timeout or "
				"ENTRYLAB_NESTED_TIMEOUT); %s\n", total_s, recs);
		print_log_tail(s);
		return EL_EXIT_TIMEOUT;
	case PUMP_DIED:
		*broken = true;
		fprintf(stderr, "entrylab: nested runner: the runner's VM (QEMU pid %ld) stopped "
				"during the command; %s; a failure of the runner, not the guest's "
				"exit: run it again (a new runner starts)\n", (long)s->rn->pid, recs);
		print_log_tail(s);
		return EL_EXIT_VMM;
	case PUMP_NO_ACK:
	case PUMP_DONE:
		break;
	}
	if (s->ctl.error[0]) {
		*broken = true;
		fprintf(stderr, "entrylab: nested runner: the VM's control channel carried %s; "
				"stopped that runner\n", s->ctl.error);
		print_log_tail(s);
		return EL_EXIT_VMM;
	}
	if (s->ctl.failed) {
		fprintf(stderr, "entrylab: nested runner: the VM could not run the command: %s\n",
			s->ctl.fail_msg);
		return EL_EXIT_VMM;
	}
	return inner_end(s);
}

static void session_notes(const struct session *s)
{
	char note[300];

	for (int i = 0; i < 2; i++)
		if (nested_sink_note(&s->sink[i], note, sizeof(note)))
			fprintf(stderr, "entrylab: nested runner: %s (harness/nested/README.md)\n",
				note);
}

int nested_session(const struct nested_request *args, struct nested_runner *rn, bool *broken,
		   bool *retry)
{
	const uint64_t nonce = new_nonce();
	const double boots = args->boots ? args->boots : 1;
	/* The whole run: per boot its --timeout plus one boot and shipping its record back. */
	const double run_s = args->timeout_s > 0 ? boots * (args->timeout_s + NESTED_BOOT_MARGIN_S)
						  : NESTED_NO_TIMEOUT_S;
	const double total_s = nested_env_seconds("ENTRYLAB_NESTED_TIMEOUT", run_s);
	const double t0 = nested_now_s();
	struct nested_buf b = {0};
	struct session *s;
	enum pump_end end;
	size_t torn;
	int rc;

	*broken = *retry = false;
	fflush(stdout);
	fflush(stderr);
	rc = nested_request_encode(&b, nonce, args, rn);
	if (rc) {
		nested_buf_free(&b);
		return rc;
	}
	s = session_new(args, rn, nonce);
	if (!s) {
		nested_buf_free(&b);
		return EL_EXIT_VMM;
	}
	rc = send_all(rn->fd[0], b.p, b.len, t0 + ACK_TIMEOUT_S(), args->stop);
	nested_buf_free(&b);
	if (rc > 0) {
		session_free(s);
		return rc;
	}
	end = rc < 0 ? PUMP_NO_ACK : pump(s, t0 + total_s, nested_now_s() + ACK_TIMEOUT_S());
	if ((end == PUMP_NO_ACK || end == PUMP_DIED) && !s->ctl.acked && rn->warm) {
		/*
		 * Nothing ran: a runner that hung, or stopped as the command came (its
		 * idle power-off), is replaced and the command sent again (nested.c).
		 */
		if (end == PUMP_DIED)
			fprintf(stderr, "entrylab: nested runner: the warm runner in slot %u stopped "
					"before it took the command (its idle time was up?); "
					"starting a new one\n", rn->slot);
		else
			fprintf(stderr, "entrylab: nested runner: the warm runner in slot %u (QEMU "
					"pid %ld) did not take the command within %.0f s; replacing "
					"it\n", rn->slot, (long)rn->pid, ACK_TIMEOUT_S());
		*broken = *retry = true;
		session_free(s);
		return EL_EXIT_VMM;
	}
	if (args->verbose && s->ctl.acked)
		fprintf(stderr, "entrylab: nested runner: %s runner (slot %u, QEMU pid %ld), "
				"command %llu of its life, VM up %.1f s (booted in %.1f s): waited %.2f "
				"s, set-up %.2f s%s, command %.2f s\n", rn->warm ? "warm" : "cold",
			rn->slot, (long)rn->pid, (unsigned long long)s->ctl.ack.seq,
			(double)s->ctl.ack.uptime_ms / 1e3, (double)s->ctl.ack.ready_ms / 1e3, rn->wait_s, rn->setup_s,
			rn->started ? " (booted it)" : "", nested_now_s() - t0);
	session_notes(s);
	torn = nested_records_close(&s->records);
	if (torn)
		fprintf(stderr, "entrylab: nested runner: dropped an unfinished record (%zu bytes) "
				"the VM was writing when it stopped\n", torn);
	rc = judge(s, end, total_s, broken);
	/* A record that did not reach the host file is a lost result, whatever the guest said. */
	if (s->records.failed)
		rc = EL_EXIT_VMM;
	session_free(s);
	return rc;
}
