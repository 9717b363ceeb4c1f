/*
 * SHA-256 (common/sha256.c) against FIPS 180-4's examples, whatever the
 * chunking of the input.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

Test(sha256, fips_examples)
{
	char hex[65];

	el_sha256_hex("", 0, hex);
	cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	el_sha256_hex("abc", 3, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	el_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	cr_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, a_million_a_in_any_chunks)
{
	static const unsigned char want[32] = {
		0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7,
		0x3e, 0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc,
		0xc7, 0x11, 0x2c, 0xd0};
	char *a = malloc(1000000);
	unsigned char got[32];

	cr_assert_not_null(a);
	memset(a, 'a', 1000000);
	for (size_t chunk = 1; chunk <= 1000000; chunk *= 7) {
		struct el_sha256 c;

		el_sha256_init(&c);
		for (size_t pos = 0; pos < 1000000; pos += chunk)
			el_sha256_update(&c, a + pos,
					 1000000 - pos < chunk ? 1000000 - pos : chunk);
		el_sha256_final(&c, got);
		cr_assert(!memcmp(got, want, 32), "chunks of %zu", chunk);
	}
	free(a);
}
