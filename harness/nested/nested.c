/*
 * The nested runner (nested.h): no usable /dev/kvm here, so the same
 * entrylab command runs inside a small Linux VM that has one.
 *
 * How it is put together:
 * - The VM: qemu-system-x86_64 -machine q35 -accel tcg -cpu max (TCG emulates
 *   SVM, so Debian's kvm_amd loads and /dev/kvm works inside), one vCPU,
 *   2 GiB (ENTRYLAB_NESTED_MEMORY).  The kernel is Debian's linux-image,
 *   fetched by harness/nested/fetch-kernel.sh, which unpacks vmlinux from
 *   it because booting the ELF through its PVH note skips the bzImage
 *   decompressor (more than a second per boot under TCG); qboot, when
 *   installed, instead of SeaBIOS saves another ~0.2 s.
 * - The initramfs: base.cpio (busybox-static, the KVM and virtio modules,
 *   harness/nested/init; uncompressed: gunzip under TCG costs ~0.25 s) and
 *   a second archive holding this very binary as /nested/entrylab (it must
 *   be static), in a memfd.  init loads the modules and execs
 *   `/nested/entrylab __nested-agent` (nested_agent.c) as PID 1.
 * - Host and agent talk over three virtio-serial ports, each a Unix socket
 *   of QEMU's on the host (nested_wire.h): requests and control frames,
 *   and the inner command's stdout and stderr, which flow with
 *   backpressure, as through a pipe.
 * - Warm (the default): the VM stays up between commands, one per slot,
 *   found by a key of what it was built from (nested_runner.c); a command
 *   costs its own run plus a connect.  Cold (--no-warm, or
 *   ENTRYLAB_NESTED_WARM=0): a VM for this command alone, powered off
 *   after it.  Either way each command runs as a fresh process in a fresh
 *   root (nested_agent.c), and its record says which path it took and what
 *   the set-up cost (host.nested: record/record_nested.h).
 * - The inner command is argv unchanged, with ENTRYLAB_NESTED_INNER=1
 *   (nested_is_inner(): records say host.kvm "nested", no recursion) and
 *   ENTRYLAB_NESTED_OUTPUT naming the file it appends records to, whatever
 *   -o said; the agent ships that file while the command runs and the host
 *   appends whole, valid lines only (nested_records.c).
 * - Deadlines: boot (QEMU start to the agent's first answer)
 *   ENTRYLAB_NESTED_BOOT_TIMEOUT, default 120 s; the whole command
 *   ENTRYLAB_NESTED_TIMEOUT, default --repeat x (--timeout + 60 s), an hour
 *   without a timeout (README.md).
 * - Files: ENTRYLAB_NESTED_DIR, else the build's nested/ directory (compiled
 *   in as EL_NESTED_DIR): base.cpio and kernel.  ENTRYLAB_QEMU names
 *   another QEMU binary.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_elf.h"
#include "host_io.h"
#include "nested.h"
#include "nested_priv.h"
#include "qemu_spawn.h"
#include "status.h"

#ifndef EL_NESTED_DIR
#define EL_NESTED_DIR NULL
#endif

bool nested_is_inner(void)
{
	const char *v = getenv(NESTED_ENV_INNER);

	return v && !strcmp(v, "1");
}

const char *nested_inner_output(void)
{
	return nested_is_inner() ? getenv(NESTED_ENV_OUTPUT) : NULL;
}

/* The inner binary runs without a loader: refuse a dynamic one up front. */
static bool self_is_static(void)
{
	char err[256];
	size_t len;
	char *image = io_read_file("/proc/self/exe", 256u << 20, &len, err, sizeof(err));
	Elf *e = image ? host_elf_open(image, len, NULL, 0) : NULL;
	bool ok = e && !host_elf_has_interp(e);

	if (e)
		elf_end(e);
	free(image);
	return ok;
}

