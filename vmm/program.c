/*
 * The programs of one boot (program.h): benchmark or --exec binary, its
 * arguments with -n substituted, the initrd around it, the kernel image.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blobs.h"
#include "el_limits.h"
#include "file_check.h"
#include "files.h"
#include "gpa.h"
#include "pvh_load.h"
#include "initrd.h"
#include "initrd_linux.h"
#include "linux_load.h"
#include "program.h"
#include "region_scope.h"
#include "status.h"

#ifndef EL_LINUX_BUILD_KERNEL
#define EL_LINUX_BUILD_KERNEL ((const char *)0)
#endif

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), (code))

/*
 * The program's argv[0], on both guests (el.argv0, /init's argv0=): the
 * bench's name, or --exec FILE's base name, as a shell would show it.  Its
 * path inside the guest (/init, /entrylab/program) is what execve was given
 * and stays /proc/self/exe; the name is what multi-call binaries (busybox)
 * and usage messages read.
 */
static int program_argv0(struct el_programs *p, const struct el_program_choice *c, char *err,
			 size_t errlen)
{
	const char *name = c->exec ? c->exec : c->bench, *slash = strrchr(name, '/');
	char *one[1];
	char why[256];

	snprintf(p->argv0, sizeof(p->argv0), "%s", slash && slash[1] ? slash + 1 : name);
	one[0] = p->argv0;
	if (initrd_quote_args(p->argv0_quoted, sizeof(p->argv0_quoted), one, 1, why, sizeof(why)))
		return ERR(EL_EXIT_USAGE, "--exec %s: the name as argv[0]: %s; rename the file",
			   name, why);
	return 0;
}

/* The program's arguments: the defaults when none are given, -n substituted. */
static int program_args(struct el_programs *p, const struct el_program_choice *c, char *err,
			size_t errlen)
{
	const struct el_bench *b = p->bench;
	int n = 0;

	if (c->nargs == 0 && b) {
		char *save, *tok;

		snprintf(p->default_args, sizeof(p->default_args), "%s", b->default_args);
		for (tok = strtok_r(p->default_args, " ", &save); tok && n < EL_PROGRAM_MAX_ARGS;
		     tok = strtok_r(NULL, " ", &save))
			p->argv[n++] = tok;
	} else {
		if (c->nargs > EL_PROGRAM_MAX_ARGS)
			return ERR(EL_EXIT_USAGE, "more than %d program arguments",
				   EL_PROGRAM_MAX_ARGS);
		for (n = 0; n < c->nargs; n++)
			p->argv[n] = c->args[n];
	}
	if (c->iterations && b) {
		if (b->iter_arg < 0)
			return ERR(EL_EXIT_USAGE, "-n: an iteration of %s is one %s and its arguments "
				   "set how many (SIZE ROUNDS: ROUNDS * SIZE / 4096 faults); give those "
				   "instead of -n, e.g. `entrylab run pagefault 16M 4` (16384 faults)",
				   b->name, b->unit);
		if (b->iter_arg >= n)
			return ERR(EL_EXIT_USAGE, "-n: %s takes its iteration count as argument %d; "
				   "give the arguments before it too (defaults: %s)",
				   b->name, b->iter_arg + 1, b->default_args);
		snprintf(p->iter, sizeof(p->iter), "%llu", (unsigned long long)c->iterations);
		p->argv[b->iter_arg] = p->iter;
	}
	/*
	 * The per-iteration divisor: the count a benchmark will declare to
	 * el_region_begin(), in its unit, for a marked region; -n for a
	 * whole-program region and for --exec (the program is not told: it is
	 * how many iterations the user says it runs); else totals only.
	 */
	if (b)
		bench_iterations(b, p->argv, n, &p->iter_info);
	if (b && p->scope != EL_REGION_SCOPE_WHOLE)
		p->iterations = p->iter_info.iterations;
	else
		p->iterations = c->iterations;
	p->argv[n] = NULL;
	p->argc = n;
	return program_argv0(p, c, err, errlen);
}

