/*
 * A Linux kernel's symbols for `trace --guest linux` (harness/trace/
 * trace_ksyms.c): kallsyms lines into a symbol table (labels to the next
 * symbol, the range a little past the last), malformed lines refused, and
 * the symbol cache: offsets from _text written, placed at another _text
 * (KASLR) when read back; a file that is not a cache is no hit.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "trace.h"

static const char ksyms[] =
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000000 T _text\n"
	"ffffffff810be350 T __ia32_sys_getpid\n"
	"ffffffff810be350 T __x64_sys_getpid\n"
	"ffffffff81a43dc0 T do_syscall_64\n"
	"ffffffff81c00080 T entry_SYSCALL_64\n"
	"ffffffff81c000e1 t entry_SYSCALL_64_safe_stack\n"
	"ffffffff81000040 t verify_cpu\n";

static char err[300];

Test(trace_ksyms, lines_into_a_table)
{
	struct el_symtab t;
	const struct el_sym *s;
	uint64_t off;

	cr_assert_eq(symtab_from_kallsyms(&t, ksyms, sizeof(ksyms) - 1, 0, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(t.n, 8);
	cr_assert_str_eq(t.image, "kernel");
	s = symtab_lookup(&t, 0xffffffff81c00085, &off);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "entry_SYSCALL_64");
	cr_assert_eq(off, 5);
	s = symtab_lookup(&t, 0xffffffff81a43dc0 + 0x100, &off);
	cr_assert_str_eq(s->name, "do_syscall_64", "no sizes: up to the next symbol");
	s = symtab_lookup(&t, 0xffffffff81000000, &off);
	cr_assert_str_eq(s->name, "startup_64", "equal addresses: the name without __ (labels)");
	s = symtab_lookup(&t, 0xffffffff810be351, &off);
	cr_assert_str_eq(s->name, "__x64_sys_getpid", "not the 32-bit compat alias");
	cr_assert_not_null(symtab_lookup(&t, 0xffffffff81c000e1 + EL_KSYMS_TAIL - 1, &off));
	cr_assert_null(symtab_lookup(&t, 0xffffffff81c000e1 + EL_KSYMS_TAIL, &off),
		       "beyond the last symbol's reach: unknown");
	cr_assert_null(symtab_lookup(&t, 0xffffffffc0000000, &off), "module space");
	cr_assert_eq(kallsyms_text_base(ksyms, sizeof(ksyms) - 1), 0xffffffff81000000);
	symtab_free(&t);
}

Test(trace_ksyms, malformed_lines_refused)
{
	static const char *const bad[] = {
		"ffffffff81000000 D data_symbol\n",  /* not text */
		"ffffffff81000000 T\n",               /* no name */
		"zzzz T name\n",                      /* not hex */
		"ffffffff81000000T name\n",           /* no space */
		"ffffffff810000001 T name\n",         /* 17 digits */
		"ffffffff81000000 T name",            /* no newline */
		"ffffffff81000000 T na\x01me\n",      /* control byte */
		"ffffffff81000000 T name trailing\n", /* a space after the name */
	};
	struct el_symtab t;

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		cr_assert_eq(symtab_from_kallsyms(&t, bad[i], strlen(bad[i]), 0, err, sizeof(err)),
			     -1, "'%s' accepted", bad[i]);
		cr_assert(strstr(err, "line 1"), "%s", err);
	}
	cr_assert_eq(symtab_from_kallsyms(&t, "", 0, 0, err, sizeof(err)), -1);
	cr_assert_eq(symtab_from_kallsyms(&t, "ffffffffc0001000 t mod_fn\t[mod]\n", 32, 0, err,
					  sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(t.syms[0].name, "mod_fn");
	symtab_free(&t);
}

Test(trace_ksyms, cache_roundtrip_placed_at_another_text)
{
	char dir[] = "/tmp/entrylab-ksyms-test-XXXXXX", path[700], *text;
	struct el_symtab t;
	const struct el_sym *s;
	uint64_t off, kaslr = 0xffffffff9a200000ull;
	size_t len;

	cr_assert_not_null(mkdtemp(dir));
	setenv("ENTRYLAB_KSYMS_CACHE", dir, 1);
	cr_assert_eq(ksyms_cache_path("kernel bytes", 12, path, sizeof(path)), 0);
	cr_assert(strstr(path, dir) == path);
	cr_assert(strstr(path, ".ksyms"));
	cr_assert_null(ksyms_cache_read(path, &len), "no file yet");
	cr_assert_eq(ksyms_cache_write(path, ksyms, sizeof(ksyms) - 1, 0xffffffff81000000ull, err,
				       sizeof(err)), 0, "%s", err);
	text = ksyms_cache_read(path, &len);
	cr_assert_not_null(text);
	cr_assert_eq(symtab_from_kallsyms(&t, text, len, kaslr, err, sizeof(err)), 0, "%s", err);
	s = symtab_lookup(&t, kaslr + 0xc00080 + 2, &off);
	cr_assert_not_null(s);
	cr_assert_str_eq(s->name, "entry_SYSCALL_64");
	cr_assert_eq(off, 2);
	symtab_free(&t);
	free(text);
	/* Another file's key differs; an empty variable means no cache. */
	{
		char other[700];

		cr_assert_eq(ksyms_cache_path("kernel byteZ", 12, other, sizeof(other)), 0);
		cr_assert_str_neq(other, path);
		setenv("ENTRYLAB_KSYMS_CACHE", "", 1);
		cr_assert_eq(ksyms_cache_path("kernel bytes", 12, other, sizeof(other)), -1);
	}
	/* Not a cache file: no hit. */
	{
		FILE *f = fopen(path, "w");

		fputs("ffffffff81000000 T _text\n", f);
		fclose(f);
		cr_assert_null(ksyms_cache_read(path, &len));
	}
	unlink(path);
	rmdir(dir);
	unsetenv("ENTRYLAB_KSYMS_CACHE");
}
