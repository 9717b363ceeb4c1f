/*
 * The record's "host" object (results/README.md): the facts vmm/host_info.c
 * collected, as JSON.
 */
#include <json-c/json.h>

#include "record.h"
#include "record_nested.h"

struct json_object *host_info_json(const struct el_host_info *hi)
{
	struct json_object *o = json_object_new_object();
	struct json_object *params = json_object_new_object();
	struct json_object *nested;

	json_object_object_add(o, "cpu_model", json_object_new_string(hi->cpu_model));
	json_object_object_add(o, "vendor", json_object_new_string(hi->vendor));
	json_object_object_add(o, "family", json_object_new_int((int)hi->family));
	json_object_object_add(o, "model", json_object_new_int((int)hi->model));
	json_object_object_add(o, "stepping", json_object_new_int((int)hi->stepping));
	json_object_object_add(o, "kernel", json_object_new_string(hi->kernel));
	json_object_object_add(o, "kvm", json_object_new_string(hi->kvm));
	json_object_object_add(o, "kvm_module", json_object_new_string(hi->kvm_module));
	json_object_object_add(o, "pmu", json_object_new_string(hi->pmu));
	for (unsigned i = 0; i < hi->nr_params; i++)
		json_object_object_add(params, hi->params[i].name,
				       json_object_new_string(hi->params[i].value));
	json_object_object_add(o, "kvm_params", params);
	if ((nested = record_nested_json()))
		json_object_object_add(o, "nested", nested);
	return o;
}