/* The program's ELF (the benchmark's, or --exec FILE read and checked) and its region's scope. */
static int program_image(struct el_programs *p, const struct el_program_choice *c, char *err,
			 size_t errlen)
{
	char why[512];
	size_t len;
	int scope;

	if (c->exec) {
		p->exec_owned = file_read_elf(c->exec, EL_EXEC_FILE_MAX, &len, why, sizeof(why));
		if (!p->exec_owned)
			return ERR(EL_EXIT_USAGE, "--exec: %s", why);
		if (exec_check(p->exec_owned, len, why, sizeof(why)))
			return ERR(EL_EXIT_USAGE, "--exec %s: %s", c->exec, why);
		p->image = p->exec_owned;
		p->image_len = len;
	} else {
		p->bench = bench_find(c->bench);
		if (!p->bench)
			return ERR(EL_EXIT_USAGE, "unknown benchmark '%s'; `entrylab list benches` "
				   "lists them, --exec FILE runs your own program", c->bench);
		p->image = p->bench->image;
		p->image_len = p->bench->image_len;
	}
	scope = region_scope_resolve(c->region, p->image, p->image_len, why, sizeof(why));
	if (scope < 0)
		return ERR(EL_EXIT_USAGE, "%s: %s", c->exec ? c->exec : c->bench, why);
	p->scope = (enum el_region_scope)scope;
	return 0;
}

/* --file: the user's files into the initrd, before the program's entries (files.h). */
static int program_files(struct el_programs *p, const struct el_program_choice *c, char *err,
			 size_t errlen)
{
	char why[512];

	if (!c->nr_files)
		return 0;
	if (!c->bench && !c->exec)
		return ERR(EL_EXIT_USAGE, "--file packs files next to a program; give --exec FILE "
			   "or a benchmark too");
	if (files_pack(&p->initrd, c->files, c->nr_files,
		       c->guest == EL_GUEST_LINUX ? "/entrylab" : NULL, why, sizeof(why)))
		return ERR(EL_EXIT_USAGE, "%s", why);
	return 0;
}
/*
 * --kernel FILE: size and headers checked before it is read whole, then
 * everything the loader will demand, against the RAM asked for, so a bad
 * image is the user's input (120) on every command and before any boot.
 */
static int program_kernel(struct el_programs *p, const struct el_program_choice *c, char *err,
			  size_t errlen)
{
	struct pvh_image img;
	struct el_mem mem = {0};
	char why[512];

	p->kernel_owned = file_read_elf(c->kernel, EL_KERNEL_FILE_MAX, &p->kernel_len, why,
					sizeof(why));
	if (!p->kernel_owned)
		return ERR(EL_EXIT_USAGE, "--kernel: %s", why);
	p->kernel = p->kernel_owned;
	el_mem_layout(&mem, NULL, c->mem_bytes ? c->mem_bytes : EL_MEM_MIN);
	if (pvh_parse(p->kernel, p->kernel_len, &mem, &img, why, sizeof(why)))
		return ERR(EL_EXIT_USAGE, "--kernel %s is not a bootable PVH kernel: %s", c->kernel,
			   why);
	return 0;
}

int linux_kernel_default(char *out, size_t outlen, char *err, size_t errlen)
{
	const char *env = getenv(EL_LINUX_KERNEL_ENV), *dir = getenv("ENTRYLAB_NESTED_DIR");
	char path[PATH_MAX], real[PATH_MAX];
	const char *from;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s", env);
		from = "$" EL_LINUX_KERNEL_ENV;
	} else if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/kernel", dir);
		from = "the nested runner's ($ENTRYLAB_NESTED_DIR)";
	} else if (EL_LINUX_BUILD_KERNEL) {
		snprintf(path, sizeof(path), "%s", EL_LINUX_BUILD_KERNEL);
		from = "the nested runner's, this build's";
	} else {
		return ERR(EL_EXIT_UNSUPPORTED, "--guest linux: no --kernel given, and this build "
			   "has no default Linux kernel (configured with -DENTRYLAB_NESTED=OFF); "
			   "give --kernel FILE (a vmlinux or bzImage) or set " EL_LINUX_KERNEL_ENV);
	}
	if (!realpath(path, real))
		return ERR(EL_EXIT_UNSUPPORTED, "--guest linux: no --kernel given, and the default "
			   "Linux kernel (%s) %s: %s; %s, or give --kernel FILE (a vmlinux or "
			   "bzImage)", from, path, strerror(errno), env && *env
			   ? "point " EL_LINUX_KERNEL_ENV " at a kernel file"
			   : "run harness/nested/fetch-kernel.sh build/nested/cache and rebuild "
			     "(harness/bootstrap.sh does both)");
	if (strlen(real) >= outlen)
		return ERR(EL_EXIT_UNSUPPORTED, "--guest linux: the default kernel's path %s is too "
			   "long; give --kernel FILE", real);
	memcpy(out, real, strlen(real) + 1);
	return 0;
}

