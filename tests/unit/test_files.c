/*
 * --file HOSTPATH[=GUESTPATH] (vmm/files.h): the two paths as parsed and
 * refused, a tree packed with its modes and links (read back with the guest
 * kernel's own cpio parser), and the bounds, all without KVM.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "el_limits.h"
#include "files.h"
#include "guest-kernel/fs/cpio_parse.h"

static void parse_ok(const char *arg, const char *host, const char *guest)
{
	struct el_file f;
	char err[400] = "";

	cr_expect_eq(files_parse(arg, &f, err, sizeof(err)), 0, "%s: %s", arg, err);
	cr_expect_str_eq(f.host, host, "%s", arg);
	cr_expect_str_eq(f.guest, guest, "%s", arg);
}

static void parse_bad(const char *arg, const char *says)
{
	struct el_file f;
	char err[400] = "";

	cr_expect_eq(files_parse(arg, &f, err, sizeof(err)), -1, "%s accepted", arg);
	cr_expect(strstr(err, says), "%s: message '%s' must say '%s'", arg, err, says);
}

Test(files, parse_defaults_to_the_basename_under_root)
{
	parse_ok("build/guest/envshow", "build/guest/envshow", "/envshow");
	parse_ok("tool", "tool", "/tool");
	parse_ok("some/dir/", "some/dir", "/dir");
	parse_ok("a/b=/usr/bin/b", "a/b", "/usr/bin/b");
	parse_ok("a=/b=c", "a", "/b=c"); /* split at the first '=' */
	parse_ok("x=/initrd", "x", "/initrd");
	parse_ok("x=//bin//y/", "x", "/bin/y");
}

Test(files, parse_refuses_bad_guest_paths)
{
	parse_bad("x=bin/x", "not absolute");
	parse_bad("x=", "not absolute");
	parse_bad("x=/a/../etc", "'..'");
	parse_bad("x=/a/./b", "'.'");
	parse_bad("x=/..", "'..'");
	parse_bad("x=/", "root");
	parse_bad("x=/init", "/init");
	parse_bad("x=//init/", "/init");
	parse_bad("x=/init/sub", "/init");
	parse_bad("=/x", "no host file");
	parse_bad("/", "root"); /* its basename is empty: / itself */
}

Test(files, parse_refuses_overlong_paths)
{
	char arg[EL_FILE_PATH_MAX * 2 + 8];

	memset(arg, 'a', EL_FILE_PATH_MAX);
	arg[EL_FILE_PATH_MAX] = '\0';
	parse_bad(arg, "HOSTPATH");
	snprintf(arg, sizeof(arg), "x=/");
	memset(arg + 3, 'b', EL_FILE_PATH_MAX);
	arg[3 + EL_FILE_PATH_MAX] = '\0';
	parse_bad(arg, "GUESTPATH longer");
}

static char dir[] = "/tmp/el-files-XXXXXX";

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	cr_assert_geq(fd, 0, "%s", p);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	cr_assert_eq(chmod(p, mode), 0);
}

static const struct cpio_entry *find(struct cpio_entry *es, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(es[i].name, name))
			return &es[i];
	return NULL;
}

static size_t read_back(const struct el_cpio *c, struct cpio_entry *es, size_t max)
{
	size_t off = 0, n = 0;
	struct cpio_entry e;

	while (cpio_next(c->buf, c->len, &off, &e) == CPIO_OK)
		if (n < max)
			es[n++] = e;
	return n;
}

