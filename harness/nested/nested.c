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
 *   decompressor, which under TCG costs more than a second per boot; qboot
 *   (when installed) instead of SeaBIOS saves another ~0.2 s.  Measured on
 *   a 2-core EPYC host: QEMU start to /dev/kvm ready in 2.2-2.6 s.
 * - The initramfs is two newc archives back to back (the kernel unpacks
 *   both): base.cpio (uncompressed: gunzip under TCG costs ~0.25 s), made
 *   by harness/nested/nested.cmake (busybox-static, the modules,
 *   harness/nested/init), and a per-command archive built here
 *   in memory: /nested/entrylab (this very binary, /proc/self/exe; it must be
 *   static), /nested/cmd (argv as a shell fragment) and the host's cwd and
 *   the files the command names (nested_run's files) at their host paths, so
 *   relative paths in argv mean the same thing inside.  The whole initramfs
 *   goes to QEMU as a memfd: no temporary files to clean up.
 * - The inner command is argv unchanged, run with ENTRYLAB_NESTED_INNER=1
 *   (nested_is_inner(): records say host.kvm "nested", no recursion) and
 *   ENTRYLAB_NESTED_OUTPUT naming the file it must append records to
 *   (nested_inner_output()), whatever -o said.
 * - Four serial ports, each a pipe back to this process: ttyS0 the kernel
 *   console and init's log (shown with -v or on failure), ttyS1 and ttyS2 the
 *   inner stdout and stderr (forwarded as they come), ttyS3 the results
 *   (nested_priv.h: "ELN1 ready|records N|fail|exit" lines).  init ships the
 *   records file while the command runs, so a VM that dies keeps every
 *   completed record; the host appends whole, valid lines only.
 * - Deadlines: boot (QEMU start to "ready") ENTRYLAB_NESTED_BOOT_TIMEOUT,
 *   default 120 s; whole run, output forwarding included,
 *   ENTRYLAB_NESTED_TIMEOUT, default the boot allowance plus --repeat x
 *   (--timeout + 60 s), an hour without a timeout (README.md).
 *   QEMU is killed at either, and dies with us (PR_SET_PDEATHSIG).
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

#include "cpio.h"
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

/*
 * Tests only: ENTRYLAB_TEST_INNER_CRASH (a signal name, letters only) is
 * exported to the inner entrylab by the command script.  Frees script.
 */
static char *cmd_with_test_crash(char *script)
{
	const char *v = getenv(NESTED_ENV_TEST_CRASH);
	char *out;

	if (!v || !*v || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(v) || strlen(v) > 8)
		return script;
	if (asprintf(&out, "%sexport %s=%s\n", script, NESTED_ENV_TEST_CRASH, v) < 0)
		out = NULL;
	free(script);
	return out;
}

static int build_command(struct el_cpio *c, int argc, char **argv, const char *const *files)
{
	char cwd[4096], path[8192], *script;
	struct stat st;

	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	el_cpio_add_dir(c, "nested", 0755);
	el_cpio_add_host_file(c, "nested/entrylab", 0755, "/proc/self/exe");
	script = nested_cmd_script(argc, argv, cwd);
	if (!script) {
		snprintf(c->error, sizeof(c->error), "out of memory");
		return -1;
	}
	script = cmd_with_test_crash(script);
	if (!script) {
		snprintf(c->error, sizeof(c->error), "out of memory");
		return -1;
	}
	el_cpio_add_file(c, "nested/cmd", 0644, script, strlen(script));
	free(script);
	if (strcmp(cwd, "/")) {
		el_cpio_add_parents(c, cwd);
		el_cpio_add_dir(c, cwd, 0755);
	}
	for (size_t i = 0; files && files[i]; i++) {
		if (!nested_path_join(cwd, files[i], path, sizeof(path)) || !strcmp(path, "/")) {
			snprintf(c->error, sizeof(c->error), "%s: path too long or not a file",
				 files[i]);
			return -1;
		}
		el_cpio_add_parents(c, path);
		el_cpio_add_host_file(c, path, stat(files[i], &st) ? 0644 : st.st_mode & 0777,
				      files[i]);
	}
	return el_cpio_finish(c);
}

/* base.cpio, zeros to a 4-byte boundary (where the unpacker looks), then ours. */
static int initrd_memfd(const char *base, const struct el_cpio *c)
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
	    !io_write_all(fd, c->buf, c->len))
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
	struct el_cpio c;
	int fd, rc;

	if (nested_is_inner()) {
		fprintf(stderr, "entrylab: nested runner: /dev/kvm is not usable inside the nested "
				"VM either (%s); check the VM's console with -v\n",
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
	el_cpio_init(&c);
	if (build_command(&c, r->argc, r->argv, r->files)) {
		fprintf(stderr, "entrylab: nested runner: %s\n", c.error);
		el_cpio_free(&c);
		return EL_EXIT_VMM;
	}
	fd = initrd_memfd(ready.base, &c);
	el_cpio_free(&c);
	if (fd < 0)
		return EL_EXIT_VMM;
	rc = nested_session(r, fd, &ready);
	close(fd);
	return rc;
}
