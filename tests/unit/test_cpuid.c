/*
 * CPUID policy without KVM: --cpu parsing, cpuid_apply() on synthetic
 * supported tables, feature locations and enforcement texts, and the host
 * PMU kind derived from a supported table.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cpuid.h"
#include "host_info.h"

#define SIG 1u /* EL_CPUID_FLAG_SIGNIFICANT_INDEX */

static struct el_cpuid sup, out;
static struct el_cpu_request req;
static char err[512];

static void add(struct el_cpuid *c, uint32_t leaf, uint32_t sub, uint32_t flags, uint32_t eax,
		uint32_t ebx, uint32_t ecx, uint32_t edx)
{
	c->ent[c->nent++] = (struct el_cpuid_entry){.function = leaf, .index = sub, .flags = flags,
						    .eax = eax, .ebx = ebx, .ecx = ecx, .edx = edx};
}

/* An Intel-like host: PGE, SMEP, NX, arch PMU v2, but no PCID. */
static void intel_host(void)
{
	memset(&sup, 0, sizeof(sup));
	add(&sup, 0, 0, 0, 0xd, 0x756e6547, 0x6c65746e, 0x49656e69);
	add(&sup, 1, 0, 0, 0x000906ea, 0x05100800, 1u << 21, (1u << 13) | 1u);
	add(&sup, 7, 0, SIG, 1, (1u << 7) | (1u << 10), 0, 0);
	add(&sup, 7, 1, SIG, 0, 0, 0, 0);
	add(&sup, 0xa, 0, 0, 0x07300402, 0, 0, 0x603);
	add(&sup, 0x80000001, 0, 0, 0, 0, 0, (1u << 20) | (1u << 27));
}

/* An AMD-like host with core counters and PerfMonV2. */
static void amd_host(bool core, bool v2)
{
	memset(&sup, 0, sizeof(sup));
	add(&sup, 0, 0, 0, 0x10, 0x68747541, 0x444d4163, 0x69746e65);
	add(&sup, 1, 0, 0, 0x00a10f11, 0, 0, 1u << 13);
	add(&sup, 0x80000001, 0, 0, 0, 0, core ? 1u << 23 : 0, 1u << 20);
	add(&sup, 0x80000022, 0, 0, v2 ? 1 : 0, v2 ? 6 : 0, 0, 0);
}

static int parse(const char *spec)
{
	err[0] = 0;
	return cpuid_spec_parse(spec, &req, err, sizeof(err));
}

Test(cpuid_spec, host_alone_is_all_default)
{
	cr_assert_eq(parse("host"), 0, "%s", err);
	for (int f = 0; f < EL_FEAT_COUNT; f++)
		cr_expect_eq(req.feat[f], EL_REQ_DEFAULT);
	cr_expect_str_eq(req.spec, "host");
	cr_assert_eq(parse(NULL), 0, "no --cpu means host");
	cr_expect_str_eq(req.spec, "host");
}

Test(cpuid_spec, toggles_in_every_spelling)
{
	cr_assert_eq(parse("host,+pcid,-pge,smep=off,tsc_deadline=on,PKU,la57=false,enforce"), 0,
		     "%s", err);
	cr_expect_eq(req.feat[EL_FEAT_PCID], EL_REQ_ON);
	cr_expect_eq(req.feat[EL_FEAT_PGE], EL_REQ_OFF);
	cr_expect_eq(req.feat[EL_FEAT_SMEP], EL_REQ_OFF);
	cr_expect_eq(req.feat[EL_FEAT_TSC_DEADLINE], EL_REQ_ON);
	cr_expect_eq(req.feat[EL_FEAT_PKU], EL_REQ_ON, "a bare name means on, as in QEMU");
	cr_expect_eq(req.feat[EL_FEAT_LA57], EL_REQ_OFF);
	cr_expect_eq(req.feat[EL_FEAT_NX], EL_REQ_DEFAULT);
}

