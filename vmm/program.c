/*
 * The programs of one boot (program.h): benchmark or --exec binary, its
 * arguments with -n substituted, the initrd around it, the kernel image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs.h"
#include "el_limits.h"
#include "file_check.h"
#include "gpa.h"
#include "pvh_load.h"
#include "initrd.h"
#include "program.h"
#include "status.h"

#define ERR(code, ...) (snprintf(err, errlen, __VA_ARGS__), (code))

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
	if (c->iterations) {
		if (!b)
			return ERR(EL_EXIT_USAGE, "-n applies to the built-in benchmarks; pass your "
				   "program's own arguments after --exec FILE");
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
	/* The count the program will declare to el_region_begin(), in its unit. */
	if (b) {
		bench_iterations(b, p->argv, n, &p->iter_info);
		p->iterations = p->iter_info.iterations;
	}
	p->argv[n] = NULL;
	p->argc = n;
	return 0;
}

static int program_image(struct el_programs *p, const struct el_program_choice *c, char *err,
			 size_t errlen)
{
	char why[512];
	size_t len;

	if (c->exec) {
		p->exec_owned = file_read_elf(c->exec, EL_EXEC_FILE_MAX, &len, why, sizeof(why));
		if (!p->exec_owned)
			return ERR(EL_EXIT_USAGE, "--exec: %s", why);
		if (exec_check(p->exec_owned, len, why, sizeof(why)))
			return ERR(EL_EXIT_USAGE, "--exec %s: %s", c->exec, why);
		p->image = p->exec_owned;
		p->image_len = len;
		return 0;
	}
	p->bench = bench_find(c->bench);
	if (!p->bench)
		return ERR(EL_EXIT_USAGE, "unknown benchmark '%s'; `entrylab list benches` lists "
			   "them, --exec FILE runs your own program", c->bench);
	p->image = p->bench->image;
	p->image_len = p->bench->image_len;
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

int programs_prepare(struct el_programs *p, const struct el_program_choice *c, char *err,
		     size_t errlen)
{
	char why[512];
	int rc;

	memset(p, 0, sizeof(*p));
	el_cpio_init(&p->initrd);
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
		return 0;
	}
	if ((rc = program_image(p, c, err, errlen)) || (rc = program_args(p, c, err, errlen)))
		return rc;
	if (initrd_quote_args(p->args_quoted, sizeof(p->args_quoted), p->argv, p->argc, why,
			      sizeof(why)))
		return ERR(EL_EXIT_USAGE, "%s", why);
	if (initrd_build(&p->initrd, p->image, p->image_len))
		return ERR(EL_EXIT_VMM, "cannot build the initrd: %s", p->initrd.error);
	return 0;
}

void programs_spec(const struct el_programs *p, struct el_run_spec *spec)
{
	spec->kernel = p->kernel;
	spec->kernel_len = p->kernel_len;
	spec->initrd = p->image ? p->initrd.buf : NULL;
	spec->initrd_len = p->image ? p->initrd.len : 0;
	spec->init_args = p->image ? p->args_quoted : NULL;
}

void programs_free(struct el_programs *p)
{
	el_cpio_free(&p->initrd);
	free(p->exec_owned);
	free(p->kernel_owned);
	p->exec_owned = p->kernel_owned = NULL;
	p->image = p->kernel = NULL;
}