/* base.cpio, zeros to a 4-byte boundary (where the unpacker looks), then ours. */
int nested_initrd_memfd(const char *base, const void *cpio, size_t len)
{
	static const char zeros[4];
	char buf[65536];
	ssize_t n;
	off_t total = 0;
	int in, fd = memfd_create("entrylab-nested-initrd", MFD_CLOEXEC);

	in = open(base, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || in < 0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (!io_write_all(fd, buf, (size_t)n))
			goto fail;
		total += n;
	}
	if (n < 0 || !io_write_all(fd, zeros, (size_t)((4 - total % 4) % 4)) ||
	    !io_write_all(fd, cpio, len))
		goto fail;
	close(in);
	return fd;
fail:
	fprintf(stderr, "entrylab: nested runner: building the initramfs from %s failed: %s\n",
		base, strerror(errno));
	if (in >= 0)
		close(in);
	if (fd >= 0)
		close(fd);
	return -1;
}

void nested_ready_get(struct nested_ready *r)
{
	const char *qemu = getenv("ENTRYLAB_QEMU"), *dir = getenv("ENTRYLAB_NESTED_DIR");
	const char *built = EL_NESTED_DIR;

	memset(r, 0, sizeof(*r));
	snprintf(r->qemu, sizeof(r->qemu), "%s", qemu && *qemu ? qemu : "qemu-system-x86_64");
	if (!qemu_find_exe(r->qemu, r->qemu_path, sizeof(r->qemu_path)))
		r->qemu_path[0] = '\0';
	if (!(dir && *dir))
		dir = built;
	if (!dir) {
		snprintf(r->why, sizeof(r->why), "this build has no nested runner files; configure "
			 "with -DENTRYLAB_NESTED=ON and build, or set ENTRYLAB_NESTED_DIR");
		return;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	snprintf(r->base, sizeof(r->base), "%s/base.cpio", r->dir);
	snprintf(r->kernel, sizeof(r->kernel), "%s/kernel", r->dir);
	if (access(r->base, R_OK) || access(r->kernel, R_OK)) {
		snprintf(r->why, sizeof(r->why), "%s is missing (%s); run harness/nested/"
			 "fetch-kernel.sh build/nested/cache, then cmake --build build (the "
			 "README's set-up does both), or point ENTRYLAB_NESTED_DIR at a directory "
			 "holding base.cpio and kernel", access(r->base, R_OK) ? r->base : r->kernel,
			 strerror(errno));
		return;
	}
	r->files = true;
}

int nested_run(const struct nested_request *r)
{
	static struct nested_ready ready; /* 17 KiB of paths: off the stack */
	const char *mem = getenv("ENTRYLAB_NESTED_MEMORY"), *warm = getenv("ENTRYLAB_NESTED_WARM");
	struct nested_runner_opts o = {.ready = &ready, .verbose = r->verbose, .stop = r->stop};
	struct nested_runner rn;
	bool broken, retry;
	int rc;

	if (nested_is_inner()) {
		fprintf(stderr, "entrylab: nested runner: /dev/kvm is not usable inside the nested "
				"VM either (%s); check the VM's log with -v\n",
			r->why ? r->why : "no reason given");
		return EL_EXIT_VMM;
	}
	fprintf(stderr, "entrylab: nested runner (%s): running this command in a QEMU TCG VM "
			"with nested SVM. Timings there are not meaningful; PCID and the PMU are "
			"unavailable under TCG.\n",
		r->why ? r->why : "no reason given");
	nested_ready_get(&ready);
	if (!ready.files) {
		fprintf(stderr, "entrylab: nested runner: %s\n", ready.why);
		return EL_EXIT_VMM;
	}
	if (!self_is_static()) {
		fprintf(stderr, "entrylab: nested runner: this entrylab is dynamically linked and "
				"cannot run inside the VM; rebuild with -DENTRYLAB_STATIC=ON\n");
		return EL_EXIT_VMM;
	}
	o.memory = mem && *mem ? mem : "2G";
	o.warm = !r->cold && !(warm && !strcmp(warm, "0"));
	o.boot_timeout_s = nested_env_seconds("ENTRYLAB_NESTED_BOOT_TIMEOUT", 120);
	for (int attempt = 0;; attempt++) {
		rc = nested_runner_get(&rn, &o);
		if (rc)
			return rc;
		rc = nested_session(r, &rn, &broken, &retry);
		nested_runner_put(&rn, broken);
		/* A runner that hung before it took the command: once more, on a new one. */
		if (!retry || attempt)
			return rc;
	}
}
