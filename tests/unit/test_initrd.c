/*
 * Packing programs for the guest: which binaries are accepted before boot,
 * how arguments are carried, what the initrd holds (no KVM).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "initrd.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	*len = fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

Test(initrd, embedded_benches_are_accepted)
{
	const struct el_bench *b;
	char err[256];
	unsigned n = 0;

	for (unsigned i = 0; (b = bench_at(i)); i++, n++) {
		cr_expect(b->image_len > 1024, "%s: image of %zu bytes", b->name, b->image_len);
		cr_expect_eq(exec_check(b->image, b->image_len, err, sizeof(err)), 0, "%s: %s",
			     b->name, err);
	}
	cr_expect_geq(n, 10, "benches.def lists the ten benchmarks README.md lists");
	cr_expect(bench_find("pagefault") && bench_find("pagefault")->iter_arg == -1,
		  "pagefault's iterations are faults: no argument for -n to replace");
	cr_expect(bench_find("lseek") && bench_find("lseek")->iter_arg == 0);
	cr_expect_null(bench_find("nosuch"));
}

Test(initrd, dynamic_binary_refused)
{
	size_t len = 0;
	unsigned char *img = slurp("/bin/sh", &len);
	char err[256];

	cr_assert(img, "no /bin/sh to test with");
	cr_expect_eq(exec_check(img, len, err, sizeof(err)), -1);
	cr_expect(strstr(err, "static"), "message must say to link statically: %s", err);
	free(img);
}

Test(initrd, malformed_refused)
{
	const struct el_bench *b = bench_find("getpid");
	unsigned char junk[64] = "#!/bin/sh\necho hi\n";
	char err[256];

	cr_assert(b);
	cr_expect_eq(exec_check(junk, sizeof(junk), err, sizeof(err)), -1);
	cr_expect(strstr(err, "not an ELF"), "%s", err);
	/* Truncated: the headers survive, the segments do not. */
	cr_expect_eq(exec_check(b->image, 200, err, sizeof(err)), -1, "truncated image accepted");
}

Test(initrd, args_quoted)
{
	char out[128], err[128];
	char *ok[] = {"1G", "100", "with space"};
	char *bad[] = {"a\"b"};

	cr_assert_eq(initrd_quote_args(out, sizeof(out), ok, 3, err, sizeof(err)), 0);
	cr_expect_str_eq(out, "\"1G\" \"100\" \"with space\"");
	cr_expect_eq(initrd_quote_args(out, sizeof(out), bad, 1, err, sizeof(err)), -1);
	cr_expect(strstr(err, "quote"), "%s", err);
	cr_expect_eq(initrd_quote_args(out, 8, ok, 3, err, sizeof(err)), -1, "overflow accepted");
}

Test(initrd, archive_holds_init)
{
	struct el_cpio c;
	static const unsigned char prog[] = "\177ELF...";

	el_cpio_init(&c);
	cr_assert_eq(initrd_build(&c, prog, sizeof(prog)), 0, "%s", c.error);
	cr_expect(memmem(c.buf, c.len, "init", 5), "no /init entry");
	cr_expect(memmem(c.buf, c.len, "tmp", 4), "no /tmp directory");
	cr_expect(memmem(c.buf, c.len, "TRAILER!!!", 10), "no trailer");
	el_cpio_free(&c);
}
