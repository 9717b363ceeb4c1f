/*
 * The programs one boot runs: the guest kernel image, the initrd around the
 * user program (a built-in benchmark or a static binary the user brings) and
 * the program's arguments.  An object the caller owns: `entrylab run`, each
 * matrix boot and each trace have their own, filled by programs_prepare()
 * and released by programs_free(); the spec points into it while it lives.
 */
#ifndef EL_PROGRAM_H
#define EL_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "cpio.h"
#include "files.h"
#include "linux_load.h"
#include "run.h"

#define EL_PROGRAM_MAX_ARGS 62

/* What to run, as the user chose it (the request's fields). */
struct el_program_choice {
	const char *bench;  /* built-in benchmark; NULL with exec NULL: boot only */
	const char *exec;   /* --exec FILE */
	const char *kernel; /* --kernel FILE; NULL: the embedded guest kernel */
	char *const *args;  /* the program's arguments; none: the benchmark's defaults */
	int nargs;
	uint64_t iterations; /* -n: replaces the benchmark's iteration argument, and is the
			      * divisor of a whole-program region (--exec: only that); 0 = none */
	enum el_region_scope region; /* --region; EL_REGION_SCOPE_NONE: from the program's ELF */
	uint64_t mem_bytes;  /* -m: the RAM --kernel must fit in; 0 = EL_MEM_MIN */
	enum el_guest_kind guest;  /* --guest: linux packs the initrd as linux_init.h says */
	const uint64_t *events;    /* Linux: the raw event configs for /init's conf (events=) */
	unsigned nr_events;
	struct el_file *files;     /* --file (files.h), packed next to the program; bytes set */
	unsigned nr_files;
};

/*
 * The Linux kernel a run boots without --kernel: $ENTRYLAB_LINUX_KERNEL,
 * else the nested runner's kernel (Debian's, harness/nested/fetch-kernel.sh):
 * $ENTRYLAB_NESTED_DIR/kernel, else this build's nested/kernel.  The path,
 * made absolute (realpath), in out; 0, or EL_EXIT_UNSUPPORTED with the
 * problem and the fix in err.
 */
#define EL_LINUX_KERNEL_ENV "ENTRYLAB_LINUX_KERNEL"
int linux_kernel_default(char *out, size_t outlen, char *err, size_t errlen);

struct el_programs {
	const struct el_bench *bench;       /* the benchmark, NULL for --exec or boot only */
	const unsigned char *image;         /* the program's ELF (bench or exec), NULL if none */
	size_t image_len;
	const unsigned char *kernel;        /* the guest kernel's ELF */
	size_t kernel_len;
	char *argv[EL_PROGRAM_MAX_ARGS + 2]; /* the program's effective arguments, NULL-ended */
	int argc;
	uint64_t iterations;                /* per-iteration divisor: what the benchmark declares
					       (bench_iterations) for a marked region, -n for a
					       whole one and for --exec; 0 = totals only */
	enum el_region_scope scope;         /* resolved (region_scope.h); NONE for a boot only */
	struct el_bench_iter iter_info;     /* its unit (and pagefault's rounds and size) */
	struct el_cpio initrd;
	char args_quoted[3072];             /* argv for the guest command line */
	char argv0[128];                    /* argv[0]: the bench's name, --exec FILE's base name */
	char argv0_quoted[136];             /* the same, quoted for el.argv0= */
	/* --guest linux */
	struct linux_image linux_image;     /* the kernel file as checked (linux_load.h) */
	char kernel_path[4096];             /* the file that boots: --kernel or the default */
	char linux_release[65];             /* what the file says its release is ("" unknown) */
	char linux_conf[512];               /* /init's conf (linux_init.h) */
	/* owned storage */
	unsigned char *exec_owned, *kernel_owned;
	void *kernel_map;                   /* a Linux kernel file, mapped read-only */
	size_t kernel_map_len;
	char default_args[256];
	char iter[24];
};

/*
 * Everything about the programs, checked before anything boots: the
 * benchmark exists or --exec names a runnable static binary, -n fits the
 * benchmark, the initrd is built, --kernel is read.  With --guest linux the
 * kernel file is mapped, not read, and checked by linux_parse() (kind,
 * 32-bit, truncation, fit in -m with the initrd); the initrd is /init's
 * (linux_init.h).  0, or EL_EXIT_USAGE / EL_EXIT_UNSUPPORTED / EL_EXIT_VMM
 * with the problem and its fix in err.  Call programs_free() either way.
 */
int programs_prepare(struct el_programs *p, const struct el_program_choice *c, char *err,
		     size_t errlen);
/* Points spec's kernel, initrd and init_args at p. */
void programs_spec(const struct el_programs *p, struct el_run_spec *spec);
void programs_free(struct el_programs *p);

#endif
