/*
 * entrylab's /init for Linux: CFG -> perf_event_attr, perf_event_open's
 * errors and the group's read as el_counter statuses (guest/linux/perf_attr.c).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "array_size.h"
#include "guest/linux/perf_attr.h"

Test(linux_init_perf, cfg_to_raw_attr)
{
	struct perf_event_attr a;

	/* cycles:k (Intel 0x3c), edge, inv, cmask 2. */
	cr_assert_eq(linit_perf_attr(EL_EVSEL_OS | EL_EVSEL_EDGE | EL_EVSEL_INV | 0x0200003cull,
				     &a), 0);
	cr_expect_eq(a.type, PERF_TYPE_RAW);
	cr_expect_eq(a.size, sizeof(a));
	cr_expect_eq(a.config, EL_EVSEL_EDGE | EL_EVSEL_INV | 0x0200003cull,
		     "config 0x%llx: USR and OS are not part of it", (unsigned long long)a.config);
	cr_expect_eq(a.exclude_user, 1);
	cr_expect_eq(a.exclude_kernel, 0);
	cr_expect_eq(a.disabled, 1);
	cr_expect_eq(a.inherit, 0);
	cr_expect_eq(a.read_format, LINIT_PERF_READ_FORMAT);

	/* instructions:u with a umask; both. */
	cr_assert_eq(linit_perf_attr(EL_EVSEL_USR | 0x01c0ull, &a), 0);
	cr_expect_eq(a.config, 0x01c0ull);
	cr_expect_eq(a.exclude_user, 0);
	cr_expect_eq(a.exclude_kernel, 1);
	cr_assert_eq(linit_perf_attr(EL_EVSEL_USR | EL_EVSEL_OS | 0x00c0ull, &a), 0);
	cr_expect_eq(a.exclude_user, 0);
	cr_expect_eq(a.exclude_kernel, 0);

	/* AMD: event select [11:8] in config[35:32], as x86's raw format has it. */
	cr_assert_eq(linit_perf_attr(EL_EVSEL_OS | 0x1000000c1ull, &a), 0);
	cr_expect_eq(a.config, 0x1000000c1ull);
}

Test(linux_init_perf, no_encoding_opens_nothing)
{
	struct perf_event_attr a;

	cr_expect_eq(linit_perf_attr(EL_EVENT_NONE, &a), -1);
	cr_expect_eq(linit_perf_attr(0x3cull, &a), -1, "neither USR nor OS is EL_EVENT_NONE");
}

