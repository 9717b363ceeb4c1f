/*
 * Host facts for records: the CPU (the CPUID instruction, not KVM's view),
 * the kernel, the KVM module and its parameters that change what a guest
 * costs, and the PMU KVM can give a guest.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "array_size.h"
#include "host_info.h"
#include "kvm.h"

/* <cpuid.h> would resolve to vmm/cpuid.h, so the instruction is spelled out. */
static void host_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

void host_decode_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping)
{
	unsigned base_family = (eax >> 8) & 0xf;

	*family = base_family;
	if (base_family == 0xf)
		*family += (eax >> 20) & 0xff;
	*model = (eax >> 4) & 0xf;
	if (base_family >= 0x6)
		*model |= ((eax >> 16) & 0xf) << 4;
	*stepping = eax & 0xf;
}

static void vendor_string(uint32_t ebx, uint32_t ecx, uint32_t edx, char out[13])
{
	memcpy(out, &ebx, 4);
	memcpy(out + 4, &edx, 4);
	memcpy(out + 8, &ecx, 4);
	out[12] = 0;
}

static bool is_amd_like(const char *vendor)
{
	return !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
}

const char *host_pmu_kind(const struct el_cpuid *supported)
{
	const struct el_cpuid_entry *l0 = supported ? cpuid_find(supported, 0, 0) : NULL;
	const struct el_cpuid_entry *e;
	char vendor[13];

	if (!l0)
		return "none";
	vendor_string(l0->ebx, l0->ecx, l0->edx, vendor);
	if (!strcmp(vendor, "GenuineIntel")) {
		unsigned version = cpuid_has(supported, EL_FEAT_ARCH_PERFMON)
					   ? cpuid_find(supported, 0xa, 0)->eax & 0xff
					   : 0;

		return version >= 2 ? "intel-v2" : version == 1 ? "intel-v1" : "none";
	}
	if (is_amd_like(vendor)) {
		e = cpuid_find(supported, 0x80000022, 0);
		if (e && (e->eax & 1))
			return "amd-v2";
		if (cpuid_has(supported, EL_FEAT_PERFCTR_CORE))
			return "amd-core";
	}
	return "none";
}

static void brand_string(char out[49])
{
	uint32_t r[4], b[12];
	char *s;

	host_cpuid(0x80000000, 0, r);
	if (r[0] < 0x80000004) {
		out[0] = 0;
		return;
	}
	for (uint32_t i = 0; i < 3; i++)
		host_cpuid(0x80000002 + i, 0, b + 4 * i);
	memcpy(out, b, 48);
	out[48] = 0;
	for (s = out; *s == ' '; s++)
		;
	memmove(out, s, strlen(s) + 1);
	for (s = out + strlen(out); s > out && s[-1] == ' '; s--)
		s[-1] = 0;
}

/* KVM modules worth telling apart: kvm, then the vendor ones (the first loaded is the host's) */
static const char *const kvm_modules[] = {"kvm", "kvm_intel", "kvm_amd", "kvm_pvm"};
#define KVM_VENDOR_MODULES 1 /* kvm_modules[1..]: the vendor modules */

/* Parameters that change what guest entry, paging or counting cost. */
static const char *const kvm_params[] = {
	"kvm/enable_pmu",     "kvm/tdp_mmu",        "kvm/nx_huge_pages",
	"kvm/mitigate_smt_rsb", "kvm_intel/ept",    "kvm_intel/vpid",
	"kvm_intel/enable_apicv", "kvm_intel/nested", "kvm_amd/npt",
	"kvm_amd/avic",       "kvm_amd/nested",
};

static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static bool module_loaded(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return !access(path, F_OK);
}

void host_kvm_modules(char *out, size_t cap)
{
	size_t o = 0;

	if (cap)
		out[0] = 0;
	for (size_t i = 0; i < EL_ARRAY_SIZE(kvm_modules) && o < cap; i++)
		if (module_loaded(kvm_modules[i]))
			o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? " " : "",
					      kvm_modules[i]);
}

static void module_facts(struct el_host_info *hi)
{
	char path[128];

	hi->kvm_module = "";
	for (size_t i = KVM_VENDOR_MODULES; i < EL_ARRAY_SIZE(kvm_modules); i++) {
		if (module_loaded(kvm_modules[i])) {
			hi->kvm_module = kvm_modules[i];
			break;
		}
	}
	hi->nr_params = 0;
	for (size_t i = 0; i < EL_ARRAY_SIZE(kvm_params); i++) {
		struct el_host_param *p = &hi->params[hi->nr_params];
		const char *slash = strchr(kvm_params[i], '/');

		if (hi->nr_params == EL_HOST_MAX_PARAMS)
			break;
		snprintf(path, sizeof(path), "/sys/module/%.*s/parameters/%s",
			 (int)(slash - kvm_params[i]), kvm_params[i], slash + 1);
		if (read_line(path, p->value, sizeof(p->value)))
			continue;
		snprintf(p->name, sizeof(p->name), "%.*s.%s", (int)(slash - kvm_params[i]),
			 kvm_params[i], slash + 1);
		hi->nr_params++;
	}
}

int host_info_get(struct el_host_info *hi, const struct el_cpuid *supported)
{
	struct utsname u;
	uint32_t r[4];

	memset(hi, 0, sizeof(*hi));
	host_cpuid(0, 0, r);
	vendor_string(r[1], r[2], r[3], hi->vendor);
	host_cpuid(1, 0, r);
	host_decode_signature(r[0], &hi->family, &hi->model, &hi->stepping);
	brand_string(hi->cpu_model);
	if (!hi->cpu_model[0])
		snprintf(hi->cpu_model, sizeof(hi->cpu_model), "%s", hi->vendor);
	snprintf(hi->kernel, sizeof(hi->kernel), "%s", uname(&u) ? "unknown" : u.release);
	hi->kvm = "native";
	hi->pmu = host_pmu_kind(supported);
	module_facts(hi);
	return 0;
}

void host_info_collect(struct el_host_info *hi, bool nested)
{
	static struct el_cpuid supported; /* 10 KiB: not on the caller's stack */
	int fd = kvm_device_open();
	bool have = fd >= 0 && cpuid_kvm_supported(fd, &supported) == 0;

	if (fd >= 0)
		close(fd);
	host_info_get(hi, have ? &supported : NULL);
	hi->kvm = nested ? "nested" : "native";
}
