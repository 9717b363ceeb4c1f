/*
 * kvmclock: KVM's paravirtual clock (CPUID 0x40000001 EAX bit 3, the "new"
 * MSRs).  The guest hands KVM the physical address of a pvclock page, which
 * KVM keeps current from then on, and asks once for the wall clock.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "lib/kprintf.h"
#include "mm/layout.h"
#include "time/time_priv.h"

/* KVM writes it at the guest-physical address we give: 12 bytes that must not cross a page. */
static struct pvclock_wall_clock wall __aligned(16);

struct pvclock_vcpu_time_info kvmclock_snapshot(const struct pvclock_vcpu_time_info *pv)
{
	struct pvclock_vcpu_time_info copy;
	uint32_t version;

	do {
		version = VCLOCK_READ_ONCE(pv->version);
		vclock_barrier();
		copy = *pv;
		vclock_barrier();
	} while ((version & 1) || VCLOCK_READ_ONCE(pv->version) != version);
	return copy;
}

bool kvmclock_enable(struct pvclock_vcpu_time_info *pv)
{
	uint64_t msr = virt_to_phys(pv) | KVM_SYSTEM_TIME_ENABLE;
	int vec;

	if (!cpu_has(EL_FEAT_KVMCLOCK))
		return false;
	vec = wrmsr_safe(MSR_KVM_SYSTEM_TIME_NEW, msr);
	if (vec) {
		kprintf("time: CPUID offers kvmclock but WRMSR 0x%x raised vector %d; "
			"using the TSC\n",
			MSR_KVM_SYSTEM_TIME_NEW, vec);
		return false;
	}
	/* KVM fills the page before it resumes the guest after the WRMSR exit. */
	if (VCLOCK_READ_ONCE(pv->version) == 0 || kvmclock_snapshot(pv).tsc_to_system_mul == 0) {
		kprintf("time: KVM accepted the kvmclock MSR but left the page empty; "
			"using the TSC\n");
		wrmsr_safe(MSR_KVM_SYSTEM_TIME_NEW, 0);
		return false;
	}
	return true;
}

bool kvmclock_wall_clock(struct vclock_base *out)
{
	uint32_t version, sec, nsec;

	if (wrmsr_safe(MSR_KVM_WALL_CLOCK_NEW, virt_to_phys(&wall)))
		return false;
	do {
		version = VCLOCK_READ_ONCE(wall.version);
		vclock_barrier();
		sec = wall.sec;
		nsec = wall.nsec;
		vclock_barrier();
	} while ((version & 1) || VCLOCK_READ_ONCE(wall.version) != version);
	if (version == 0 || nsec >= NSEC_PER_SEC)
		return false;
	*out = (struct vclock_base){.sec = sec, .nsec = nsec};
	return true;
}
