/*
 * Fuzz target: the COM1 frame decoder (harness/bochs/frame_decode.c) and the
 * frames' result (frame_result.c) on any byte stream, as Bochs's COM1 file
 * may hold it.  Properties: the console is never longer than the input, a
 * malformed frame comes with its problem named, and any stream ends as a
 * status with a detail unless it is ok.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_scan s;
	struct el_run_result *res = calloc(1, sizeof(*res));

	if (!res)
		abort();
	if (frame_decode((const char *)data, size, &s))
		fuzz_fail("frame_decode failed on memory for a small input");
	if (s.console_len > size || s.console[s.console_len] != '\0')
		fuzz_fail("the console is longer than the stream or not terminated");
	if (s.bad && !s.err[0])
		fuzz_fail("a bad frame without its problem named");
	if (frame_result(&s, res) != EL_RUN_OK && !res->detail[0])
		fuzz_fail("a run that did not end ok without a detail");
	if (s.bad && res->status == EL_RUN_OK)
		fuzz_fail("a malformed frame, yet the run is ok");
	frame_scan_free(&s);
	free(res);
	return 0;
}
