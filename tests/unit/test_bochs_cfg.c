/*
 * The Bochs engine's text (harness/bochs/bochs_cfg.c, bochs_models.c): the
 * guest command line as GRUB's multiboot2 words, refusals of what GRUB would
 * rewrite, the bochsrc, and the model table.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "bochs.h"

Test(bochs_cfg, words_single_quoted_guest_quotes_dropped)
{
	char out[512], err[300];

	cr_assert_eq(bochs_grub_cmdline("pti=on  nopcid -- \"-n\" \"a b\"", out, sizeof(out), err,
					sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(out, "'pti=on' 'nopcid' '--' '-n' 'a b'");
}

Test(bochs_cfg, refuses_what_grub_rewrites)
{
	char out[512], err[300];

	cr_assert_eq(bochs_grub_cmdline("-- \"it's\"", out, sizeof(out), err, sizeof(err)), -1);
	cr_assert(strstr(err, "0x27"), "%s", err);
	cr_assert_eq(bochs_grub_cmdline("a\\b", out, sizeof(out), err, sizeof(err)), -1);
	cr_assert_eq(bochs_grub_cmdline("caf\xc3\xa9", out, sizeof(out), err, sizeof(err)), -1);
	cr_assert(strstr(err, "non-ASCII"), "%s", err);
}

Test(bochs_cfg, grub_cfg_has_kernel_and_initrd)
{
	char out[4096], err[300];

	cr_assert_eq(bochs_grub_cfg("pti=on", out, sizeof(out), err, sizeof(err)), 0);
	cr_assert(strstr(out, "\tmultiboot2 /boot/kernel 'pti=on'\n"), "%s", out);
	cr_assert(strstr(out, "\tmodule2 /boot/initrd\n"), "%s", out);
}

Test(bochs_cfg, bochsrc)
{
	char out[4096];
	struct bochs_rc rc = {.model = "ryzen", .megs = 256, .iso = "/d/x.iso", .com1 = "/d/c",
			      .log = "/d/l", .bios = "/b", .vgabios = "/v"};

	cr_assert_eq(bochs_rc_text(&rc, out, sizeof(out)), 0);
	cr_assert(strstr(out, "cpu: model=ryzen,"), "%s", out);
	cr_assert(strstr(out, "memory: guest=256, host=256\n"));
	cr_assert(strstr(out, "com1: enabled=1, mode=file, dev=/d/c\n"));
	cr_assert(strstr(out, "boot: cdrom\n"));
	cr_assert(strstr(out, "panic: action=fatal\n"));
	cr_assert(strstr(out, "clock: sync=none"));
	cr_assert_eq(bochs_rc_text(&rc, out, 64), -1);
}

Test(bochs_cfg, models)
{
	char err[300];
	const struct bochs_model *m = bochs_model_find("corei7_sandy_bridge_2600k");

	cr_assert(m && m->long_mode && m->pcid && !m->invpcid);
	m = bochs_model_find("ryzen");
	cr_assert(m && !m->pcid && !m->invpcid);
	cr_assert_eq(bochs_model_check("corei7_haswell_4770", err, sizeof(err)), 0);
	cr_assert_eq(bochs_model_check("haswell", err, sizeof(err)), -1);
	cr_assert(strstr(err, "not a CPU model of Bochs 2.7"), "%s", err);
	cr_assert_eq(bochs_model_check("pentium", err, sizeof(err)), -1);
	cr_assert(strstr(err, "no long mode"), "%s", err);
}
