/*
 * Guest text made JSON- and terminal-safe (common/text_sanitize.c): NUL,
 * controls, ESC sequences and every kind of ill-formed UTF-8.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <string.h>

#include "text_sanitize.h"

/* Sanitises in, checks the bytes out and the count of replacements. */
static void expect(const char *in, size_t len, const char *want, uint64_t want_replaced)
{
	uint64_t replaced = 99;
	size_t n = 0;
	char *out = text_sanitize_utf8(in, len, &n, &replaced);

	cr_assert_not_null(out);
	cr_expect_eq(n, strlen(want), "length %zu, want %zu for \"%s\"", n, strlen(want), want);
	cr_expect_str_eq(out, want);
	cr_expect_eq(replaced, want_replaced, "replaced %llu, want %llu",
		     (unsigned long long)replaced, (unsigned long long)want_replaced);
	free(out);
}

Test(text_sanitize, plain_text_and_utf8_pass_through)
{
	expect("hello\n\tworld\r\n", 14, "hello\n\tworld\r\n", 0);
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0);
	expect("\xf4\x8f\xbf\xbf", 4, "\xf4\x8f\xbf\xbf", 0); /* U+10FFFF, the last code point */
}

Test(text_sanitize, nul_and_controls_become_control_pictures)
{
	expect("a\0b", 3,
	       "a\xe2\x90\x80"
	       "b",
	       1);                                            /* U+2400 */
	expect("\x1b[31mred", 8, "\xe2\x90\x9b[31mred", 1);   /* ESC -> U+241B */
	expect("\x07\x7f", 2, "\xe2\x90\x87\xe2\x90\xa1", 2); /* BEL, DEL -> U+2421 */
}

Test(text_sanitize, ill_formed_utf8_becomes_fffd)
{
	expect("\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd", 2);                 /* overlong '/' */
	expect("\xe0\x80\xaf", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 3); /* overlong, 3 bytes */
	expect("\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 3); /* surrogate D800 */
	expect("\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       4);                                            /* above U+10FFFF */
	expect("\xe2\x82x", 3, "\xef\xbf\xbdx", 1);           /* truncated: one U+FFFD */
	expect("ab\xf0\x9f\x98", 5, "ab\xef\xbf\xbd", 1);     /* truncated at the end */
	expect("\x80\xbf", 2, "\xef\xbf\xbd\xef\xbf\xbd", 2); /* stray continuations */
	expect("\xff\xfe", 2, "\xef\xbf\xbd\xef\xbf\xbd", 2);
}

/* Every byte value, and json-c's parser agrees the string is JSON text. */
Test(text_sanitize, every_byte_gives_valid_json)
{
	char in[512], *out, *json;
	struct json_object *o, *back;
	size_t n;

	for (int i = 0; i < 512; i++)
		in[i] = (char)(i * 7 + (i >> 8));
	out = text_sanitize_utf8(in, sizeof(in), &n, NULL);
	cr_assert_not_null(out);
	cr_expect_leq(n, 3 * sizeof(in));
	o = json_object_new_string_len(out, (int)n);
	json = strdup(json_object_to_json_string(o));
	back = json_tokener_parse(json);
	cr_assert_not_null(back, "json-c cannot parse its own output: %s", json);
	cr_expect_eq((size_t)json_object_get_string_len(back), n);
	cr_expect_eq(memcmp(json_object_get_string(back), out, n), 0);
	json_object_put(o);
	json_object_put(back);
	free(json);
	free(out);
}

Test(text_sanitize, terminal_escapes_controls)
{
	char out[64];
	size_t n = text_escape_terminal("\x1b[2Jok\n\t\0\xc2\x9b\xc3\xa9\xff", 14, out, sizeof(out));

	cr_expect_str_eq(out, "\\x1b[2Jok\n\t\\x00\\xc2\\x9b\xc3\xa9\\xff");
	cr_expect_eq(n, strlen(out));
}

Test(text_sanitize, terminal_never_splits_an_escape)
{
	char out[6];

	text_escape_terminal("ab\x1b", 3, out, sizeof(out));
	cr_expect_str_eq(out, "ab");
}
