/*
 * A helper process of the Bochs engine (grub-mkrescue, bochs): started by
 * qemu_spawn() (PATH resolved before fork, stdin /dev/null, PDEATHSIG),
 * its stdout and stderr into a file, waited for with a deadline (a pidfd
 * polled), killed when it passes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bochs_priv.h"
#include "qemu_spawn.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Waits for pid until deadline (monotonic seconds); false when it passed. */
static bool wait_deadline(pid_t pid, double deadline)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	bool done = false;

	if (pfd < 0) { /* no pidfd (Linux < 5.3): poll the child every 50 ms */
		while (now_s() < deadline) {
			siginfo_t si = {0};

			/* WNOWAIT: the caller's waitpid reaps it */
			if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
				if (errno != EINTR)
					return true;
			} else if (si.si_pid == pid) {
				return true;
			}
			usleep(50000);
		}
		return false;
	}
	while (!done) {
		double left = deadline - now_s();
		struct pollfd p = {.fd = pfd, .events = POLLIN};
		int rc;

		if (left <= 0)
			break;
		rc = poll(&p, 1, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
		if (rc > 0)
			done = true;
		else if (rc < 0 && errno != EINTR)
			break;
	}
	close(pfd);
	return done;
}

int bochs_exec(const char *const argv[], const char *out_path, double timeout_s,
	       struct bochs_exec_result *r)
{
	int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct qemu_fd_map fds[2] = {{fd, 1}, {fd, 2}};
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (fd < 0) {
		snprintf(r->err, sizeof(r->err), "cannot create %s: %s", out_path, strerror(errno));
		return -1;
	}
	if (qemu_spawn(argv, fds, 2, &pid, &r->not_found, r->err, sizeof(r->err))) {
		close(fd);
		return -1;
	}
	close(fd);
	if (!wait_deadline(pid, now_s() + timeout_s)) {
		r->timed_out = true;
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &r->wait_status, 0) < 0 && errno == EINTR)
		;
	return 0;
}