Test(files, a_tree_keeps_modes_links_and_order)
{
	char p[512], q[512], err[400] = "";
	struct el_file f[2];
	struct cpio_entry es[32];
	const struct cpio_entry *e;
	struct el_cpio c;
	size_t n;

	cr_assert(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/tree", dir);
	cr_assert_eq(mkdir(p, 0750), 0);
	snprintf(p, sizeof(p), "%s/tree/sub", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	put("tree/run", "#!/bin/sh\n", 0755);
	put("tree/sub/data", "12345", 0600);
	snprintf(p, sizeof(p), "%s/tree/link", dir);
	cr_assert_eq(symlink("sub/data", p), 0);
	put("one", "x", 0644);

	snprintf(p, sizeof(p), "%s/tree=/opt/t", dir);
	cr_assert_eq(files_parse(p, &f[0], err, sizeof(err)), 0, "%s", err);
	snprintf(q, sizeof(q), "%s/one", dir);
	cr_assert_eq(files_parse(q, &f[1], err, sizeof(err)), 0, "%s", err);
	el_cpio_init(&c);
	cr_assert_eq(files_pack(&c, f, 2, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(el_cpio_finish(&c), 0);
	n = read_back(&c, es, 32);
	cr_expect_eq(n, 7, "opt, opt/t, its link, run, sub, sub/data, one: %zu", n);
	cr_assert((e = find(es, n, "opt")) && e->mode == (S_IFDIR | 0755), "parent 0755");
	cr_assert((e = find(es, n, "opt/t")) && e->mode == (S_IFDIR | 0750), "dir mode kept");
	cr_assert((e = find(es, n, "opt/t/run")) && e->mode == (S_IFREG | 0755) && e->size == 10,
		  "executable bit kept");
	cr_assert((e = find(es, n, "opt/t/sub/data")) && e->mode == (S_IFREG | 0600) &&
		  !memcmp(e->data, "12345", 5));
	cr_assert((e = find(es, n, "opt/t/link")) && S_ISLNK(e->mode) && e->size == 8 &&
		  !memcmp(e->data, "sub/data", 8), "a symlink stays a symlink");
	cr_assert((e = find(es, n, "one")) && e->mode == (S_IFREG | 0644));
	cr_expect_eq(f[0].bytes, 10 + 5 + 8, "the tree's bytes: %llu",
		     (unsigned long long)f[0].bytes);
	cr_expect_eq(f[0].entries, 5);
	cr_expect_eq(f[1].bytes, 1);
	/* name order: link before run before sub */
	cr_expect(find(es, n, "opt/t/link") < find(es, n, "opt/t/run") &&
		  find(es, n, "opt/t/run") < find(es, n, "opt/t/sub"));
	el_cpio_free(&c);
}

static int pack_one(const char *arg, const char *reserved, char *err, size_t errlen)
{
	struct el_file f;
	struct el_cpio c;
	int rc;

	cr_assert_eq(files_parse(arg, &f, err, errlen), 0, "%s", err);
	el_cpio_init(&c);
	rc = files_pack(&c, &f, 1, reserved, err, errlen);
	el_cpio_free(&c);
	return rc;
}

Test(files, bounds_and_bad_files_refused)
{
	char p[512], err[400] = "";
	struct el_file f[EL_FILES_MAX + 1];
	struct el_cpio c;
	int fd;

	cr_assert(mkdtemp(dir));
	/* bytes: a sparse file past the total, refused before it is read */
	snprintf(p, sizeof(p), "%s/big", dir);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	cr_assert(fd >= 0 && ftruncate(fd, (off_t)EL_FILES_BYTES_MAX + 1) == 0);
	close(fd);
	cr_expect_eq(pack_one(p, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "MiB in all"), "%s", err);
	/* entries: one directory of more than EL_FILES_ENTRIES_MAX files */
	snprintf(p, sizeof(p), "%s/many", dir);
	cr_assert_eq(mkdir(p, 0755), 0);
	for (unsigned i = 0; i < EL_FILES_ENTRIES_MAX; i++) {
		char q[600];

		snprintf(q, sizeof(q), "%s/%u", p, i);
		fd = open(q, O_WRONLY | O_CREAT, 0644);
		cr_assert_geq(fd, 0);
		close(fd);
	}
	cr_expect_eq(pack_one(p, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "files and directories in all"), "%s", err);
	/* a missing file, a fifo, the Linux /init's reserved tree */
	snprintf(p, sizeof(p), "%s/none", dir);
	cr_expect_eq(pack_one(p, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "cannot read"), "%s", err);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	cr_assert_eq(mkfifo(p, 0644), 0);
	cr_expect_eq(pack_one(p, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "fifo"), "%s", err);
	snprintf(p, sizeof(p), "%s/big=/entrylab/x", dir);
	cr_expect_eq(pack_one(p, "/entrylab", err, sizeof(err)), -1);
	cr_expect(strstr(err, "collides with /entrylab"), "%s", err);
	/* overlapping GUESTPATHs, and too many options */
	for (unsigned i = 0; i <= EL_FILES_MAX; i++) {
		snprintf(p, sizeof(p), "%s/big=/f%u", dir, i);
		cr_assert_eq(files_parse(p, &f[i], err, sizeof(err)), 0);
	}
	snprintf(f[1].guest, sizeof(f[1].guest), "/f0/under");
	el_cpio_init(&c);
	cr_expect_eq(files_pack(&c, f, 2, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "overlap"), "%s", err);
	cr_expect_eq(files_pack(&c, f, EL_FILES_MAX + 1, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "more than"), "%s", err);
	cr_expect_eq(c.len, 0, "nothing packed when refused");
	el_cpio_free(&c);
}
