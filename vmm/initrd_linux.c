/* The `--guest linux` initrd: linux_init.h's files around entrylab's /init. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/linux_init.h"
#include "initrd_linux.h"

/* argv[0..argc) as NUL-terminated strings back to back (malloc'd). */
static char *argv_blob(char *const argv[], int argc, size_t *len)
{
	size_t n = 0, at = 0;
	char *b;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	b = malloc(n ? n : 1);
	if (!b)
		return NULL;
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]) + 1;

		memcpy(b + at, argv[i], l);
		at += l;
	}
	*len = n;
	return b;
}

int initrd_build_linux(struct el_cpio *c, const unsigned char *init, size_t init_len,
		       const unsigned char *program, size_t program_len, char *const argv[],
		       int argc, const char *conf)
{
	static const char *const dirs[] = {"dev", "proc", "sys", "tmp"};
	size_t argv_len = 0;
	char *blob;

	if (argc < 0 || (argc && !argv)) {
		snprintf(c->error, sizeof(c->error), "initrd: %d program arguments", argc);
		return -1;
	}
	blob = argv_blob(argv, argc, &argv_len);
	if (!blob) {
		snprintf(c->error, sizeof(c->error), "initrd: out of memory for %d arguments",
			 argc);
		return -1;
	}
	for (size_t i = 0; i < EL_ARRAY_SIZE(dirs); i++)
		el_cpio_add_dir(c, dirs[i], 0755);
	el_cpio_add_file(c, "init", 0755, init, init_len);
	el_cpio_add_parents(c, EL_LINUX_PROGRAM);
	if (program) /* none: boot only (linux_init.h) */
		el_cpio_add_file(c, EL_LINUX_PROGRAM, 0755, program, program_len);
	el_cpio_add_file(c, EL_LINUX_ARGV, 0644, blob, argv_len);
	el_cpio_add_file(c, EL_LINUX_CONF, 0644, conf ? conf : "", conf ? strlen(conf) : 0);
	free(blob);
	return el_cpio_finish(c);
}
