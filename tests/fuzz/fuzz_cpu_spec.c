/*
 * Fuzz target: the --cpu parser (vmm/cpuid_spec.c, cpuid_spec_parse) on any
 * NUL-terminated string; a rejected spec must come with a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_cstring(data, size);
	struct el_cpu_request req;
	char err[256] = "";

	if (cpuid_spec_parse(spec, &req, err, sizeof(err)) && !err[0])
		fuzz_fail("cpuid_spec_parse refused a spec without saying why");
	free(spec);
	return 0;
}