Test(cpuid_spec, last_toggle_wins)
{
	cr_assert_eq(parse("host,-pge,+pge"), 0, "%s", err);
	cr_expect_eq(req.feat[EL_FEAT_PGE], EL_REQ_ON);
	cr_assert_eq(parse("host,pcid=on,-pcid"), 0, "%s", err);
	cr_expect_eq(req.feat[EL_FEAT_PCID], EL_REQ_OFF);
}

Test(cpuid_spec, unknown_feature_is_named_with_the_fix)
{
	cr_assert_eq(parse("host,+pcdi"), -1);
	cr_expect(!strncmp(err, "--cpu host,+pcdi: unknown feature 'pcdi'", 40), "%s", err);
	cr_expect(strstr(err, "did you mean 'pcid'"), "%s", err);
	cr_expect(strstr(err, "`entrylab list features` lists them"), "%s", err);
	cr_assert_eq(parse("host,-frobnicate"), -1);
	cr_expect_str_eq(err, "--cpu host,-frobnicate: unknown feature 'frobnicate'; "
			      "`entrylab list features` lists them");
}

Test(cpuid_spec, only_host_is_a_model)
{
	cr_assert_eq(parse("Skylake-Server,-pge"), -1);
	cr_expect(strstr(err, "'Skylake-Server'"), "%s", err);
	cr_expect(strstr(err, "only \"host\""), "%s", err);
	cr_assert_eq(parse("+pcid"), -1);
	cr_expect(strstr(err, "write host,+pcid"), "%s", err);
	cr_assert_eq(parse(",+pcid"), -1);
	cr_expect(strstr(err, "start with host"), "%s", err);
}

Test(cpuid_spec, empty_and_stray_commas)
{
	cr_assert_eq(parse(""), -1);
	cr_expect(strstr(err, "empty spec"), "%s", err);
	cr_assert_eq(parse("host,-pge,"), -1);
	cr_expect(strstr(err, "stray ','"), "%s", err);
	cr_assert_eq(parse("host,,-pge"), -1);
	cr_assert_eq(parse("host,+"), -1);
	cr_expect(strstr(err, "without a feature name"), "%s", err);
}

Test(cpuid_spec, bad_value)
{
	cr_assert_eq(parse("host,pge=maybe"), -1);
	cr_expect(strstr(err, "'pge=maybe'") && strstr(err, "on or off"), "%s", err);
	cr_assert_eq(parse("host,pge="), -1);
	cr_assert_eq(parse("host,=on"), -1);
}

Test(cpuid_spec, too_long)
{
	char spec[400] = "host";

	while (strlen(spec) < 300)
		strcat(spec, ",-pge");
	cr_assert_eq(parse(spec), -1);
	cr_expect(strstr(err, "shorten it"), "%s", err);
}

Test(cpuid_spec, lookup)
{
	cr_expect_eq(cpuid_feature_lookup("tsc_deadline", 12), EL_FEAT_TSC_DEADLINE);
	cr_expect_eq(cpuid_feature_lookup("arch-perfmon", 12), EL_FEAT_ARCH_PERFMON);
	cr_expect_eq(cpuid_feature_lookup("pcidXX", 4), EL_FEAT_PCID);
	cr_expect_eq(cpuid_feature_lookup("pci", 3), -1);
	cr_expect_eq(cpuid_feature_lookup("", 0), -1);
}

static void expect_where(enum el_feature f, const char *want)
{
	char buf[32];

	cpuid_feature_where(f, buf, sizeof(buf));
	cr_expect_str_eq(buf, want);
}

Test(cpuid_table, where)
{
	expect_where(EL_FEAT_PCID, "CPUID.01H:ECX[17]");
	expect_where(EL_FEAT_PGE, "CPUID.01H:EDX[13]");
	expect_where(EL_FEAT_INVPCID, "CPUID.07H:EBX[10]");
	expect_where(EL_FEAT_NX, "CPUID.80000001H:EDX[20]");
	expect_where(EL_FEAT_ARCH_PERFMON, "CPUID.0AH:EAX[7:0]");
	expect_where(EL_FEAT_KVMCLOCK, "CPUID.40000001H:EAX[3]");
}

