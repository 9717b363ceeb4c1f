/*
 * VM and vCPU lifetime: /dev/kvm, the VM, its RAM slots, the in-kernel
 * interrupt controllers, one vCPU and the vCPU's run page.  A fresh VM per
 * run, since KVM forbids changing CPUID after the first KVM_RUN.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kvm.h"
#include "vm.h"

/* Three pages KVM needs for real-mode emulation on Intel; inside the 3-4 GiB hole. */
#define EL_KVM_TSS_ADDR 0xfffbd000ul

static int vm_fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, kvm_last_error());
	return -1;
}

static int vm_add_ram(struct el_vm *vm, char *err, size_t errlen)
{
	for (unsigned i = 0; i < vm->mem.nr_slots; i++) {
		const struct el_mem_slot *s = &vm->mem.slot[i];
		struct kvm_userspace_memory_region r = {
			.slot = i,
			.guest_phys_addr = s->gpa,
			.memory_size = s->size,
			.userspace_addr = (uintptr_t)s->hva,
		};

		if (kvm_ioctl(vm->vm_fd, KVM_SET_USER_MEMORY_REGION, &r) < 0)
			return vm_fail(err, errlen, "cannot give the guest its RAM");
	}
	return 0;
}

int vm_create(struct el_vm *vm, uint64_t mem_bytes, unsigned flags, char *err, size_t errlen)
{
	int run_size;
	void *run;

	memset(vm, 0, sizeof(*vm));
	vm->kvm_fd = vm->vm_fd = vm->vcpu_fd = -1;
	vm->flags = flags;

	if (el_mem_alloc(&vm->mem, mem_bytes, err, errlen))
		return -1;
	vm->kvm_fd = kvm_open(err, errlen);
	if (vm->kvm_fd < 0)
		return -1;
	vm->vm_fd = kvm_ioctl(vm->kvm_fd, KVM_CREATE_VM, 0);
	if (vm->vm_fd < 0)
		return vm_fail(err, errlen, "cannot create a VM");
	if (vm_add_ram(vm, err, errlen))
		return -1;
	if (kvm_ioctl(vm->vm_fd, KVM_SET_TSS_ADDR, EL_KVM_TSS_ADDR) < 0)
		return vm_fail(err, errlen, "cannot place KVM's TSS");
	/*
	 * KVM's own LAPIC (and IOAPIC/PIC): self-IPIs and EOIs stay inside the kernel,
	 * no exit reaches us per interrupt.  It must exist before the vCPU, whose
	 * LAPIC it creates; its MMIO page (0xfee00000) lies in the RAM hole (gpa.h).
	 */
	if (kvm_ioctl(vm->vm_fd, KVM_CREATE_IRQCHIP, 0) < 0)
		return vm_fail(err, errlen, "cannot create the in-kernel interrupt controller");
	/*
	 * Linux mode: KVM's PIT on ports 0x40-0x43, its output wired to IRQ 0,
	 * and port 0x61 (speaker, PIT channel 2's gate and output) in the
	 * kernel too (KVM_PIT_SPEAKER_DUMMY), so Linux's PIT calibration and
	 * tick cost no exit to us.  After the irqchip, before the vCPU.
	 */
	if ((flags & EL_VM_LINUX) &&
	    kvm_ioctl(vm->vm_fd, KVM_CREATE_PIT2,
		      &(struct kvm_pit_config){.flags = KVM_PIT_SPEAKER_DUMMY}) < 0)
		return vm_fail(err, errlen, "cannot create the in-kernel PIT (i8254)");
	vm->vcpu_fd = kvm_ioctl(vm->vm_fd, KVM_CREATE_VCPU, 0);
	if (vm->vcpu_fd < 0)
		return vm_fail(err, errlen, "cannot create the vCPU");

	run_size = kvm_ioctl(vm->kvm_fd, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (run_size < (int)sizeof(struct kvm_run))
		return vm_fail(err, errlen, "cannot size the vCPU run page");
	run = mmap(NULL, (size_t)run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vm->vcpu_fd, 0);
	if (run == MAP_FAILED) {
		snprintf(err, errlen, "cannot map the vCPU run page: %s", strerror(errno));
		return -1;
	}
	vm->run = run;
	vm->run_size = (size_t)run_size;
	return 0;
}

void vm_destroy(struct el_vm *vm)
{
	if (vm->run)
		munmap(vm->run, vm->run_size);
	if (vm->vcpu_fd >= 0)
		close(vm->vcpu_fd);
	if (vm->vm_fd >= 0)
		close(vm->vm_fd);
	if (vm->kvm_fd >= 0)
		close(vm->kvm_fd);
	el_mem_free(&vm->mem);
	vm->run = NULL;
	vm->kvm_fd = vm->vm_fd = vm->vcpu_fd = -1;
}

uint64_t vm_tsc_khz(const struct el_vm *vm)
{
	int khz;

	if (kvm_cap(vm->kvm_fd, KVM_CAP_GET_TSC_KHZ) <= 0)
		return 0;
	khz = __kvm_ioctl(vm->vcpu_fd, KVM_GET_TSC_KHZ, 0);
	return khz > 0 ? (uint64_t)khz : 0;
}
