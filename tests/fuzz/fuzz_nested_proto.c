/*
 * Fuzz target: the nested runner's results-channel parser
 * (harness/nested/nested_proto.c), the stream fed in chunks whose sizes come
 * from the input's first byte; it may hand on no more record bytes than it
 * was given.
 */
#include "fuzz.h"
#include "nested_priv.h"

static void count_bytes(void *ctx, const char *data, size_t len)
{
	(void)data;
	*(size_t *)ctx += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nested_stream s;
	size_t records = 0, at = 1, chunk;

	if (size == 0)
		return 0;
	chunk = (size_t)data[0] % 64 + 1;
	nested_stream_init(&s, count_bytes, &records);
	for (; at < size; at += chunk)
		nested_stream_feed(&s, (const char *)data + at,
				   size - at < chunk ? size - at : chunk);
	if (records > size)
		fuzz_fail("the stream delivered more record bytes than it was fed");
	if (strnlen(s.error, sizeof(s.error)) == sizeof(s.error) ||
	    strnlen(s.fail_msg, sizeof(s.fail_msg)) == sizeof(s.fail_msg))
		fuzz_fail("a message is not NUL-terminated");
	return 0;
}
