/*
 * Running QEMU for a trace (started by harness/qemu/): its stdout (the
 * guest's COM1) kept as run keeps its console (the first EL_OUTPUT_HEAD and
 * newest EL_OUTPUT_TAIL bytes, common/output_cap.h), its stderr kept up to
 * EL_OUTPUT_CAP, the console echoed to our stderr (controls escaped) as it
 * arrives with -v, and --timeout enforced by killing it.
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

#include "output_cap.h"
#include "qemu_spawn.h"
#include "text_keep.h"
#include "text_sanitize.h"
#include "trace.h"

/* One read from fd into k; -v echoes it escaped.  0 at EOF or error. */
static int keep_read(int fd, struct text_keep *k, bool echo)
{
	char tmp[8192], esc[sizeof(tmp) * 4 + 1];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	text_keep_put(k, tmp, (size_t)n);
	if (echo)
		fwrite(esc, 1, text_escape_terminal(tmp, (size_t)n, esc, sizeof(esc)), stderr);
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
	size_t len = 0;
	struct pollfd p[2] = {{.fd = out, .events = POLLIN}, {.fd = err, .events = POLLIN}};
	int status;

	text_keep_init(&con, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
	text_keep_init(&qerr, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
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
			if (!keep_read(p[i].fd, i ? &qerr : &con, echo && !i)) {
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
