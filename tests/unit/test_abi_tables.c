/*
 * The ABI's tables (common/abi_tables.c) against the version they belong
 * to.  abi_tables.c pins the report's size and each table's length at
 * build time; what it cannot see, a row moved or renamed, a mask, a
 * default or a value name changed, this test sees: a fingerprint of
 * every field that crosses the boundary, pinned for EL_ABI_VERSION.  Help
 * texts and descriptions are left out: they are the host's words, not
 * the ABI.  A failure means: bump EL_ABI_VERSION (abi.h) and pin the new
 * version and fingerprint here.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "entrylab/abi.h"
#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "entrylab/selfcheck.h"

#define PINNED_VERSION 4u
#define PINNED_FINGERPRINT 0x2631c1eacbba3c84ull

/* FNV-1a, 64 bits: over bytes, strings with their NUL, numbers as 8 bytes. */
static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ull;
	}
}

static void mix_str(uint64_t *h, const char *s)
{
	mix(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static void mix_num(uint64_t *h, uint64_t v)
{
	mix(h, &v, sizeof(v));
}

static uint64_t fingerprint(void)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned i = 0; i < EL_FEAT_COUNT; i++) {
		const struct el_feature_desc *f = &el_features[i];

		mix_str(&h, f->name);
		mix_num(&h, f->leaf);
		mix_num(&h, f->subleaf);
		mix_num(&h, f->reg);
		mix_num(&h, f->mask);
		mix_num(&h, f->enforcement);
	}
	for (unsigned i = 0; i < EL_SELFCHECK_COUNT; i++)
		mix_str(&h, el_selfchecks[i].name);
	for (unsigned i = 0; i < EL_CFG_COUNT; i++) {
		mix_str(&h, el_config[i].key);
		mix_num(&h, el_config[i].def);
		for (const char *const *v = el_config[i].values; *v; v++)
			mix_str(&h, *v);
		mix_str(&h, NULL);
	}
	for (size_t i = 0; i < EL_KNOB_COUNT; i++) {
		mix_str(&h, el_knobs[i].name);
		mix_num(&h, el_knobs[i].item);
		mix_num(&h, (uint64_t)(int64_t)el_knobs[i].flag_value);
	}
	for (unsigned i = 0; i < EL_PMU_KIND_COUNT; i++)
		mix_str(&h, el_pmu_kind_names[i]);
	for (unsigned i = 0; i < EL_REGION_SCOPE_COUNT; i++) {
		mix_str(&h, el_region_scope_names[i]);
		mix_str(&h, el_region_scope_record[i]);
	}
	return h;
}

Test(abi_tables, pinned_for_this_abi_version)
{
	uint64_t fp = fingerprint();

	cr_expect(EL_ABI_VERSION == PINNED_VERSION && fp == PINNED_FINGERPRINT,
		  "ABI %u's tables have fingerprint 0x%016llx, pinned: ABI %u, 0x%016llx; a table "
		  "changed: bump EL_ABI_VERSION (include/entrylab/abi.h) and pin the new version "
		  "and fingerprint in tests/unit/test_abi_tables.c",
		  EL_ABI_VERSION, (unsigned long long)fp, PINNED_VERSION,
		  (unsigned long long)PINNED_FINGERPRINT);
}

Test(abi_tables, every_config_value_has_a_name_and_default)
{
	for (unsigned i = 0; i < EL_CFG_COUNT; i++) {
		unsigned n = 0;

		cr_assert_not_null(el_config[i].key, "config item %u has no key", i);
		while (el_config[i].values[n])
			n++;
		cr_expect(el_config[i].def < n, "%s: default %u is not one of its %u values",
			  el_config[i].key, el_config[i].def, n);
	}
	for (size_t i = 0; i < EL_KNOB_COUNT; i++)
		cr_expect(el_knobs[i].item < EL_CFG_COUNT, "knob %s sets no config item",
			  el_knobs[i].name);
}
