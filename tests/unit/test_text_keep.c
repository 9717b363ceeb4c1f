/*
 * The head + newest-tail keeper of guest output (common/text_keep.c).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "text_keep.h"

Test(text_keep, under_the_cap_keeps_everything)
{
	struct text_keep k;
	size_t n;
	char *s;

	text_keep_init(&k, 4, 8);
	text_keep_put(&k, "hello", 5);
	text_keep_put(&k, "world", 5);
	cr_expect_eq(text_keep_dropped(&k), 0);
	s = text_keep_finish(&k, &n);
	cr_expect_str_eq(s, "helloworld");
	cr_expect_eq(n, 10);
	free(s);
}

/* Byte by byte and in one big put: the first 4, a marker, the newest 8 in order. */
Test(text_keep, over_the_cap_keeps_head_and_newest_tail)
{
	const char *in = "HEADabcdefghijklmnopqrstuvwxyz";
	for (int pass = 0; pass < 2; pass++) {
		struct text_keep k;
		char *s, want[160];
		size_t n;

		text_keep_init(&k, 4, 8);
		if (pass)
			text_keep_put(&k, in, strlen(in));
		else
			for (size_t i = 0; in[i]; i++)
				text_keep_put(&k, in + i, 1);
		cr_expect_eq(k.total, strlen(in));
		cr_expect_eq(text_keep_dropped(&k), strlen(in) - 12);
		s = text_keep_finish(&k, &n);
		snprintf(want, sizeof(want),
			 "HEAD\n[entrylab: 18 bytes of output dropped here; "
			 "kept the first 4 and the newest 8]\nstuvwxyz");
		cr_expect_str_eq(s, want, "pass %d: %s", pass, s);
		cr_expect_eq(n, strlen(want));
		free(s);
	}
}

/* A flood far beyond the cap: memory stays at the two buffers, the newest bytes win. */
Test(text_keep, flood_is_bounded)
{
	struct text_keep k;
	char chunk[1000];
	size_t n;
	char *s;

	text_keep_init(&k, 16, 64);
	for (int i = 0; i < 10000; i++) {
		memset(chunk, 'a' + i % 26, sizeof(chunk));
		text_keep_put(&k, chunk, sizeof(chunk) - (size_t)(i % 3));
	}
	cr_expect_eq(k.head_len, 16);
	cr_expect_eq(k.tail_len, 64);
	s = text_keep_finish(&k, &n);
	cr_expect_lt(n, 16 + 64 + 160);
	cr_expect_eq(s[n - 1], 'a' + 9999 % 26);
	free(s);
}

Test(text_keep, empty_gives_empty_string)
{
	struct text_keep k;
	size_t n = 7;
	char *s;

	text_keep_init(&k, 4, 8);
	s = text_keep_finish(&k, &n);
	cr_expect_str_eq(s, "");
	cr_expect_eq(n, 0);
	free(s);
}