Test(linux_init_perf, errnos)
{
	cr_expect_eq(linit_perf_errno_status(ENOENT), EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(linit_perf_errno_status(EOPNOTSUPP), EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(linit_perf_errno_status(ENODEV), EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(linit_perf_errno_status(EINVAL), EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(linit_perf_errno_status(EACCES), -1);
	cr_expect_eq(linit_perf_errno_status(EMFILE), -1);
}

/* Counters 0 and 2 in the group (members 0, 1); counter 1 not supported. */
static void setup(struct el_counter *c, int *member)
{
	memset(c, 0, 3 * sizeof(*c));
	c[1].status = EL_COUNTER_NOT_SUPPORTED;
	member[0] = 0;
	member[1] = -1;
	member[2] = 1;
}

Test(linux_init_perf, read_counted)
{
	uint64_t buf[] = {2, 1000, 1000, 111, 222};
	struct el_counter c[3];
	int member[3];

	setup(c, member);
	linit_perf_read_statuses(buf, sizeof(buf), 2, member, c, 3);
	cr_expect_eq(c[0].status, EL_COUNTER_COUNTED);
	cr_expect_eq(c[0].value, 111);
	cr_expect_eq(c[1].status, EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(c[2].status, EL_COUNTER_COUNTED);
	cr_expect_eq(c[2].value, 222);
}

Test(linux_init_perf, multiplexed_never_enabled_or_short_is_not_counted)
{
	static const struct {
		uint64_t buf[5];
		size_t len;
		const char *what;
	} bad[] = {
		{{2, 1000, 999, 111, 222}, 40, "multiplexed"},
		{{2, 0, 0, 0, 0}, 40, "never enabled"},
		{{2, 1000, 1000, 111, 222}, 32, "short read"},
		{{3, 1000, 1000, 111, 222}, 40, "another number of members"},
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		struct el_counter c[3];
		int member[3];

		setup(c, member);
		linit_perf_read_statuses(bad[i].buf, bad[i].len, 2, member, c, 3);
		cr_expect_eq(c[0].status, EL_COUNTER_NOT_COUNTED, "%s", bad[i].what);
		cr_expect_eq(c[2].status, EL_COUNTER_NOT_COUNTED, "%s", bad[i].what);
		cr_expect_eq(c[1].status, EL_COUNTER_NOT_SUPPORTED, "%s", bad[i].what);
	}
}

Test(linux_init_perf, whole_program_attr_is_inherited_and_enabled_by_exec)
{
	struct perf_event_attr a, g;

	cr_assert_eq(linit_perf_attr_whole(EL_EVSEL_USR | EL_EVSEL_OS | 0x00c0ull, &a), 0);
	cr_assert_eq(linit_perf_attr(EL_EVSEL_USR | EL_EVSEL_OS | 0x00c0ull, &g), 0);
	cr_expect_eq(a.type, PERF_TYPE_RAW);
	cr_expect_eq(a.config, g.config);
	cr_expect_eq(a.inherit, 1, "children count");
	cr_expect_eq(a.enable_on_exec, 1, "from the program's execve on");
	cr_expect_eq(a.disabled, 1, "until then, nothing");
	cr_expect_eq(a.read_format, LINIT_PERF_READ_FORMAT_ONE);
	cr_expect_eq(a.read_format & PERF_FORMAT_GROUP, 0, "inherited counters are read alone");
	cr_expect_eq(a.exclude_user, 0);
	cr_expect_eq(a.exclude_kernel, 0);
	cr_assert_eq(linit_perf_attr_whole(EL_EVSEL_OS | 0x3cull, &a), 0);
	cr_expect_eq(a.exclude_user, 1);
	cr_expect_eq(linit_perf_attr_whole(EL_EVENT_NONE, &a), -1);
}

Test(linux_init_perf, whole_program_read_one)
{
	static const struct {
		uint64_t buf[3];
		size_t len;
		uint32_t status;
		uint64_t value;
	} cases[] = {
		{{12345, 1000, 1000}, 24, EL_COUNTER_COUNTED, 12345},
		{{0, 1000, 1000}, 24, EL_COUNTER_COUNTED, 0},   /* ran, counted nothing */
		{{12345, 1000, 999}, 24, EL_COUNTER_NOT_COUNTED, 0}, /* multiplexed */
		{{0, 0, 0}, 24, EL_COUNTER_NOT_COUNTED, 0},     /* never enabled: no execve */
		{{12345, 1000, 1000}, 16, EL_COUNTER_NOT_COUNTED, 0}, /* short read */
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		struct el_counter c = {.config = 0x100c0, .status = EL_COUNTER_NOT_COUNTED,
				       .value = 77};

		linit_perf_read_status_one(cases[i].buf, cases[i].len, &c);
		cr_expect_eq(c.status, cases[i].status, "case %zu", i);
		cr_expect_eq(c.value, cases[i].value, "case %zu", i);
		cr_expect_eq(c.config, 0x100c0, "case %zu", i);
	}
}

Test(linux_init_perf, whole_program_page_faults_attr)
{
	struct perf_event_attr a;

	linit_perf_attr_faults_whole(&a);
	cr_expect_eq(a.type, PERF_TYPE_SOFTWARE);
	cr_expect_eq(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	cr_expect_eq(a.size, sizeof(a));
	cr_expect_eq(a.inherit, 1);
	cr_expect_eq(a.enable_on_exec, 1);
	cr_expect_eq(a.disabled, 1);
	cr_expect_eq(a.exclude_user | a.exclude_kernel, 0, "faults taken in either mode");
	cr_expect_eq(a.read_format, LINIT_PERF_READ_FORMAT_ONE);
}
