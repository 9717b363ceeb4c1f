/*
 * One run of the nested runner's VM: QEMU TCG with four ISA serial ports,
 * each a pipe back to us (QEMU opens /dev/fd/N of the write end it
 * inherited), its own output on a fifth pipe, the initramfs on an inherited
 * memfd.  Pumps the pipes until QEMU is gone, and kills it at the boot or
 * the overall deadline so nothing hangs forever, or at once when the caller's
 * stop flag is raised (SIGINT/SIGTERM).
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

#include "nested_priv.h"
#include "qemu_spawn.h"

/* Where the child finds its serial ports and the initrd. */
enum { FD_SERIAL0 = 3, FD_INITRD = FD_SERIAL0 + 4 };

double nested_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int build_argv(const struct nested_vm *vm, char *argv[], size_t max, char serial[4][24],
		      char *initrd)
{
	size_t n = 0;
	const char *fixed[] = { "-nodefaults", "-no-user-config", "-display", "none",
				"-machine", "q35", "-accel", "tcg", "-cpu", "max",
				"-smp", "1", "-no-reboot" };

	argv[n++] = (char *)vm->qemu;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		argv[n++] = (char *)fixed[i];
	argv[n++] = "-m";
	argv[n++] = (char *)vm->memory;
	argv[n++] = "-kernel";
	argv[n++] = (char *)vm->kernel;
	snprintf(initrd, 24, "/dev/fd/%d", FD_INITRD);
	argv[n++] = "-initrd";
	argv[n++] = initrd;
	if (vm->bios) {
		argv[n++] = "-bios";
		argv[n++] = (char *)vm->bios;
	}
	argv[n++] = "-append";
	argv[n++] = (char *)vm->append;
	for (int i = 0; i < 4; i++) {
		snprintf(serial[i], 24, "file:/dev/fd/%d", FD_SERIAL0 + i);
		argv[n++] = "-serial";
		argv[n++] = serial[i];
	}
	argv[n] = NULL;
	return n < max ? 0 : -1;
}

static void pump(const struct nested_vm *vm, int rfds[NESTED_NR_CHAN], pid_t pid, double start,
		 struct nested_outcome *out)
{
	static char buf[65536];
	bool killed = false;

	for (;;) {
		struct pollfd pfd[NESTED_NR_CHAN];
		double t = nested_now_s(), deadline = start + vm->total_timeout_s;
		int open_fds = 0, timeout_ms, rc;

		if (out->boot_s < 0 && start + vm->boot_timeout_s < deadline)
			deadline = start + vm->boot_timeout_s;
		if (!killed && vm->stopping && vm->stopping(vm->ctx)) {
			/* Interrupted, or records cannot be kept: what came back stays; QEMU goes. */
			out->end = NESTED_END_STOPPED;
			kill(pid, SIGKILL);
			killed = true;
		}
		if (!killed && t >= deadline) {
			out->end = out->boot_s < 0 ? NESTED_END_BOOT_TIMEOUT : NESTED_END_TIMEOUT;
			kill(pid, SIGKILL);
			killed = true;
		}
		for (int ch = 0; ch < NESTED_NR_CHAN; ch++) {
			pfd[ch].fd = rfds[ch];
			pfd[ch].events = POLLIN;
			open_fds += rfds[ch] >= 0;
		}
		if (!open_fds)
			return;
		timeout_ms = killed ? 1000 : (int)((deadline - t) * 1000) + 1;
		/* A stop request that came just before poll() is seen within 250 ms. */
		if (vm->stopping && timeout_ms > 250)
			timeout_ms = 250;
		rc = poll(pfd, NESTED_NR_CHAN, timeout_ms);
		if (rc < 0 && errno != EINTR)
			return;
		if (rc == 0 && killed)
			return; /* QEMU is gone; nothing more will come */
		for (int ch = 0; rc > 0 && ch < NESTED_NR_CHAN; ch++) {
			ssize_t n;

			if (rfds[ch] < 0 || !pfd[ch].revents)
				continue;
			n = read(rfds[ch], buf, sizeof(buf));
			if (n > 0) {
				vm->chunk(vm->ctx, (enum nested_chan)ch, buf, (size_t)n);
				if (ch == NESTED_RESULTS && out->boot_s < 0 &&
				    vm->is_ready(vm->ctx))
					out->boot_s = nested_now_s() - start;
			} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				close(rfds[ch]);
				rfds[ch] = -1;
			}
		}
	}
}

void nested_qemu_run(const struct nested_vm *vm, struct nested_outcome *out)
{
	int rfds[NESTED_NR_CHAN], wfds[NESTED_NR_CHAN];
	struct qemu_fd_map map[NESTED_NR_CHAN + 2];
	char serial[4][24], initrd[24], *argv[48];
	unsigned nmap = 0;
	bool not_found;
	double start;
	pid_t pid;
	int rc;

	memset(out, 0, sizeof(*out));
	out->end = NESTED_END_SPAWN_FAILED;
	out->boot_s = -1;
	if (build_argv(vm, argv, sizeof(argv) / sizeof(argv[0]), serial, initrd))
		return;
	for (int ch = 0; ch < NESTED_NR_CHAN; ch++) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0) {
			snprintf(out->detail, sizeof(out->detail), "pipe: %s", strerror(errno));
			for (int k = 0; k < ch; k++) {
				close(rfds[k]);
				close(wfds[k]);
			}
			return;
		}
		rfds[ch] = p[0];
		wfds[ch] = p[1];
	}
	/* The serial ports at FD_SERIAL0.., QEMU's own output on 1 and 2, the initrd. */
	for (int ch = 0; ch < NESTED_DIAG; ch++)
		map[nmap++] = (struct qemu_fd_map){wfds[ch], FD_SERIAL0 + ch};
	map[nmap++] = (struct qemu_fd_map){wfds[NESTED_DIAG], 1};
	map[nmap++] = (struct qemu_fd_map){wfds[NESTED_DIAG], 2};
	map[nmap++] = (struct qemu_fd_map){vm->initrd_fd, FD_INITRD};
	start = nested_now_s();
	rc = qemu_spawn((const char *const *)argv, map, nmap, &pid, &not_found, out->detail,
			sizeof(out->detail));
	for (int ch = 0; ch < NESTED_NR_CHAN; ch++)
		close(wfds[ch]);
	if (!rc) {
		out->end = NESTED_END_EXITED;
		pump(vm, rfds, pid, start, out);
		while (waitpid(pid, &out->wait_status, 0) < 0 && errno == EINTR)
			;
		out->wall_s = nested_now_s() - start;
		/* Ctrl-C reaches QEMU too (same process group): it ended because we stop. */
		if (vm->stopping && vm->stopping(vm->ctx))
			out->end = NESTED_END_STOPPED;
	}
	for (int ch = 0; ch < NESTED_NR_CHAN; ch++)
		if (rfds[ch] >= 0)
			close(rfds[ch]);
}
