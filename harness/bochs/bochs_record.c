/*
 * A Bochs boot's record (bochs.h): record_build()'s, then what Bochs did
 * not measure taken out and said so.
 */
#include <stdio.h>

#include "bochs.h"

static void bochs_record_adjust(struct json_object *rec, const char *model, const char *logdir)
{
	struct json_object *host, *guest, *b = json_object_new_object();

	if (json_object_object_get_ex(rec, "host", &host))
		json_object_object_add(host, "bochs_cpu_model", json_object_new_string(model));
	if (json_object_object_get_ex(rec, "guest", &guest))
		json_object_object_add(guest, "vcpu_cpuid", NULL); /* no KVM kept one */
	json_object_object_add(rec, "measurements", json_object_new_string("not-meaningful"));
	json_object_object_add(rec, "region", NULL);
	json_object_object_add(rec, "vmm", NULL);
	json_object_object_add(b, "cpu_model", json_object_new_string(model));
	json_object_object_add(b, "kept_dir", logdir[0] ? json_object_new_string(logdir) : NULL);
	json_object_object_add(rec, "bochs", b);
}

struct json_object *bochs_record_run(const struct el_run_request *req,
				     const struct el_run_spec *spec,
				     const struct el_host_info *host, const char *model,
				     struct el_run_result *res)
{
	struct el_host_info h = *host;
	struct json_object *rec;
	char logdir[256];

	bochs_run(spec, model, res, logdir, sizeof(logdir));
	if (res->status == EL_RUN_OK && record_config_mismatch(req, res, false) && req->strict) {
		res->status = EL_RUN_UNSUPPORTED;
		snprintf(res->detail, sizeof(res->detail),
			 "--strict: the guest could not set up what --append asked "
			 "(see guest.config); drop --strict or the knob");
	}
	h.kvm = "bochs";
	h.kvm_module = "";
	h.pmu = "none";
	h.nr_params = 0;
	rec = record_build(req, spec, &h, res);
	if (rec)
		bochs_record_adjust(rec, model, logdir);
	return rec;
}
