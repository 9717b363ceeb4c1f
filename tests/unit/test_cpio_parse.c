/*
 * The guest kernel's initrd reader (guest-kernel/fs/cpio_parse.c): archives
 * built here entry by entry, broken in each way the reader must catch, and
 * one made by GNU cpio.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-kernel/fs/cpio_parse.h"

static uint8_t ar[65536];
static size_t ar_len;

static void pad4(void)
{
	while (ar_len % 4)
		ar[ar_len++] = 0;
}

/* Appends an entry; namesize_delta skews the name size field for the error cases. */
static void add(const char *name, unsigned mode, const char *data, int namesize_delta)
{
	size_t nlen = strlen(name) + 1, dlen = data ? strlen(data) : 0;
	char hdr[CPIO_HEADER_SIZE + 1];

	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", 7u, mode, 0u,
		 0u, 1u, 1700000000u, (unsigned)dlen, 0u, 1u, 0u, 0u,
		 (unsigned)((int)nlen + namesize_delta), 0u);
	memcpy(ar + ar_len, hdr, CPIO_HEADER_SIZE);
	ar_len += CPIO_HEADER_SIZE;
	memcpy(ar + ar_len, name, nlen);
	ar_len += nlen;
	pad4();
	if (dlen)
		memcpy(ar + ar_len, data, dlen);
	ar_len += dlen;
	pad4();
}

static void build_good(void)
{
	ar_len = 0;
	add(".", 040755, NULL, 0);
	add("bin", 040755, NULL, 0);
	add("bin/hello", 0100755, "hello, world\n", 0);
	add("init", 0100755, "#!x", 0);
	add("TRAILER!!!", 0, NULL, 0);
}

Test(cpio_parse, good_archive)
{
	struct cpio_entry e;
	size_t off = 0;

	build_good();
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
	cr_assert_str_eq(e.name, ".");
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
	cr_assert_str_eq(e.name, "bin");
	cr_assert_eq(e.mode, 040755);
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
	cr_assert_str_eq(e.name, "bin/hello");
	cr_assert_eq(e.namelen, 9);
	cr_assert_eq(e.size, 13);
	cr_assert(!memcmp(e.data, "hello, world\n", 13));
	cr_assert_eq(e.mtime, 1700000000u);
	cr_assert_eq(e.ino, 7);
	cr_assert_eq(off % 4, 0, "entries stay 4-byte aligned");
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
	cr_assert_str_eq(e.name, "init");
	cr_assert_eq(e.size, 3, "data not a multiple of 4");
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_END);
	cr_assert_eq(off, ar_len);
	cr_assert_eq(cpio_skip_padding(ar, ar_len, &off), 0);
}

Test(cpio_parse, truncated_everywhere)
{
	struct cpio_entry e;
	size_t cut, off;
	enum cpio_status st;

	build_good();
	/* Every cut inside an entry's header, name or data is caught. */
	for (cut = 1; cut < ar_len; cut++) {
		off = 0;
		while ((st = cpio_next(ar, cut, &off, &e)) == CPIO_OK)
			;
		cr_assert(st == CPIO_ERR_TRUNCATED || st == CPIO_END,
			  "cut at %zu gives %s", cut, cpio_strerror(st));
		cr_assert(st != CPIO_END || cut >= ar_len - 3, "END although cut at %zu", cut);
	}
}

Test(cpio_parse, bad_magic_and_hex)
{
	struct cpio_entry e;
	size_t off = 0;

	build_good();
	ar[5] = '7'; /* 070707: the old binary-ish odc format */
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_MAGIC);
	build_good();
	ar[0] = 'x';
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_MAGIC);
	build_good();
	ar[6 + 8 * 6 + 3] = 'g'; /* file size field */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_HEX);
	build_good();
	ar[5] = '2'; /* the crc variant reads the same */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
}

Test(cpio_parse, name_errors)
{
	struct cpio_entry e;
	size_t off;

	ar_len = 0;
	add("init", 0100755, "x", -1); /* name size one short: no NUL at its end */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_NAME);
	ar_len = 0;
	add("init", 0100755, "x", -5); /* name size 0 */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_NAME);
	ar_len = 0;
	add("init", 0100755, "x", CPIO_NAME_MAX); /* over PATH_MAX */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_NAME);
	ar_len = 0;
	add("init", 0100755, "x", 4000); /* within PATH_MAX but past the buffer */
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_TRUNCATED);
	/* An embedded NUL before the end of the name. */
	ar_len = 0;
	add("init", 0100755, "x", 0);
	ar[CPIO_HEADER_SIZE + 1] = '\0';
	off = 0;
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_ERR_NAME);
}

Test(cpio_parse, concatenated_archives)
{
	struct cpio_entry e;
	size_t off = 0;

	build_good();
	memset(ar + ar_len, 0, 512);
	ar_len += 512;
	add("second", 0100644, "2", 0);
	add("TRAILER!!!", 0, NULL, 0);
	while (cpio_next(ar, ar_len, &off, &e) == CPIO_OK)
		;
	cr_assert_eq(cpio_skip_padding(ar, ar_len, &off), 1);
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_OK);
	cr_assert_str_eq(e.name, "second");
	cr_assert_eq(cpio_next(ar, ar_len, &off, &e), CPIO_END);
}

Test(cpio_parse, every_status_has_a_message)
{
	for (int s = CPIO_OK; s <= CPIO_ERR_NAME; s++)
		cr_assert(strcmp(cpio_strerror(s), "unknown error"));
	cr_assert_str_eq(cpio_strerror(99), "unknown error");
}

/* GNU cpio is the reference writer (it is installed wherever the initrd is packed). */
Test(cpio_parse, gnu_cpio_archive)
{
	char dir[] = "/tmp/el_cpio_XXXXXX", cmd[512];
	struct cpio_entry e;
	size_t off = 0;
	FILE *p;
	int found = 0, n = 0;
	enum cpio_status st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p d && printf abc > d/f && printf 0123456 > g && "
		 "ln -s d/f l && find . | cpio -o -H newc 2>/dev/null",
		 dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	ar_len = fread(ar, 1, sizeof(ar), p);
	if (pclose(p) != 0 || ar_len == 0)
		cr_skip_test("GNU cpio is not installed");
	while ((st = cpio_next(ar, ar_len, &off, &e)) == CPIO_OK) {
		n++;
		if (!strcmp(e.name, "d/f"))
			found += e.size == 3 && !memcmp(e.data, "abc", 3);
		if (!strcmp(e.name, "g"))
			found += e.size == 7 && !memcmp(e.data, "0123456", 7);
		if (!strcmp(e.name, "l"))
			found += (e.mode & 0170000) == 0120000 && e.size == 3;
	}
	cr_assert_eq(st, CPIO_END, "%s", cpio_strerror(st));
	cr_assert_eq(found, 3, "file, file and symlink read back (%d entries)", n);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}
