/*
 * Fuzz target: the parser of the trace plugin's output
 * (harness/trace/trace_parse.c), untrusted text with its length; a refusal
 * must say why.
 */
#include "fuzz.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct el_trace_data d;
	char err[256] = "";

	memset(&d, 0, sizeof(d));
	if (trace_parse((const char *)data, size, &d, err, sizeof(err)) && !err[0])
		fuzz_fail("trace_parse refused the text without saying why");
	trace_data_free(&d);
	return 0;
}
