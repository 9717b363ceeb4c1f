/*
 * el_vm_run() (run.h): each run in a forked child that confines itself
 * before the first KVM_RUN (confine.h), so that the parent keeps what the
 * confined VMM must not have (root, the records file, open(2)) and can
 * still report when the child dies.
 *
 * The child writes its struct el_run_result into a shared anonymous page
 * and the console bytes into a pipe; the parent reads the pipe to the end
 * (bounded), reaps the child and turns a death into a named vmm-error: the
 * seccomp trap with the syscall, or the signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"
#include "confine.h"
#include "exit.h"
#include "host_io.h"
#include "output_cap.h"
#include "hostout.h"
#include "run.h"

/* The parent accepts at most this much console from the child (it keeps EL_OUTPUT_CAP, common/output_cap.h). */
#define JAIL_CONSOLE_MAX ((size_t)EL_OUTPUT_CAP * 2)

/* The parent's backstop: --timeout plus this, from the fork, and the VMM process is killed. */
#define JAIL_GRACE_S 1.0

struct jail_page {
	struct el_run_result res;
	struct el_confine_violation violation;
	pid_t parent;
};

static void __attribute__((format(printf, 2, 3)))
jail_fail(struct el_run_result *res, const char *fmt, ...)
{
	va_list ap;

	res->status = EL_RUN_VMM_ERROR;
	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn))
jail_child(const struct el_run_spec *spec, struct jail_page *page, int fd)
{
	/* the VMM process does not outlive entrylab (a matrix child killed, say) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != page->parent)
		_exit(1);
	hostout_confined(); /* io_uring's operations would bypass the seccomp filter */
	confine_trap_install(&page->violation);
	vm_run_here(spec, &page->res, fd);
	if (!io_write_all(fd, page->res.console, page->res.console_len))
		_exit(1);
	_exit(0);
}

