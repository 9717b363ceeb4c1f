/*
 * One VM with one vCPU: the KVM file descriptors, the vCPU's shared run
 * page and the guest RAM.  Created and torn down by vm.c; the vCPU's boot
 * state is set by vcpu_boot.c.
 */
#ifndef EL_VM_H
#define EL_VM_H

#include <stddef.h>
#include <stdint.h>

#include "gpa.h"

struct kvm_run;
struct linux_entry;

/* What vm_create() adds besides RAM, the irqchip and the vCPU. */
enum {
	/*
	 * Linux mode: KVM's PIT (KVM_CREATE_PIT2), and device interrupts from
	 * user space (COM1's, KVM_IRQ_LINE, which the confined loop may then call).
	 */
	EL_VM_LINUX = 1u << 0,
};

struct el_vm {
	int kvm_fd, vm_fd, vcpu_fd;
	struct kvm_run *run; /* mmap of the vCPU fd */
	size_t run_size;
	struct el_mem mem;
	unsigned flags; /* EL_VM_*, as created */
};

/*
 * Fresh VM with mem_bytes of RAM, KVM's in-kernel irqchip, the devices in
 * flags (EL_VM_*) and one vCPU; -1 with a message in err.
 */
int vm_create(struct el_vm *vm, uint64_t mem_bytes, unsigned flags, char *err, size_t errlen);
/* Releases whatever vm_create() got, also after a partial failure. */
void vm_destroy(struct el_vm *vm);

/* KVM_GET_TSC_KHZ on the vCPU, 0 when KVM cannot tell. */
uint64_t vm_tsc_khz(const struct el_vm *vm);

/*
 * The PVH entry state: 32-bit protected mode, flat segments, paging off,
 * EBX = start_info, EIP = entry; plus the boot MSRs.  CPUID must be set
 * before (MSR and CR4 checks depend on it).  -1 with a message in err.
 */
int vcpu_boot(struct el_vm *vm, uint64_t entry, uint64_t start_info, char *err, size_t errlen);

/* Linux's 64-bit boot protocol entry state (linux_boot.h); -1 with a message in err. */
int vcpu_boot_long(struct el_vm *vm, const struct linux_entry *e, char *err, size_t errlen);

#endif
