/*
 * The user-pointer range rule of the guest kernel (guest-kernel/sys/
 * uaccess_range.h): below TASK_SIZE_MAX, no wrap, top user page excluded.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "guest-kernel/sys/uaccess_range.h"

Test(uaccess_range, inside)
{
	cr_assert(user_range_ok(0x400000, 4096));
	cr_assert(user_range_ok(0, 0));
	cr_assert(user_range_ok(0, TASK_SIZE_MAX));
	cr_assert(user_range_ok(TASK_SIZE_MAX - 1, 1));
	cr_assert(user_range_ok(TASK_SIZE_MAX, 0), "an empty range at the limit");
}

Test(uaccess_range, outside)
{
	cr_assert(!user_range_ok(TASK_SIZE_MAX, 1), "the top user page is not user memory");
	cr_assert(!user_range_ok(TASK_SIZE_MAX - 1, 2));
	cr_assert(!user_range_ok(0x7ffffffff800ull, 0x1000));
	cr_assert(!user_range_ok(0xffff800000000000ull, 8), "kernel half");
	cr_assert(!user_range_ok(0xffffffffff600000ull, 8), "vsyscall page");
	cr_assert(!user_range_ok(0x0000800000000000ull, 1), "non-canonical");
}

Test(uaccess_range, no_wrap)
{
	cr_assert(!user_range_ok(0x1000, UINT64_MAX));
	cr_assert(!user_range_ok(UINT64_MAX, 2));
	cr_assert(!user_range_ok(0x1000, TASK_SIZE_MAX));
	cr_assert(!user_range_ok(0, TASK_SIZE_MAX + 1));
}