/* Milliseconds left until deadline (CLOCK_MONOTONIC seconds); -1 (no limit) if deadline is 0. */
static int jail_ms_left(double deadline)
{
	struct timespec now;
	double left;

	if (deadline <= 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	left = (deadline - (double)now.tv_sec - (double)now.tv_nsec / 1e9) * 1e3;
	return left > 0 ? (int)left + 1 : 0;
}

/*
 * The console from the pipe, to EOF; NULL with *len = (size_t)-1 if over
 * the bound.  *late if the deadline passed first.
 */
static char *jail_read_console(int fd, double deadline, size_t *len, bool *late)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int ms = jail_ms_left(deadline), rc;
		ssize_t r;

		if (n + 1 >= cap) { /* room for the NUL the console ends with */
			char *p =
				cap < JAIL_CONSOLE_MAX ? realloc(buf, cap ? cap * 2 : 65536) : NULL;

			if (!p) {
				free(buf);
				*len = (size_t)-1;
				return NULL;
			}
			buf = p;
			cap = cap ? cap * 2 : 65536;
		}
		rc = ms ? poll(&pfd, 1, ms) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			*late = true;
			break;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/*
 * The page is the child's to write, torn if it died mid-write: every string
 * the record reads gets its terminator back.
 */
static void jail_terminate_strings(struct el_run_result *res)
{
	char *const strs[] = {res->detail,       res->regs,         res->exit_reason,
			      res->jail.seccomp, res->jail.cap_eff, res->jail.cap_bnd,
			      res->jail.output};
	const size_t lens[] = {sizeof(res->detail),       sizeof(res->regs),
			       sizeof(res->exit_reason),  sizeof(res->jail.seccomp),
			       sizeof(res->jail.cap_eff), sizeof(res->jail.cap_bnd),
			       sizeof(res->jail.output)};

	for (size_t i = 0; i < EL_ARRAY_SIZE(lens); i++)
		strs[i][lens[i] - 1] = 0;
	if (res->jail.nr_fds > EL_CONFINE_MAX_FDS)
		res->jail.nr_fds = EL_CONFINE_MAX_FDS;
}

/* The child's end, as the record should say it. */
static void jail_verdict(struct el_run_result *res, const struct jail_page *page, int ws, size_t got)
{
	char name[64], why[160];

	if (page->violation.hit) {
		snprintf(why, sizeof(why), "syscall %d = %s", page->violation.nr,
			 confine_syscall_name(page->violation.nr, name, sizeof(name)));
		jail_fail(res,
			  "the VMM was killed by its seccomp filter (%s): the syscall is not "
			  "on the allow-list in vmm/confine_rules.c; add it there if the run loop "
			  "needs it (ENTRYLAB_NO_SECCOMP=1 runs unconfined, for debugging)",
			  why);
	} else if (got == (size_t)-1) {
		snprintf(why, sizeof(why), "%zu", JAIL_CONSOLE_MAX);
		jail_fail(res, "the VMM process sent more than %s bytes of console; it was stopped",
			  why);
	} else if (WIFSIGNALED(ws)) {
		snprintf(why, sizeof(why), "signal %d, SIG%s", WTERMSIG(ws),
			 sigabbrev_np(WTERMSIG(ws)) ? sigabbrev_np(WTERMSIG(ws)) : "?");
		jail_fail(res,
			  "the VMM process died of %s before it finished the run: a bug in "
			  "entrylab; report it with the command line",
			  why);
	} else if (WEXITSTATUS(ws)) {
		snprintf(why, sizeof(why), "%d", WEXITSTATUS(ws));
		jail_fail(res, "the VMM process exited with status %s before it finished the run",
			  why);
	} else if (got != res->console_len) {
		snprintf(why, sizeof(why), "%zu bytes of console, %zu announced", got,
			 res->console_len);
		jail_fail(res, "the VMM process sent a broken result (%s)", why);
	}
}

void el_vm_run(const struct el_run_spec *spec, struct el_run_result *res)
{
	struct jail_page *page;
	int p[2], ws = 0;
	size_t got = 0;
	double deadline = 0;
	bool late = false;
	char *console;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		jail_fail(res, "cannot map the result page for the VMM process: %s",
			  strerror(errno));
		return;
	}
	if (pipe2(p, O_CLOEXEC)) {
		jail_fail(res,
			  "cannot create the result pipe for the VMM process: %s (too many "
			  "open files? see ulimit -n)",
			  strerror(errno));
		munmap(page, sizeof(*page));
		return;
	}
	fflush(NULL);
	hostout_flush();
	if (spec->timeout_s > 0) {
		struct timespec t0;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		deadline = (double)t0.tv_sec + (double)t0.tv_nsec / 1e9 + spec->timeout_s +
			   JAIL_GRACE_S;
	}
	page->parent = getpid();
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		jail_child(spec, page, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		jail_fail(res, "cannot fork the VMM process: %s (see ulimit -u)", strerror(errno));
		close(p[0]);
		munmap(page, sizeof(*page));
		return;
	}
	console = jail_read_console(p[0], deadline, &got, &late);
	if (got == (size_t)-1 || late)
		kill(pid, SIGKILL); /* more console than any run keeps, or past the deadline */
	close(p[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*res = page->res;
	res->console = console;
	jail_terminate_strings(res);
	jail_verdict(res, page, ws, got);
	if (late && !page->violation.hit) {
		res->status = EL_RUN_TIMEOUT;
		snprintf(res->detail, sizeof(res->detail),
			 "the VMM process was still running %g s after --timeout %g s (draining "
			 "output nobody reads?) and was stopped; its console is lost",
			 JAIL_GRACE_S, spec->timeout_s);
		/* the child never said: the parent's own clock, fork to now */
		res->wall_ms = (spec->timeout_s + JAIL_GRACE_S) * 1e3 - jail_ms_left(deadline);
	}
	if (res->console_len != got)
		res->console_len = console ? got : 0;
	munmap(page, sizeof(*page));
}
