/*
 * Command-line number/size parsing and option validation (no KVM).
 */
#include <criterion/criterion.h>

#include "cli.h"
#include "parse_num.h"
#include "status.h"

Test(cli, sizes)
{
	uint64_t v;

	cr_assert_eq(el_parse_size("256M", &v), 0);
	cr_expect_eq(v, 256ull << 20);
	cr_assert_eq(el_parse_size("1G", &v), 0);
	cr_expect_eq(v, 1ull << 30);
	cr_assert_eq(el_parse_size("2GiB", &v), 0);
	cr_expect_eq(v, 2ull << 30);
	cr_assert_eq(el_parse_size("4096", &v), 0);
	cr_expect_eq(v, 4096);
	cr_expect_eq(el_parse_size("12Q", &v), -1);
	cr_expect_eq(el_parse_size("", &v), -1);
	cr_expect_eq(el_parse_size("-1M", &v), -1);
	cr_expect_eq(el_parse_size("M", &v), -1);
	cr_expect_eq(el_parse_size("99999999999999999999", &v), -1);
	cr_expect_eq(el_parse_size("17179869184G", &v), -1, "overflow must be refused");
}

Test(cli, integers)
{
	uint64_t v;

	cr_expect_eq(el_parse_u64("10", 1, 100, &v), 0);
	cr_expect_eq(v, 10);
	cr_expect_eq(el_parse_u64("0", 1, 100, &v), -1);
	cr_expect_eq(el_parse_u64("101", 1, 100, &v), -1);
	cr_expect_eq(el_parse_u64("1x", 1, 100, &v), -1);
	cr_expect_eq(el_parse_u64(" 1", 1, 100, &v), -1);
}

static int parse(struct el_cli_run *cli, const char *const *args)
{
	static char *argv[32]; /* cli->req.args points into it after we return */
	int argc = 0;

	argv[argc++] = "run";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return cli_run_parse(argc, argv, cli);
}

Test(cli, run_options)
{
	struct el_cli_run cli;
	const char *const ok[] = {"-c", "host,-pge", "-a", "pti=on nopcid", "-m", "512M", "-r",
				  "3", "--timeout", "7.5", "--pin", "1", "-o", "x.jsonl", NULL};

	cr_assert_eq(parse(&cli, ok), 0);
	cr_expect_str_eq(cli.req.cpu_spec, "host,-pge");
	cr_expect_eq(cli.spec.mem_bytes, 512ull << 20);
	cr_expect_eq(cli.req.repeat, 3);
	cr_expect_eq(cli.spec.timeout_s, 7.5);
	cr_expect_eq(cli.spec.pin_cpu, 1);
	cr_expect_str_eq(cli.spec.append, "pti=on nopcid");
	cr_expect_eq(cli.req.bench, NULL);
}

Test(cli, bench_args_pass_through)
{
	struct el_cli_run cli;
	const char *const args[] = {"-n", "100", "lseek", "-x", "--foo", NULL};

	cr_assert_eq(parse(&cli, args), 0);
	cr_expect_str_eq(cli.req.bench, "lseek");
	cr_assert_eq(cli.req.nargs, 2);
	cr_expect_str_eq(cli.req.args[0], "-x");
	cr_expect_eq(cli.req.iterations, 100);
}

Test(cli, bad_options)
{
	struct el_cli_run cli;
	const char *const bad_repeat[] = {"-r", "0", NULL};
	const char *const bad_timeout[] = {"--timeout", "-3", NULL};
	const char *const bad_mem[] = {"-m", "1K", NULL};
	const char *const bad_knob[] = {"-a", "vsyscall=sometimes", NULL};
	const char *const bad_cpu[] = {"-c", "host,+warp-drive", NULL};
	const char *const both_formats[] = {"--json", "-x", ",", NULL};

	cr_expect_eq(parse(&cli, bad_repeat), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, bad_timeout), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, bad_mem), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, bad_knob), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, bad_cpu), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, both_formats), EL_EXIT_USAGE);
}

Test(cli, exec_args_belong_to_the_program)
{
	struct el_cli_run cli;
	const char *const args[] = {"-v", "--exec", "./prog", "--vsyscall=native", "-n", "3", NULL};

	cr_assert_eq(parse(&cli, args), 0);
	cr_expect_str_eq(cli.req.exec, "./prog");
	cr_expect_eq(cli.req.iterations, 0, "-n after --exec FILE is the program's");
	cr_assert_eq(cli.req.nargs, 3);
	cr_expect_str_eq(cli.req.args[0], "--vsyscall=native");
}

Test(cli, vmm_knobs_are_not_the_users)
{
	cr_expect_eq(request_check_append("el.tsc_khz=1"), 1);
	cr_expect_eq(request_check_append("pti=on el.events=0x3c"), 1);
	cr_expect_eq(request_check_append("pti=on"), 0);
}

/* The benchmarks' argument syntax (guest/lib/bench.c and vmm/bench_iter.c share it). */
Test(parse_num, scaled)
{
	uint64_t v = 7;

	cr_assert_eq(el_parse_scaled("16M", "KMG", 1024, &v), 0);
	cr_assert_eq(v, 16ull << 20);
	cr_assert_eq(el_parse_scaled("1k", "kMG", 1000, &v), 0);
	cr_assert_eq(v, 1000);
	cr_assert_eq(el_parse_scaled("3G", "kMG", 1000, &v), 0);
	cr_assert_eq(v, 3000000000ull);
	cr_assert_eq(el_parse_scaled("42", "kMG", 1000, &v), 0);
	cr_assert_eq(v, 42);
	v = 7;
	cr_assert_eq(el_parse_scaled("16m", "KMG", 1024, &v), -1);
	cr_assert_eq(el_parse_scaled("1MB", "KMG", 1024, &v), -1);
	cr_assert_eq(el_parse_scaled("-1", "kMG", 1000, &v), -1);
	cr_assert_eq(el_parse_scaled("", "kMG", 1000, &v), -1);
	cr_assert_eq(el_parse_scaled("99999999999999999999", "kMG", 1000, &v), -1);
	cr_assert_eq(el_parse_scaled("20000000000G", "KMG", 1024, &v), -1);
	cr_assert_eq(v, 7, "a refused argument leaves the output alone");
}

/* The CLI's memory check is the VMM's (el_limits.h): what passes here, maps there. */
Test(cli, memory_limits_are_the_vmms)
{
	struct el_cli_run cli;
	const char *const unaligned[] = {"-m", "16777217", NULL};
	const char *const over[] = {"-m", "65G", NULL};
	const char *const max[] = {"-m", "64G", NULL};
	const char *const min[] = {"-m", "16M", NULL};

	cr_expect_eq(parse(&cli, unaligned), EL_EXIT_USAGE, "-m 16777217 (16 MiB + 1)");
	cr_expect_eq(parse(&cli, over), EL_EXIT_USAGE);
	cr_expect_eq(parse(&cli, max), 0);
	cr_expect_eq(parse(&cli, min), 0);
}
