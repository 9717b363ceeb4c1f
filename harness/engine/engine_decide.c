/*
 * The engine decision (engine.h, the rules at its top): a pure function of
 * the facts and the request, so each rule has its unit test
 * (tests/unit/test_engine.c).
 */
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "engine.h"
#include "kvm.h"

const char *engine_kind_name(enum engine_kind k)
{
	static const char *const names[] = {
		[ENGINE_NATIVE] = "native", [ENGINE_NESTED] = "nested", [ENGINE_BOCHS] = "bochs",
		[ENGINE_TCG] = "tcg",	    [ENGINE_NONE] = "none",
	};

	return (unsigned)k < EL_ARRAY_SIZE(names) ? names[k] : "?";
}

/* "/dev/kvm", or "/x (ENTRYLAB_KVM_DEVICE)" when the variable chose it. */
static void device_name(const struct engine_facts *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", f->device, f->device_from_env ? " (" KVM_DEVICE_ENV ")" : "");
}

/* For /dev/kvm missing (not a path the user chose): whether KVM is loaded at all. */
static void missing_hint(const struct engine_facts *f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (f->device_exists || f->device_from_env)
		return;
	if (f->modules[0])
		snprintf(buf, len, "; KVM modules loaded (%s) but no device node here", f->modules);
	else
		snprintf(buf, len, "; no KVM module is loaded");
}

/* Why the KVM device cannot run entrylab's guests, into why; false when it can. */
static bool kvm_refused(const struct engine_facts *f, char *why, size_t len)
{
	char dev[sizeof(f->device) + 32], hint[sizeof(f->modules) + 64];

	device_name(f, dev, sizeof(dev));
	if (f->open_errno) {
		missing_hint(f, hint, sizeof(hint));
		snprintf(why, len, "%s: %s (errno %d)%s", dev, strerror(f->open_errno),
			 f->open_errno, hint);
		return true;
	}
	if (f->api_version != KVM_API_VERSION) {
		snprintf(why, len, "%s speaks KVM API %d, entrylab needs %d", dev, f->api_version,
			 KVM_API_VERSION);
		return true;
	}
	if (f->missing_cap) {
		snprintf(why, len, "%s lacks %s, which entrylab needs", dev, f->missing_cap);
		return true;
	}
	if (f->create_vm_errno) {
		snprintf(why, len, "KVM_CREATE_VM on %s failed: %s", dev,
			 f->create_vm_errno > 0 ? strerror(f->create_vm_errno) : "not tried");
		return true;
	}
	if (f->cpuid_honoured == 0) {
		snprintf(why, len, "%s ignores KVM_SET_CPUID2 (modules: %s): --cpu toggles would "
			 "not reach the guest", dev, f->modules[0] ? f->modules : "none");
		return true;
	}
	if (f->cpuid_honoured != 1) {
		snprintf(why, len, "could not tell whether %s keeps KVM_SET_CPUID2 (a throwaway "
			 "vCPU failed)", dev);
		return true;
	}
	return false;
}

void engine_decide(const struct engine_facts *f, const struct engine_request *rq,
		   struct engine_decision *d)
{
	char why[sizeof(d->reason) - 160], dev[sizeof(f->device) + 32];

	device_name(f, dev, sizeof(dev));
	if (rq->bochs) {
		d->kind = ENGINE_BOCHS;
		snprintf(d->reason, sizeof(d->reason), "--engine bochs%s",
			 f->bochs[0] && f->mkrescue[0]
				 ? ""
				 : "; but bochs and grub-mkrescue are not both in PATH, so runs "
				   "will be refused (harness/bootstrap.sh installs them)");
		return;
	}
	if (rq->trace) {
		d->kind = ENGINE_TCG;
		snprintf(d->reason, sizeof(d->reason), "--trace: QEMU TCG here, no KVM needed");
		return;
	}
	if (f->inner) {
		d->kind = ENGINE_NATIVE;
		snprintf(d->reason, sizeof(d->reason), "inside the nested runner's VM: its own %s",
			 dev);
		return;
	}
	if (rq->nested == EL_NESTED_FORCE)
		snprintf(why, sizeof(why), "--nested");
	else if (f->force_env)
		snprintf(why, sizeof(why), "ENTRYLAB_FORCE_NESTED is set");
	else if (!kvm_refused(f, why, sizeof(why))) {
		d->kind = ENGINE_NATIVE;
		snprintf(d->reason, sizeof(d->reason), "%s works: KVM API %d, KVM_CREATE_VM, "
			 "KVM_SET_CPUID2 kept", dev, f->api_version);
		return;
	}
	if (rq->nested == EL_NESTED_FORBID) {
		d->kind = ENGINE_NONE;
		snprintf(d->reason, sizeof(d->reason), "%s, and --no-nested forbids the nested "
			 "runner; drop --no-nested or run on a host with KVM", why);
		return;
	}
	d->kind = ENGINE_NESTED;
	snprintf(d->reason, sizeof(d->reason), "%s", why);
}

bool engine_nested_rate(const struct engine_probe *p)
{
	return p->d.kind == ENGINE_NESTED || p->d.kind == ENGINE_BOCHS || p->facts.inner;
}

void engine_offer(const struct engine_probe *p, struct engine_offer *o)
{
	const struct engine_facts *f = &p->facts;

	switch (p->d.kind) {
	case ENGINE_NATIVE:
		o->pcid = f->supported_read ? f->pcid : -1;
		o->pmu = f->supported_read ? f->pmu : NULL;
		o->source = f->supported_read ? "KVM_GET_SUPPORTED_CPUID"
					      : "unknown: KVM_GET_SUPPORTED_CPUID failed";
		return;
	case ENGINE_BOCHS:
		o->pcid = -1;
		o->pmu = "none";
		o->source = "Bochs: PCID as the --cpu-model has it, no PMU";
		return;
	case ENGINE_NESTED:
	case ENGINE_TCG:
		o->pcid = 0;
		o->pmu = "none";
		o->source = "QEMU TCG offers neither PCID nor a PMU";
		return;
	case ENGINE_NONE:
		break;
	}
	o->pcid = -1;
	o->pmu = NULL;
	o->source = "no engine";
}
