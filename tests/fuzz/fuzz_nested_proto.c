/*
 * Fuzz target: the nested runner's wire (harness/nested/nested_wire.c) from
 * both ends, fed in chunks whose sizes come from the input's first byte.
 * The host's side: a ctl stream (begin mark, then frames) and a data stream
 * (begin mark, bytes, end mark), as a hostile VM could send them.  The
 * agent's side: the same bytes searched for a request.  Properties: no more
 * bytes passed on than fed, nothing after a violation, messages
 * NUL-terminated, a found request's strings inside the buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nested_wire.h"

static void count_bytes(void *ctx, const char *data, size_t len)
{
	(void)data;
	*(size_t *)ctx += len;
}

static void host_side(const uint8_t *data, size_t size, size_t chunk)
{
	static struct nested_ctl c;
	struct nested_mark_scan begin, end;
	size_t records = 0, passed = 0, at;
	char *payload = c.payload;

	/* One 1 MiB payload buffer for the whole run: the rest starts fresh each input. */
	if (!payload && (!nested_ctl_init(&c, NULL, NULL, NULL) || !(payload = c.payload)))
		return;
	memset(&c, 0, sizeof(c));
	c.payload = payload;
	c.records = count_bytes;
	c.ctx = &records;
	nested_mark_scan_init(&begin, NESTED_MARK_BEGIN, 0x0123456789abcdefull);
	nested_mark_scan_init(&end, NESTED_MARK_END, 0x0123456789abcdefull);
	for (at = 0; at < size; at += chunk) {
		size_t n = size - at < chunk ? size - at : chunk, used = 0;
		const char *d = (const char *)data + at;

		if (!begin.found)
			used = nested_mark_scan_feed(&begin, d, n, NULL, NULL);
		if (begin.found && used < n)
			nested_ctl_feed(&c, d + used, n - used);
		for (size_t u = 0; u < n && !end.found;) {
			size_t k = nested_mark_scan_feed(&end, d + u, n - u, count_bytes, &passed);

			if (!k)
				break;
			u += k;
		}
	}
	if (records > size || passed > size)
		fuzz_fail("more bytes passed on than fed");
	if (strnlen(c.error, sizeof(c.error)) == sizeof(c.error) ||
	    strnlen(c.fail_msg, sizeof(c.fail_msg)) == sizeof(c.fail_msg))
		fuzz_fail("a message is not NUL-terminated");
}

static void agent_side(const uint8_t *data, size_t size)
{
	static struct nested_cmd cmd;
	char *buf = malloc(size ? size : 1), err[300];
	size_t len = size;

	if (!buf)
		return;
	memcpy(buf, data, size);
	while (len) {
		bool found;
		size_t need, drop = nested_req_find(buf, len, &cmd, &found, &need, err, sizeof(err));

		if (drop > len)
			fuzz_fail("dropped more than it had");
		if (found && !err[0]) {
			for (unsigned i = 0; i < cmd.nargs; i++)
				if (cmd.args[i] < buf || cmd.args[i] >= buf + len)
					fuzz_fail("an argument outside the buffer");
			for (unsigned i = 0; i < cmd.nfiles; i++)
				if (cmd.files[i].data < buf || cmd.files[i].data + cmd.files[i].len >
							     buf + len)
					fuzz_fail("a file outside the buffer");
		}
		if (!drop)
			break;
		memmove(buf, buf + drop, len - drop);
		len -= drop;
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	host_side(data + 1, size - 1, (size_t)data[0] % 64 + 1);
	agent_side(data + 1, size - 1);
	return 0;
}
