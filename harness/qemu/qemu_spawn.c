/*
 * Starting QEMU (qemu_spawn.h): PATH resolved before fork, descriptors moved
 * above any target first so no mapping clobbers another, PDEATHSIG, and the
 * exec's errno back through a close-on-exec pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qemu_spawn.h"

/* Above every descriptor a mapping may target. */
#define FD_HIGH 32

bool qemu_find_exe(const char *name, char *out, size_t cap)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return snprintf(out, cap, "%s", name) < (int)cap && access(out, X_OK) == 0;
	for (const char *p = path && *path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (n && snprintf(out, cap, "%.*s/%s", (int)n, p, name) < (int)cap &&
		    access(out, X_OK) == 0)
			return true;
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

/* In the child: only async-signal-safe calls. */
static void child_exec(const char *exe, const char *const argv[], const struct qemu_fd_map *fds,
		       unsigned nfds, unsigned flags, int err_fd)
{
	int hi[QEMU_SPAWN_MAX_FDS], nul, e;
	bool stdin_mapped = false;

	if (flags & QEMU_SPAWN_DETACH)
		setsid();
	else
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	err_fd = fcntl(err_fd, F_DUPFD_CLOEXEC, FD_HIGH);
	for (unsigned i = 0; i < nfds; i++) {
		hi[i] = fcntl(fds[i].from, F_DUPFD_CLOEXEC, FD_HIGH);
		if (hi[i] < 0)
			goto fail;
		stdin_mapped |= fds[i].to == 0;
	}
	nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (err_fd < 0 || nul < 0 || (!stdin_mapped && dup2(nul, 0) < 0))
		goto fail;
	for (unsigned i = 0; i < nfds; i++)
		if (dup2(hi[i], fds[i].to) < 0)
			goto fail;
	/* Inherited descriptors of our caller's (a test harness's pipes) stay out of QEMU. */
	for (int fd = 3; fd < FD_HIGH; fd++) {
		bool mapped = false;

		for (unsigned i = 0; i < nfds; i++)
			mapped |= fds[i].to == fd;
		if (!mapped)
			close(fd);
	}
	close_range(FD_HIGH, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(exe, (char *const *)argv);
fail:
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

int qemu_spawn(const char *const argv[], const struct qemu_fd_map *fds, unsigned nfds,
	       pid_t *pid, bool *not_found, char *err, size_t errlen)
{
	return qemu_spawn_ex(argv, fds, nfds, 0, pid, not_found, err, errlen);
}

int qemu_spawn_ex(const char *const argv[], const struct qemu_fd_map *fds, unsigned nfds,
		  unsigned flags, pid_t *pid, bool *not_found, char *err, size_t errlen)
{
	char exe[PATH_MAX];
	int errp[2], e = 0;
	ssize_t n;

	*not_found = false;
	if (nfds > QEMU_SPAWN_MAX_FDS) {
		snprintf(err, errlen, "cannot run %s: too many descriptors to pass", argv[0]);
		return -1;
	}
	if (!qemu_find_exe(argv[0], exe, sizeof(exe))) {
		*not_found = true;
		snprintf(err, errlen, "cannot run %s: not found or not executable", argv[0]);
		return -1;
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot run %s: pipe: %s", exe, strerror(errno));
		return -1;
	}
	fflush(NULL);
	*pid = fork();
	if (*pid == 0)
		child_exec(exe, argv, fds, nfds, flags, errp[1]);
	e = errno;
	close(errp[1]);
	if (*pid < 0) {
		close(errp[0]);
		snprintf(err, errlen, "cannot run %s: fork: %s", exe, strerror(e));
		return -1;
	}
	/* EOF: execv succeeded and closed our CLOEXEC copy; an int: it failed. */
	do
		n = read(errp[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(errp[0]);
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
		*not_found = e == ENOENT || e == EACCES;
		snprintf(err, errlen, "cannot run %s: %s", exe, strerror(e));
		return -1;
	}
	return 0;
}
