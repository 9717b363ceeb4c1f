/*
 * Running QEMU for a trace (started by harness/qemu/): its stdout (the
 * guest's COM1) and stderr captured whole, the console echoed to our stderr
 * as it arrives with -v, and --timeout enforced by killing it.
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

#include "qemu_spawn.h"
#include "trace.h"

struct buf {
	char *p;
	size_t len, cap;
};

static int buf_read(int fd, struct buf *b, bool echo)
{
	char tmp[8192];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 65536) + (size_t)n;
		char *p = realloc(b->p, cap);

		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, tmp, (size_t)n);
	b->len += (size_t)n;
	b->p[b->len] = '\0';
	if (echo)
		fwrite(tmp, 1, (size_t)n, stderr);
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
	struct buf con = {0}, qerr = {0};
	struct pollfd p[2] = {{.fd = out, .events = POLLIN}, {.fd = err, .events = POLLIN}};
	int status;

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
			if (!buf_read(p[i].fd, i ? &qerr : &con, echo && !i)) {
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
	r->console = con.p ? con.p : strdup("");
	r->console_len = con.len;
	r->qemu_err = qerr.p ? qerr.p : strdup("");
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
