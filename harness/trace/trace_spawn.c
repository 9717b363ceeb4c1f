/*
 * Running QEMU for a trace (started by harness/qemu/): its stdout (the
 * guest's COM1) kept as run keeps its console (the first EL_OUTPUT_HEAD and
 * newest EL_OUTPUT_TAIL bytes, common/output_cap.h), its stderr kept up to
 * EL_OUTPUT_CAP, the console echoed to our stderr (controls escaped) as it
 * arrives with -v, and --timeout enforced by killing it.  A Linux guest's
 * COM1 also carries /init's frames, KSYMS among them (megabytes): they are
 * split off as they arrive (vmm/frame.h frame_split), so the console's cap
 * never cuts one and -v does not echo them.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "output_cap.h"
#include "qemu_spawn.h"
#include "text_keep.h"
#include "text_sanitize.h"
#include "trace.h"

/* Where console bytes go: the kept text, and stderr (escaped) with -v. */
struct console_sink {
	struct text_keep *k;
	bool echo;
};

static void console_put(void *ctx, const char *p, size_t n)
{
	struct console_sink *c = ctx;
	char esc[8192 * 4 + 1];

	text_keep_put(c->k, p, n);
	while (c->echo && n) {
		size_t take = n < 8192 ? n : 8192;

		fwrite(esc, 1, text_escape_terminal(p, take, esc, sizeof(esc)), stderr);
		p += take;
		n -= take;
	}
}

/* One read from fd into the sink, or through the frame splitter if any.  0 at EOF or error. */
static int keep_read(int fd, struct console_sink *c, struct frame_split *fs)
{
	char tmp[8192];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (fs)
		frame_split_put(fs, tmp, (size_t)n);
	else
		console_put(c, tmp, (size_t)n);
	return 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Both pipes to EOF, or the deadline: then QEMU is killed. */
static void collect(pid_t pid, int out, int err, double timeout_s, bool echo,
		    struct el_trace_run *r, double start)
{
	struct text_keep con, qerr;
	struct console_sink sink[2] = {{&con, echo}, {&qerr, false}};
	struct frame_split fs;
	size_t len = 0;
	struct pollfd p[2] = {{.fd = out, .events = POLLIN}, {.fd = err, .events = POLLIN}};
	int status;

	text_keep_init(&con, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
	text_keep_init(&qerr, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
	frame_split_init(&fs, console_put, &sink[0]);
	while (p[0].fd >= 0 || p[1].fd >= 0) {
		double left = timeout_s * 1e3 - (now_ms() - start);
		int n;

		if (left <= 0 && !r->timed_out) {
			r->timed_out = true;
			kill(pid, SIGKILL);
		}
		n = poll(p, 2, r->timed_out ? 1000 : (int)(left < 1000 ? left + 1 : 1000));
		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2 && n > 0; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!keep_read(p[i].fd, &sink[i], !i && r->split_frames ? &fs : NULL)) {
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	if (r->split_frames) {
		frame_split_finish(&fs);
		r->frames = fs.frames;
		r->frames_len = fs.frames_len;
		r->frames_overflow = fs.overflow;
	} else {
		frame_split_free(&fs);
	}
	r->console_bytes = con.total;
	r->console_dropped = text_keep_dropped(&con);
	r->console = text_keep_finish(&con, &len);
	r->console_len = r->console ? len : 0;
	if (!r->console)
		r->console = strdup("");
	r->qemu_err = text_keep_finish(&qerr, NULL);
	if (!r->qemu_err)
		r->qemu_err = strdup("");
}

void trace_spawn(const char *const argv[], double timeout_s, bool echo, struct el_trace_run *r)
{
	int out[2], err[2];
	double start = now_ms();
	char why[400];
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		snprintf(r->err, sizeof(r->err), "pipe: %s", strerror(errno));
		r->spawn_failed = true;
		return;
	}
	if (qemu_spawn(argv, (const struct qemu_fd_map[]){{out[1], 1}, {err[1], 2}}, 2, &pid,
		       &r->no_qemu, why, sizeof(why))) {
		snprintf(r->err, sizeof(r->err), "%s; install Debian's qemu-system-x86 "
			 "(harness/bootstrap.sh does) or give --qemu FILE", why);
		r->spawn_failed = true;
		for (int i = 0; i < 2; i++) {
			close(out[i]);
			close(err[i]);
		}
		return;
	}
	close(out[1]);
	close(err[1]);
	collect(pid, out[0], err[0], timeout_s, echo, r, start);
	r->wall_ms = now_ms() - start;
}
