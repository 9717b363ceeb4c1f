/*
 * The host helpers every library shares (common/host_io.c) and the programs
 * object (vmm/program.c): what they accept, what they refuse and say (no KVM).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "program.h"
#include "qemu_spawn.h"
#include "status.h"

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/el-hostio-XXXXXX");
	cr_assert(mkdtemp(dir));
}

Test(host_io, append_and_read_back, .init = mkdir_tmp)
{
	char path[128], err[256];
	size_t len;
	char *text;
	int fd;

	snprintf(path, sizeof(path), "%s/r.jsonl", dir);
	fd = io_append_open(path, err, sizeof(err));
	cr_assert_geq(fd, 0, "%s", err);
	cr_expect_eq(io_append_atomic(fd, "{\"a\":1}\n", 8, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(io_append_atomic(fd, "{\"b\":2}\n", 8, err, sizeof(err)), 0, "%s", err);
	close(fd);
	text = io_read_file(path, 1 << 20, &len, err, sizeof(err));
	cr_assert(text, "%s", err);
	cr_expect_eq(len, 16);
	cr_expect_str_eq(text, "{\"a\":1}\n{\"b\":2}\n");
	free(text);
	cr_expect_null(io_read_file(path, 10, &len, err, sizeof(err)), "over the size cap");
	cr_expect(strstr(err, "more than"), "%s", err);
	unlink(path);
	rmdir(dir);
}

Test(host_io, refusals_name_the_fix)
{
	char err[256];
	size_t len;

	cr_expect_lt(io_append_open("/tmp", err, sizeof(err)), 0);
	cr_expect(strstr(err, "/tmp") && strstr(err, "-o"), "%s", err);
	cr_expect_lt(io_append_open("/nonexistent-dir/x", err, sizeof(err)), 0);
	cr_expect(strstr(err, "choose a writable -o FILE"), "%s", err);
	cr_expect_null(io_read_file("/tmp", 1 << 20, &len, err, sizeof(err)));
	cr_expect(strstr(err, "not a regular file"), "%s", err);
	cr_expect_eq(io_write_new_file("/nonexistent-dir/y", "x", 1, err, sizeof(err)), -1);
}

Test(host_io, read_fd_to_eof)
{
	int p[2];
	size_t len;
	char *text;

	cr_assert_eq(pipe(p), 0);
	cr_assert(io_write_all(p[1], "hello, ", 7));
	cr_assert(io_write_all(p[1], "world", 5));
	close(p[1]);
	text = io_read_fd(p[0], &len);
	close(p[0]);
	cr_assert(text);
	cr_expect_eq(len, 12);
	cr_expect_str_eq(text, "hello, world");
	free(text);
}

Test(qemu_spawn, path_search_before_fork)
{
	char exe[256], err[256];
	bool not_found;
	pid_t pid;

	cr_expect(qemu_find_exe("sh", exe, sizeof(exe)), "sh is in PATH");
	cr_expect(strchr(exe, '/'), "%s", exe);
	cr_expect(!qemu_find_exe("no-such-qemu-binary", exe, sizeof(exe)));
	cr_expect_eq(qemu_spawn((const char *const[]){"no-such-qemu-binary", NULL}, NULL, 0, &pid,
				&not_found, err, sizeof(err)), -1);
	cr_expect(not_found, "a missing executable is told apart");
	cr_expect(strstr(err, "not found"), "%s", err);
}

Test(programs, benchmark_defaults_and_iterations)
{
	struct el_programs p;
	char err[512];
	struct el_program_choice c = {.bench = "getpid", .iterations = 123};

	cr_assert_eq(programs_prepare(&p, &c, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.iterations, 123);
	cr_expect_str_eq(p.argv[p.bench->iter_arg], "123", "-n replaces the iteration argument");
	cr_expect_null(p.argv[p.argc]);
	cr_expect(p.kernel && p.kernel_len, "the embedded kernel");
	cr_expect(p.initrd.len > p.image_len, "the program is in the initrd");
	programs_free(&p);
}

Test(programs, refusals)
{
	struct el_programs p;
	char err[512];

	cr_expect_eq(programs_prepare(&p, &(struct el_program_choice){.bench = "warp"}, err,
				      sizeof(err)), EL_EXIT_USAGE);
	cr_expect(strstr(err, "unknown benchmark 'warp'") && strstr(err, "entrylab list benches"),
		  "%s", err);
	programs_free(&p);
	cr_expect_eq(programs_prepare(&p, &(struct el_program_choice){.exec = "/nonexistent"}, err,
				      sizeof(err)), EL_EXIT_USAGE);
	cr_expect(strstr(err, "cannot read /nonexistent"), "%s", err);
	programs_free(&p);
	cr_expect_eq(programs_prepare(&p, &(struct el_program_choice){.iterations = 5}, err,
				      sizeof(err)), EL_EXIT_USAGE, "-n without a benchmark");
	programs_free(&p);
	cr_expect_eq(programs_prepare(&p, &(struct el_program_choice){.kernel = "/nonexistent"},
				      err, sizeof(err)), EL_EXIT_USAGE);
	cr_expect(strstr(err, "--kernel"), "%s", err);
	programs_free(&p);
}