Test(cpuid_table, enforcement)
{
	char buf[64];

	cpuid_feature_enforcement(EL_FEAT_PCID, buf, sizeof(buf));
	cr_expect_str_eq(buf, "kvm: CR4.PCIDE #GP");
	cpuid_feature_enforcement(EL_FEAT_PGE, buf, sizeof(buf));
	cr_expect_str_eq(buf, "guest only");
	cpuid_feature_enforcement(EL_FEAT_INVPCID, buf, sizeof(buf));
	cr_expect_str_eq(buf, "kvm: INVPCID #UD");
	cpuid_feature_enforcement(EL_FEAT_NX, buf, sizeof(buf));
	cr_expect_str_eq(buf, "kvm: EFER.NXE #GP");
	/* Every feature KVM enforces says what it checks. */
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		cpuid_feature_enforcement(f, buf, sizeof(buf));
		cr_expect(!strstr(buf, " use "), "%s: %s", el_features[f].name, buf);
	}
}

Test(cpuid_table, find_honours_significant_index)
{
	intel_host();
	cr_assert_not_null(cpuid_find(&sup, 7, 1));
	cr_expect_eq(cpuid_find(&sup, 7, 1)->ebx, 0);
	cr_expect_eq(cpuid_find(&sup, 7, 0)->ebx, (1u << 7) | (1u << 10));
	cr_expect_eq(cpuid_find(&sup, 0xa, 5)->eax, 0x07300402u, "leaf 0AH ignores the subleaf");
	cr_expect_null(cpuid_find(&sup, 0x80000022, 0));
}

Test(cpuid_apply, plus_feature_the_host_lacks_is_refused)
{
	intel_host();
	cr_assert_eq(parse("host,+pcid"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), -1);
	cr_expect_str_eq(err, "+pcid: this host's KVM does not offer PCID (CPUID.01H:ECX[17]); "
			      "drop it or use -pcid");
	cr_assert_eq(parse("host,+perfctr-core"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), -1);
	cr_expect(strstr(err, "CPUID.80000001H:ECX[23]"), "%s", err);
}

