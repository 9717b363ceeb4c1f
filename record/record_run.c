/*
 * One boot and its record (record.h): what `entrylab run` does per repeat
 * and what each matrix boot does, so both record the same way.
 */
#include <stdio.h>

#include "cmdline.h"
#include "record.h"

int record_config_mismatch(const struct el_run_request *req, const struct el_run_result *res,
			   bool quiet)
{
	struct el_cmdline want;
	int bad = 0;
	unsigned i;

	if (!res->have_boot || el_cmdline_parse(req->append, &want, NULL, NULL))
		return 0;
	for (i = 0; i < EL_CFG_COUNT; i++) {
		uint8_t got = res->boot.config[i];

		if (!want.given[i] || got == want.requested[i])
			continue;
		bad = 1;
		if (!quiet)
			fprintf(stderr, "entrylab: %s: asked %s, the guest set up %s\n",
				el_config[i].key, el_config[i].values[want.requested[i]],
				got == EL_CONFIG_UNAVAILABLE ? "nothing (the vCPU lacks a feature)"
				: got < EL_CONFIG_UNAVAILABLE ? el_config[i].values[got] : "?");
	}
	return bad;
}

struct json_object *record_run(const struct el_run_request *req, const struct el_run_spec *spec,
			       const struct el_host_info *host, struct el_run_result *res)
{
	el_vm_run(spec, res);
	if (res->status == EL_RUN_OK && record_config_mismatch(req, res, false) && req->strict) {
		res->status = EL_RUN_UNSUPPORTED;
		snprintf(res->detail, sizeof(res->detail),
			 "--strict: the guest could not set up what --append asked "
			 "(see guest.config); drop --strict or the knob");
	}
	return record_build(req, spec, host, res);
}
