/*
 * The CPU models of Bochs 2.7 (`bochs -help cpu`), which of them have long
 * mode (the guest kernel is x86-64), and PCID/INVPCID as each advertises
 * them (measured in Bochs 2.7's cpudb).
 */
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "bochs.h"

static const struct bochs_model bochs_models[] = {
	{"bx_generic", false, false, false},
	{"pentium", false, false, false},
	{"pentium_mmx", false, false, false},
	{"amd_k6_2_chomper", false, false, false},
	{"p2_klamath", false, false, false},
	{"p3_katmai", false, false, false},
	{"p4_willamette", false, false, false},
	{"core_duo_t2400_yonah", false, false, false},
	{"atom_n270", false, false, false},
	{"p4_prescott_celeron_336", true, false, false},
	{"athlon64_clawhammer", true, false, false},
	{"athlon64_venice", true, false, false},
	{"turion64_tyler", true, false, false},
	{"phenom_8650_toliman", true, false, false},
	{"core2_penryn_t9600", true, false, false},
	{"corei5_lynnfield_750", true, false, false},
	{"corei5_arrandale_m520", true, false, false},
	{"corei7_sandy_bridge_2600k", true, true, false},
	{"zambezi", true, false, false},
	{"trinity_apu", true, false, false},
	{"ryzen", true, false, false},
	{"corei7_ivy_bridge_3770k", true, true, false},
	{"corei7_haswell_4770", true, true, true},
	{"broadwell_ult", true, true, true}, /* these two as the silicon has them; not measured */
	{"corei7_skylake_x", true, true, true},
	{"corei3_cnl", true, true, true},
	{"corei7_icelake_u", true, true, true},
	{"tigerlake", true, true, true},
};

#define NR_MODELS EL_ARRAY_SIZE(bochs_models)

const struct bochs_model *bochs_model_find(const char *name)
{
	for (size_t i = 0; name && i < NR_MODELS; i++)
		if (!strcmp(bochs_models[i].name, name))
			return &bochs_models[i];
	return NULL;
}

void bochs_models_print(FILE *f)
{
	fprintf(f, "Bochs 2.7 CPU models with long mode (pcid/invpcid as they advertise them):\n");
	for (size_t i = 0; i < NR_MODELS; i++) {
		const struct bochs_model *m = &bochs_models[i];

		if (m->long_mode)
			fprintf(f, "  %-26s %s%s\n", m->name, m->pcid ? "pcid" : "-",
				m->invpcid ? " invpcid" : "");
	}
}

int bochs_model_check(const char *name, char *err, size_t errlen)
{
	const struct bochs_model *m = bochs_model_find(name);

	if (!m) {
		snprintf(err, errlen, "--cpu-model '%s' is not a CPU model of Bochs 2.7; choose one "
			 "of those below (or see `bochs -help cpu`)", name ? name : "");
		return -1;
	}
	if (!m->long_mode) {
		snprintf(err, errlen, "--cpu-model '%s' has no long mode and the guest kernel is "
			 "x86-64; choose one of those below", name);
		return -1;
	}
	return 0;
}
