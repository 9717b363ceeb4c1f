/*
 * The newc writer: headers, padding, names, parents, errors, and a round
 * trip through GNU cpio, the reference reader.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "cpio.h"

struct entry {
	char name[256];
	unsigned int mode, nlink, size;
	const unsigned char *data;
};

static unsigned int hex8(const unsigned char *p)
{
	char tmp[9];

	memcpy(tmp, p, 8);
	tmp[8] = 0;
	return (unsigned int)strtoul(tmp, NULL, 16);
}

/* Reads entry i (0-based) back; returns the number of entries before TRAILER!!!. */
static size_t parse(const struct el_cpio *c, struct entry *out, size_t max)
{
	size_t off = 0, n = 0;

	for (;;) {
		const unsigned char *h = c->buf + off;
		unsigned int namesize, size;
		struct entry e;

		cr_assert_leq(off + 110, c->len, "header past the end at %zu", off);
		cr_assert(!memcmp(h, "070701", 6), "bad magic at %zu", off);
		cr_assert_eq(off % 4, 0);
		namesize = hex8(h + 6 + 11 * 8);
		size = hex8(h + 6 + 6 * 8);
		cr_assert_eq(hex8(h + 6 + 12 * 8), 0, "check field must be 0");
		cr_assert_eq(h[110 + namesize - 1], 0, "name not NUL-terminated");
		snprintf(e.name, sizeof(e.name), "%s", (const char *)h + 110);
		e.mode = hex8(h + 6 + 8);
		e.nlink = hex8(h + 6 + 4 * 8);
		e.size = size;
		off += (110 + namesize + 3) & ~3u;
		e.data = c->buf + off;
		off += (size + 3) & ~3u;
		cr_assert_leq(off, c->len);
		if (!strcmp(e.name, "TRAILER!!!")) {
			cr_assert_eq(off, c->len, "bytes after the trailer");
			return n;
		}
		if (n < max)
			out[n] = e;
		n++;
	}
}

Test(cpio, empty_archive_is_just_the_trailer)
{
	struct el_cpio c;
	struct entry e[1];

	el_cpio_init(&c);
	cr_assert_eq(el_cpio_finish(&c), 0);
	cr_assert_eq(parse(&c, e, 1), 0);
	cr_assert_eq(c.len % 4, 0);
	el_cpio_free(&c);
}

Test(cpio, files_dirs_symlinks_padded_and_named)
{
	struct el_cpio c;
	struct entry e[8];

	el_cpio_init(&c);
	cr_assert_eq(el_cpio_add_dir(&c, "/nested", 0755), 0);
	cr_assert_eq(el_cpio_add_file(&c, "/nested/cmd", 0644, "abcde", 5), 0);
	cr_assert_eq(el_cpio_add_file(&c, "empty", 0600, NULL, 0), 0);
	cr_assert_eq(el_cpio_add_symlink(&c, "bin/sh", "busybox"), 0);
	cr_assert_eq(el_cpio_finish(&c), 0, "%s", c.error);
	cr_assert_eq(parse(&c, e, 8), 4);
	cr_expect_str_eq(e[0].name, "nested");
	cr_expect_eq(e[0].mode, S_IFDIR | 0755);
	cr_expect_eq(e[0].nlink, 2);
	cr_expect_str_eq(e[1].name, "nested/cmd");
	cr_expect_eq(e[1].mode, S_IFREG | 0644);
	cr_expect_eq(e[1].size, 5);
	cr_expect(!memcmp(e[1].data, "abcde", 5));
	cr_expect_eq(e[2].size, 0);
	cr_expect_eq(e[2].mode, S_IFREG | 0600);
	cr_expect_eq(e[3].mode, S_IFLNK | 0777);
	cr_expect(!memcmp(e[3].data, "busybox", 7));
	el_cpio_free(&c);
}

Test(cpio, parents_go_in_once)
{
	struct el_cpio c;
	struct entry e[8];

	el_cpio_init(&c);
	cr_assert_eq(el_cpio_add_parents(&c, "/work/main/a.out"), 0);
	cr_assert_eq(el_cpio_add_parents(&c, "work/main/b.out"), 0);
	cr_assert_eq(el_cpio_add_dir(&c, "work/main", 0755), 0);
	cr_assert_eq(el_cpio_add_parents(&c, "top"), 0);
	cr_assert_eq(el_cpio_finish(&c), 0);
	cr_assert_eq(parse(&c, e, 8), 2);
	cr_expect_str_eq(e[0].name, "work");
	cr_expect_str_eq(e[1].name, "work/main");
	el_cpio_free(&c);
}

Test(cpio, bad_names_refused_and_the_error_sticks)
{
	const char *bad[] = { "", "/", "a/../b", "./a", "a//b", "a/.", ".." };

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		struct el_cpio c;

		el_cpio_init(&c);
		cr_expect_eq(el_cpio_add_file(&c, bad[i], 0644, "x", 1), -1, "'%s' accepted",
			     bad[i]);
		cr_expect_neq(c.error[0], 0);
		cr_expect_eq(el_cpio_finish(&c), -1, "finish after an error must fail");
		el_cpio_free(&c);
	}
}

Test(cpio, host_file_read_and_missing_file_named)
{
	char path[] = "/tmp/test_cpio.XXXXXX";
	struct el_cpio c;
	struct entry e[2];
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "hello\n", 6), 6);
	close(fd);
	el_cpio_init(&c);
	cr_assert_eq(el_cpio_add_host_file(&c, "x/hello", 0755, path), 0, "%s", c.error);
	cr_assert_eq(el_cpio_finish(&c), 0);
	cr_assert_eq(parse(&c, e, 2), 1);
	cr_expect_eq(e[0].mode, S_IFREG | 0755);
	cr_expect(!memcmp(e[0].data, "hello\n", 6));
	el_cpio_free(&c);
	unlink(path);

	el_cpio_init(&c);
	cr_expect_eq(el_cpio_add_host_file(&c, "y", 0644, "/nonexistent/file"), -1);
	cr_expect(strstr(c.error, "/nonexistent/file"), "error does not name the file: %s",
		  c.error);
	el_cpio_free(&c);
}

Test(cpio, gnu_cpio_reads_it_back)
{
	char path[] = "/tmp/test_cpio_rt.XXXXXX", cmd[256], line[256], listing[1024] = "";
	struct el_cpio c;
	FILE *p;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	el_cpio_init(&c);
	el_cpio_add_parents(&c, "a/b/c.txt");
	el_cpio_add_file(&c, "a/b/c.txt", 0644, "odd length!", 11);
	el_cpio_add_symlink(&c, "a/link", "b/c.txt");
	cr_assert_eq(el_cpio_finish(&c), 0, "%s", c.error);
	cr_assert_eq(write(fd, c.buf, c.len), (ssize_t)c.len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cpio -it --quiet < %s 2>&1", path);
	p = popen(cmd, "r");
	cr_assert(p);
	while (fgets(line, sizeof(line), p))
		strncat(listing, line, sizeof(listing) - strlen(listing) - 1);
	cr_expect_eq(pclose(p), 0, "cpio -it failed: %s", listing);
	cr_expect_str_eq(listing, "a\na/b\na/b/c.txt\na/link\n");
	el_cpio_free(&c);
	unlink(path);
}
