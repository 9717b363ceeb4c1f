/*
 * /proc/self/maps lines of the guest kernel (guest-kernel/fs/maps_line.c),
 * against lines as Linux prints them.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/fs/maps_line.h"

static char buf[512];

static void check(const struct maps_line *l, const char *want)
{
	size_t n = maps_line_format(buf, sizeof(buf), l);

	cr_assert_str_eq(buf, want);
	cr_assert_eq(n, strlen(want));
}

Test(maps_line, file_line)
{
	struct maps_line l = {0x400000, 0x401000, MAPS_PROT_R, 0, 0, 0, 1, 11, "/init"};

	check(&l, "00400000-00401000 r--p 00000000 00:01 11"
		  "                                 /init\n");
	cr_assert_eq(strchr(buf, '/') - buf, MAPS_NAME_COLUMN);
}

Test(maps_line, anonymous_keeps_trailing_space)
{
	struct maps_line l = {0x7f576004a000, 0x7f576006c000, MAPS_PROT_R | MAPS_PROT_W};

	check(&l, "7f576004a000-7f576006c000 rw-p 00000000 00:00 0 \n");
}

Test(maps_line, named_areas)
{
	struct maps_line vdso = {0x7ffff7ffd000, 0x7ffff7fff000, MAPS_PROT_R | MAPS_PROT_X};
	struct maps_line vsys = {0xffffffffff600000, 0xffffffffff601000, MAPS_PROT_X};

	vdso.name = "[vdso]";
	vsys.name = "[vsyscall]";
	check(&vdso, "7ffff7ffd000-7ffff7fff000 r-xp 00000000 00:00 0"
		     "                          [vdso]\n");
	check(&vsys, "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0"
		     "                  [vsyscall]\n");
}

Test(maps_line, shared_offset_and_device)
{
	struct maps_line l = {0x10000, 0x12000, MAPS_PROT_R | MAPS_PROT_W | MAPS_PROT_X, 1,
			      0x123000, 0xfe, 0x1ab, 247134, "/usr/bin/cat"};

	check(&l, "00010000-00012000 rwxs 00123000 fe:1ab 247134 "
		  "                           /usr/bin/cat\n");
}

Test(maps_line, long_prefix_gets_one_space)
{
	struct maps_line l = {0xffffffffff600000, 0xffffffffff601000, 0, 0, 0xffffffffffff0000,
			      0xff, 0xff, 18446744073709551615ull, "x"};

	maps_line_format(buf, sizeof(buf), &l);
	/* The prefix ends in a space; seq_pad adds one more (Linux prints two). */
	cr_assert(strstr(buf, "18446744073709551615  x\n"), "%s", buf);
}

Test(maps_line, small_buffer)
{
	struct maps_line l = {0x400000, 0x401000, MAPS_PROT_R, 0, 0, 0, 1, 11, "/init"};
	char small[10];
	size_t n = maps_line_format(small, sizeof(small), &l);

	cr_assert_eq(n, 79, "the full length, as snprintf");
	cr_assert_str_eq(small, "00400000-");
}
