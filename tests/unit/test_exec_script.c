/*
 * "#!" lines (guest-kernel/proc/exec_script.c) read as Linux's
 * binfmt_script reads them: interpreter, one optional argument with its
 * inner blanks, trailing blanks dropped, a cut interpreter name refused.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/proc/exec_script.h"

static int parse(const char *text, struct exec_script *s)
{
	memset(s, 0x55, sizeof(*s));
	return exec_script_parse((const uint8_t *)text, strlen(text), s);
}

Test(exec_script, interpreter_and_one_argument)
{
	struct exec_script s;

	cr_assert_eq(parse("#!/bin/sh\necho hi\n", &s), 1);
	cr_expect_str_eq(s.interp, "/bin/sh");
	cr_expect_eq(s.has_arg, 0);
	cr_assert_eq(parse("#! \t/bin/busybox  sh -e  \t\nrest", &s), 1);
	cr_expect_str_eq(s.interp, "/bin/busybox");
	cr_expect_str_eq(s.arg, "sh -e", "the rest of the line is one argument, inner blanks kept");
	cr_expect_eq(s.has_arg, 1);
	cr_assert_eq(parse("#!/bin/awk -f", &s), 1, "no newline: the file is the line");
	cr_expect_str_eq(s.arg, "-f");
}

Test(exec_script, not_a_script_or_bad_line)
{
	struct exec_script s;
	char line[EXEC_SCRIPT_LINE_MAX + 40];

	cr_expect_eq(parse("\x7f" "ELF", &s), 0);
	cr_expect_eq(parse("#", &s), 0);
	cr_expect_eq(parse("# !/bin/sh\n", &s), 0);
	cr_expect_eq(parse("#!\n", &s), -1, "no interpreter: ENOEXEC");
	cr_expect_eq(parse("#!  \t \n/bin/sh\n", &s), -1);
	/* a name past what Linux reads is refused; a cut argument is kept as cut */
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "#!/", 3);
	cr_expect_eq(parse(line, &s), -1, "interpreter name cut at %d bytes",
		     EXEC_SCRIPT_LINE_MAX - 1);
	memcpy(line, "#!/x ", 5);
	cr_assert_eq(parse(line, &s), 1);
	cr_expect_str_eq(s.interp, "/x");
	cr_expect_eq(strlen(s.arg), EXEC_SCRIPT_LINE_MAX - 1 - 5);
}