Test(cpuid_apply, plus_feature_the_host_has_stays)
{
	intel_host();
	cr_assert_eq(parse("host,+smep,+pge"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	cr_expect(cpuid_has(&out, EL_FEAT_SMEP));
	cr_expect(cpuid_has(&out, EL_FEAT_PGE));
}

Test(cpuid_apply, minus_pge_clears_only_its_bit)
{
	intel_host();
	cr_assert_eq(parse("host,-pge"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	cr_expect_not(cpuid_has(&out, EL_FEAT_PGE));
	cr_expect_eq(cpuid_find(&out, 1, 0)->edx, 1u, "only EDX[13] goes");
	for (int f = 0; f < EL_FEAT_COUNT; f++)
		if (f != EL_FEAT_PGE)
			cr_expect_eq(cpuid_has(&out, f), cpuid_has(&sup, f), "%s",
				     el_features[f].name);
}

Test(cpuid_apply, minus_arch_perfmon_zeroes_leaf_0a)
{
	const struct el_cpuid_entry *e;

	intel_host();
	cr_assert_eq(parse("host,-arch-perfmon"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	e = cpuid_find(&out, 0xa, 0);
	cr_assert_not_null(e);
	cr_expect(e->eax == 0 && e->ebx == 0 && e->ecx == 0 && e->edx == 0);
	cr_expect_str_eq(host_pmu_kind(&out), "none");
}

Test(cpuid_apply, minus_perfctr_core_also_drops_perfmon_v2)
{
	amd_host(true, true);
	cr_assert_eq(parse("host,-perfctr-core"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	cr_expect_not(cpuid_has(&out, EL_FEAT_PERFCTR_CORE));
	cr_expect_eq(cpuid_find(&out, 0x80000022, 0)->eax, 0);
	cr_expect_eq(cpuid_find(&out, 0x80000022, 0)->ebx, 0);
}

Test(cpuid_apply, defaults_keep_the_host_and_add_vmm_policy)
{
	const struct el_cpuid_entry *l1;

	intel_host();
	cr_assert_eq(parse("host"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(out.nent, sup.nent);
	for (int f = 0; f < EL_FEAT_COUNT; f++)
		cr_expect_eq(cpuid_has(&out, f), cpuid_has(&sup, f), "%s", el_features[f].name);
	l1 = cpuid_find(&out, 1, 0);
	cr_expect_eq(l1->eax, 0x000906eau, "family/model/stepping stay the host's");
	cr_expect_eq(l1->ecx, (1u << 21) | (1u << 31), "hypervisor bit set");
	cr_expect_eq(l1->ebx, 0x00100800u, "APIC id 0, the rest kept");
	for (uint32_t i = 2; i < sup.nent; i++)
		cr_expect_eq(memcmp(&out.ent[i], &sup.ent[i], sizeof(out.ent[i])), 0,
			     "entry %u changed", i);
}

Test(host_info, pmu_kind)
{
	intel_host();
	cr_expect_str_eq(host_pmu_kind(&sup), "intel-v2");
	amd_host(true, true);
	cr_expect_str_eq(host_pmu_kind(&sup), "amd-v2");
	amd_host(true, false);
	cr_expect_str_eq(host_pmu_kind(&sup), "amd-core");
	amd_host(false, false);
	cr_expect_str_eq(host_pmu_kind(&sup), "none");
	memset(&sup, 0, sizeof(sup));
	cr_expect_str_eq(host_pmu_kind(&sup), "none");
	cr_expect_str_eq(host_pmu_kind(NULL), "none");
}

Test(host_info, signature)
{
	unsigned fam, model, step;

	host_decode_signature(0x00a10f11, &fam, &model, &step); /* AMD EPYC Genoa */
	cr_expect(fam == 0x19 && model == 0x11 && step == 1, "%x %x %x", fam, model, step);
	host_decode_signature(0x000906ea, &fam, &model, &step); /* Intel Coffee Lake */
	cr_expect(fam == 6 && model == 0x9e && step == 0xa, "%x %x %x", fam, model, step);
	host_decode_signature(0x00000f29, &fam, &model, &step); /* Pentium 4 */
	cr_expect(fam == 0xf && model == 2 && step == 9, "%x %x %x", fam, model, step);
}

Test(host_info, get_fills_everything)
{
	struct el_host_info hi;

	amd_host(true, false);
	cr_assert_eq(host_info_get(&hi, &sup), 0);
	cr_expect(hi.cpu_model[0] && hi.vendor[0] && hi.kernel[0]);
	cr_expect_str_eq(hi.kvm, "native");
	cr_expect_str_eq(hi.pmu, "amd-core");
}

Test(cpuid_apply, toggles_kvm_did_not_keep_are_named)
{
	static struct el_cpuid eff;

	intel_host();
	cr_assert_eq(parse("host,-pge"), 0);
	cr_assert_eq(cpuid_apply(&sup, &req, &out, err, sizeof(err)), 0, "%s", err);
	eff = out;
	cr_expect_eq(cpuid_check_kept(&req, &out, &eff, err, sizeof(err)), 0);
	eff = sup; /* a KVM that gives the guest the host's CPUID */
	cr_assert_eq(cpuid_check_kept(&req, &out, &eff, err, sizeof(err)), -1);
	cr_expect(!strncmp(err, "-pge: this host's KVM gives the guest pge on (CPUID.01H:EDX[13])",
			   60), "%s", err);
	cr_expect(strstr(err, "use --nested"), "%s", err);
	cr_assert_eq(parse("host"), 0);
	cr_expect_eq(cpuid_check_kept(&req, &out, &eff, err, sizeof(err)), 0,
		     "defaults are shown, not refused");
}