/* A Linux kernel file mapped read-only: no copy of a 63 MiB vmlinux in the heap. */
static int linux_kernel_map(struct el_programs *p, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return ERR(EL_EXIT_USAGE, "--kernel: cannot read %s: %s; give the path of a "
			   "readable vmlinux or bzImage", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return ERR(EL_EXIT_USAGE, "--kernel: %s is not a regular file; give a vmlinux or "
			   "bzImage", path);
	}
	if ((uint64_t)st.st_size > EL_LINUX_KERNEL_FILE_MAX || st.st_size == 0) {
		close(fd);
		return ERR(EL_EXIT_USAGE, "--kernel %s: %" PRIu64 " bytes: %s", path,
			   (uint64_t)st.st_size, st.st_size ? "more than the limit for a Linux kernel "
			   "file (common/el_limits.h); strip it (objcopy --strip-debug)"
			   : "an empty file is not a kernel");
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return ERR(EL_EXIT_VMM, "--kernel %s: cannot map it: %s", path, strerror(errno));
	p->kernel_map = m;
	p->kernel_map_len = (size_t)st.st_size;
	p->kernel = m;
	p->kernel_len = (size_t)st.st_size;
	return 0;
}

/* /init's conf (linux_init.h): the raw counters, as our kernel's el.events has them, and the scope. */
static int linux_conf(struct el_programs *p, const struct el_program_choice *c, char *err,
		      size_t errlen)
{
	size_t used = 0;
	int n;

	p->linux_conf[0] = '\0';
	for (unsigned i = 0; i < c->nr_events; i++) {
		n = snprintf(p->linux_conf + used, sizeof(p->linux_conf) - used, "%s0x%" PRIx64,
			     i ? "," : "events=", c->events[i]);
		if (n < 0 || (size_t)n >= sizeof(p->linux_conf) - used - 1)
			return ERR(EL_EXIT_USAGE, "-e: too many events for the Linux /init's conf");
		used += (size_t)n;
	}
	if (used)
		memcpy(p->linux_conf + used++, "\n", 2);
	n = snprintf(p->linux_conf + used, sizeof(p->linux_conf) - used, "%s",
		     region_linux_conf(p->scope));
	if (n < 0 || (size_t)n >= sizeof(p->linux_conf) - used)
		return ERR(EL_EXIT_VMM, "the Linux /init's conf has no room for the region's scope");
	used += (size_t)n;
	if (p->argv0[0]) {
		n = snprintf(p->linux_conf + used, sizeof(p->linux_conf) - used, "argv0=%s\n",
			     p->argv0);
		if (n < 0 || (size_t)n >= sizeof(p->linux_conf) - used)
			return ERR(EL_EXIT_VMM, "the Linux /init's conf has no room for argv0");
	}
	return 0;
}

/*
 * --guest linux: the kernel (--kernel or the default) mapped and checked,
 * the program and its arguments into /init's initrd, then the kernel
 * checked again with that initrd against -m.
 */
static int programs_linux(struct el_programs *p, const struct el_program_choice *c, char *err,
			  size_t errlen)
{
	uint64_t mem = c->mem_bytes ? c->mem_bytes : EL_MEM_MIN;
	char why[512];
	int rc;

	/* The record names the file absolutely: two kernels' records must tell apart. */
	if (!c->kernel &&
	    (rc = linux_kernel_default(p->kernel_path, sizeof(p->kernel_path), err, errlen)))
		return rc;
	if (c->kernel && !realpath(c->kernel, p->kernel_path)) /* linux_kernel_map names why */
		snprintf(p->kernel_path, sizeof(p->kernel_path), "%s", c->kernel);
	if ((rc = linux_kernel_map(p, p->kernel_path, err, errlen)))
		return rc;
	if (linux_parse(p->kernel, p->kernel_len, mem, 0, &p->linux_image, why, sizeof(why)))
		return ERR(EL_EXIT_USAGE, "--kernel %s: %s", p->kernel_path, why);
	if (c->bench || c->exec) {
		if ((rc = program_image(p, c, err, errlen)) || (rc = program_args(p, c, err, errlen)))
			return rc;
	} else if (c->iterations) {
		return ERR(EL_EXIT_USAGE, "-n needs a benchmark; `entrylab list benches`");
	}
	if ((rc = linux_conf(p, c, err, errlen)) || (rc = program_files(p, c, err, errlen)))
		return rc;
	if (initrd_build_linux(&p->initrd, entrylab_linux_init,
			       (size_t)(entrylab_linux_init_end - entrylab_linux_init), p->image,
			       p->image_len, p->argv, p->argc, p->linux_conf))
		return ERR(EL_EXIT_VMM, "cannot build the Linux initrd: %s", p->initrd.error);
	if (linux_parse(p->kernel, p->kernel_len, mem, p->initrd.len, &p->linux_image, why,
			sizeof(why)))
		return ERR(EL_EXIT_USAGE, "--kernel %s: %s", p->kernel_path, why);
	return 0;
}

int programs_prepare(struct el_programs *p, const struct el_program_choice *c, char *err,
		     size_t errlen)
{
	char why[512];
	int rc;

	memset(p, 0, sizeof(*p));
	el_cpio_init(&p->initrd);
	if (!c->bench && !c->exec && c->region != EL_REGION_SCOPE_NONE)
		return ERR(EL_EXIT_USAGE, "--region needs a program: name a benchmark or give "
			   "--exec FILE");
	if (c->guest == EL_GUEST_LINUX)
		return programs_linux(p, c, err, errlen);
	if (c->kernel) {
		if ((rc = program_kernel(p, c, err, errlen)))
			return rc;
	} else {
		p->kernel = entrylab_kernel;
		p->kernel_len = (size_t)(entrylab_kernel_end - entrylab_kernel);
	}
	if (!c->bench && !c->exec) {
		if (c->iterations)
			return ERR(EL_EXIT_USAGE, "-n needs a benchmark; `entrylab list benches`");
		return program_files(p, c, err, errlen); /* refuses --file without a program */

	}
	if ((rc = program_image(p, c, err, errlen)) || (rc = program_args(p, c, err, errlen)))
		return rc;
	if (initrd_quote_args(p->args_quoted, sizeof(p->args_quoted), p->argv, p->argc, why,
			      sizeof(why)))
		return ERR(EL_EXIT_USAGE, "%s", why);
	if ((rc = program_files(p, c, err, errlen)))
		return rc;
	if (initrd_build(&p->initrd, p->image, p->image_len))
		return ERR(EL_EXIT_VMM, "cannot build the initrd: %s", p->initrd.error);
	return 0;
}

void programs_spec(const struct el_programs *p, struct el_run_spec *spec)
{
	bool linux_guest = p->kernel_map != NULL;

	spec->kernel = p->kernel;
	spec->kernel_len = p->kernel_len;
	/* A Linux guest always has its /init's initrd; the program's arguments are in it. */
	spec->initrd = p->image || linux_guest ? p->initrd.buf : NULL;
	spec->initrd_len = p->image || linux_guest ? p->initrd.len : 0;
	spec->init_args = p->image && !linux_guest ? p->args_quoted : NULL;
	spec->argv0 = p->image && !linux_guest ? p->argv0_quoted : NULL;
	spec->kernel_file = linux_guest ? p->kernel_path : NULL;
	spec->kernel_format = linux_guest ? linux_kind_names[p->linux_image.kind] : NULL;
	spec->region_scope = p->image ? p->scope : EL_REGION_SCOPE_NONE;
}

void programs_free(struct el_programs *p)
{
	el_cpio_free(&p->initrd);
	free(p->exec_owned);
	free(p->kernel_owned);
	if (p->kernel_map)
		munmap(p->kernel_map, p->kernel_map_len);
	p->kernel_map = NULL;
	p->exec_owned = p->kernel_owned = NULL;
	p->image = p->kernel = NULL;
}
