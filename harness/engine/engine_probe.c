/*
 * The engine probe's facts (engine.h): the KVM device and what it answers,
 * step by step as the VMM would use it, the modules loaded, and the tools
 * of the nested runner and of Bochs; then the decision, and its one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bochs.h"
#include "cpuid.h"
#include "engine.h"
#include "host_info.h"
#include "kvm.h"
#include "status.h"

static bool force_env(void)
{
	const char *v = getenv("ENTRYLAB_FORCE_NESTED");

	return v && *v && strcmp(v, "0");
}

/* The device's answers: API version, capabilities, a VM, CPUID kept, what it offers. */
static void kvm_facts(struct engine_facts *f, int fd)
{
	static struct el_cpuid sup; /* 10 KiB: off the caller's stack */
	int vm;

	f->api_version = __kvm_ioctl(fd, KVM_GET_API_VERSION, 0);
	if (f->api_version != KVM_API_VERSION || (f->missing_cap = kvm_missing_cap(fd)))
		return;
	do
		vm = __kvm_ioctl(fd, KVM_CREATE_VM, 0);
	while (vm < 0 && errno == EINTR);
	if (vm < 0) {
		f->create_vm_errno = errno;
		return;
	}
	close(vm);
	f->create_vm_errno = 0;
	if (!cpuid_kvm_supported(fd, &sup)) {
		f->supported_read = true;
		f->pcid = cpuid_has(&sup, EL_FEAT_PCID);
		f->pmu = host_pmu_kind(&sup);
	}
	/*
	 * Some KVMs (kvm_pvm) run guests but ignore KVM_SET_CPUID2: --cpu
	 * toggles would silently do nothing there.
	 */
	f->cpuid_honoured = cpuid_kvm_honoured(fd);
}

void engine_facts_get(struct engine_facts *f)
{
	struct stat st;
	int fd;

	memset(f, 0, sizeof(*f));
	f->inner = nested_is_inner();
	f->force_env = force_env();
	snprintf(f->device, sizeof(f->device), "%s", kvm_device_path());
	f->device_from_env = kvm_device_from_env();
	f->device_exists = !stat(f->device, &st);
	host_kvm_modules(f->modules, sizeof(f->modules));
	f->api_version = -1;
	f->create_vm_errno = -1;
	f->cpuid_honoured = -1;
	f->pmu = "none";
	nested_ready_get(&f->nested);
	bochs_tools_find(f->bochs, f->mkrescue, sizeof(f->bochs));

	/* Inside the nested runner's VM the decision is fixed (native): no throwaway VMs there. */
	if (f->inner)
		return;
	fd = kvm_device_open();
	if (fd < 0) {
		f->open_errno = errno ? errno : EIO;
		return;
	}
	kvm_facts(f, fd);
	close(fd);
}

void engine_probe(const struct engine_request *rq, struct engine_probe *out)
{
	engine_facts_get(&out->facts);
	engine_decide(&out->facts, rq, &out->d);
}

int engine_select(const char *cmd, const struct engine_request *rq, struct engine_probe *out)
{
	engine_probe(rq, out);
	if (out->d.kind != ENGINE_NONE)
		return 0;
	fprintf(stderr, "entrylab %s: %s\n", cmd, out->d.reason);
	return EL_EXIT_UNSUPPORTED;
}

void engine_line(const struct engine_probe *p, char *buf, size_t len)
{
	snprintf(buf, len, "engine: %s (%s)", engine_kind_name(p->d.kind), p->d.reason);
}
