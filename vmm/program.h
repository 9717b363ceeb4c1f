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
#include "run.h"

#define EL_PROGRAM_MAX_ARGS 62

/* What to run, as the user chose it (the request's fields). */
struct el_program_choice {
	const char *bench;  /* built-in benchmark; NULL with exec NULL: boot only */
	const char *exec;   /* --exec FILE */
	const char *kernel; /* --kernel FILE; NULL: the embedded guest kernel */
	char *const *args;  /* the program's arguments; none: the benchmark's defaults */
	int nargs;
	uint64_t iterations; /* -n: replaces the benchmark's iteration argument; 0 = none */
	uint64_t mem_bytes;  /* -m: the RAM --kernel must fit in; 0 = EL_MEM_MIN */
};

struct el_programs {
	const struct el_bench *bench;       /* the benchmark, NULL for --exec or boot only */
	const unsigned char *image;         /* the program's ELF (bench or exec), NULL if none */
	size_t image_len;
	const unsigned char *kernel;        /* the guest kernel's ELF */
	size_t kernel_len;
	char *argv[EL_PROGRAM_MAX_ARGS + 2]; /* the program's effective arguments, NULL-ended */
	int argc;
	uint64_t iterations;                /* what the benchmark declares (bench_iterations), 0 for --exec */
	struct el_bench_iter iter_info;     /* its unit (and pagefault's rounds and size) */
	struct el_cpio initrd;
	char args_quoted[3072];             /* argv for the guest command line */
	/* owned storage */
	unsigned char *exec_owned, *kernel_owned;
	char default_args[256];
	char iter[24];
};

/*
 * Everything about the programs, checked before anything boots: the
 * benchmark exists or --exec names a runnable static binary, -n fits the
 * benchmark, the initrd is built, --kernel is read.  0, or EL_EXIT_USAGE /
 * EL_EXIT_VMM with the problem and its fix in err.  Call programs_free()
 * either way.
 */
int programs_prepare(struct el_programs *p, const struct el_program_choice *c, char *err,
		     size_t errlen);
/* Points spec's kernel, initrd and init_args at p. */
void programs_spec(const struct el_programs *p, struct el_run_spec *spec);
void programs_free(struct el_programs *p);

#endif
