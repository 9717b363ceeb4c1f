/*
 * The vCPU's state at the PVH entry point: 32-bit protected mode, paging
 * off, flat segments matching the boot GDT (pvh_start.h), a busy 32-bit
 * TSS, EBX = start_info, and boot values for the MSRs a kernel inherits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "kvm.h"
#include "linux_boot.h"
#include "pvh_start.h"
#include "vm.h"

#define X86_CR0_PE 0x1ull
#define X86_CR0_ET 0x10ull
#define X86_CR0_PG 0x80000000ull
#define X86_CR4_PAE 0x20ull
#define X86_EFER_LME 0x100ull
#define X86_EFER_LMA 0x400ull
#define X86_RFLAGS_FIXED 0x2ull

#define SEG_TYPE_CODE_RX_ACC 0xb /* execute/read, accessed */
#define SEG_TYPE_DATA_RW_ACC 0x3 /* read/write, accessed */
#define SEG_TYPE_TSS32_BUSY 0xb
#define SEG_TYPE_TSS64_BUSY 0xb /* the same type in long mode means a 64-bit TSS */

/* Writes a firmware would leave behind; everything else keeps KVM's reset value. */
static const struct {
	uint32_t index;
	uint64_t value;
	const char *name;
} boot_msrs[] = {
	{0x174, 0, "IA32_SYSENTER_CS"},
	{0x175, 0, "IA32_SYSENTER_ESP"},
	{0x176, 0, "IA32_SYSENTER_EIP"},
	{0xc0000081, 0, "STAR"},
	{0xc0000082, 0, "LSTAR"},
	{0xc0000083, 0, "CSTAR"},
	{0xc0000084, 0, "SFMASK"},
	{0xc0000102, 0, "KERNEL_GS_BASE"},
	{0x1a0, 0x1, "IA32_MISC_ENABLE (fast strings)"},
	{0x2ff, 0x806, "MTRR_DEF_TYPE (enabled, write-back)"},
};

#define NR_BOOT_MSRS EL_ARRAY_SIZE(boot_msrs)

static int vcpu_msrs_set(struct el_vm *vm, char *err, size_t errlen)
{
	struct {
		struct kvm_msrs hdr;
		struct kvm_msr_entry ent[NR_BOOT_MSRS];
	} m = {.hdr.nmsrs = NR_BOOT_MSRS};
	int n;

	for (size_t i = 0; i < NR_BOOT_MSRS; i++)
		m.ent[i] = (struct kvm_msr_entry){.index = boot_msrs[i].index,
						  .data = boot_msrs[i].value};
	n = kvm_ioctl(vm->vcpu_fd, KVM_SET_MSRS, &m);
	if (n < 0) {
		snprintf(err, errlen, "cannot set the boot MSRs: %s", kvm_last_error());
		return -1;
	}
	/* KVM_SET_MSRS stops at the first MSR it refuses and returns how many it set. */
	if ((size_t)n < NR_BOOT_MSRS) {
		snprintf(err, errlen, "KVM_SET_MSRS refused MSR 0x%x (%s) = 0x%" PRIx64,
			 boot_msrs[n].index, boot_msrs[n].name, boot_msrs[n].value);
		return -1;
	}
	return 0;
}

static struct kvm_segment flat_segment(uint16_t sel, uint8_t type)
{
	return (struct kvm_segment){.base = 0, .limit = 0xffffffff, .selector = sel,
				    .type = type, .present = 1, .dpl = 0, .db = 1, .s = 1,
				    .l = 0, .g = 1};
}

static int vcpu_sregs_set(struct el_vm *vm, char *err, size_t errlen)
{
	struct kvm_sregs s;
	struct kvm_segment data = flat_segment(EL_BOOT_SEL_DATA, SEG_TYPE_DATA_RW_ACC);

	/* Start from KVM's reset state: it keeps apic_base and the LDT as KVM wants them. */
	if (kvm_ioctl(vm->vcpu_fd, KVM_GET_SREGS, &s) < 0)
		goto fail;
	s.cs = flat_segment(EL_BOOT_SEL_CODE, SEG_TYPE_CODE_RX_ACC);
	s.ds = s.es = s.fs = s.gs = s.ss = data;
	s.tr = (struct kvm_segment){.base = 0, .limit = 0x67, .selector = EL_BOOT_SEL_TSS,
				    .type = SEG_TYPE_TSS32_BUSY, .present = 1};
	s.gdt.base = EL_BOOT_GDT_GPA;
	s.gdt.limit = EL_BOOT_GDT_ENTRIES * 8 - 1;
	/* No IDT: an exception before the guest installs its own ends in a triple fault. */
	s.idt.base = 0;
	s.idt.limit = 0;
	s.cr0 = X86_CR0_PE | X86_CR0_ET;
	s.cr2 = s.cr3 = s.cr4 = 0;
	s.efer = 0;
	if (kvm_ioctl(vm->vcpu_fd, KVM_SET_SREGS, &s) < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "cannot set the vCPU's entry state: %s", kvm_last_error());
	return -1;
}

int vcpu_boot(struct el_vm *vm, uint64_t entry, uint64_t start_info, char *err, size_t errlen)
{
	struct kvm_regs r = {.rip = entry, .rbx = start_info, .rflags = X86_RFLAGS_FIXED};

	if (vcpu_sregs_set(vm, err, errlen))
		return -1;
	if (kvm_ioctl(vm->vcpu_fd, KVM_SET_REGS, &r) < 0) {
		snprintf(err, errlen, "cannot set the vCPU's registers: %s", kvm_last_error());
		return -1;
	}
	return vcpu_msrs_set(vm, err, errlen);
}

/*
 * Linux's 64-bit boot protocol entry (linux_boot.h): long mode, paging on
 * with the identity tables at e->cr3, CS = __BOOT_CS (64-bit), DS, ES, SS
 * (and FS, GS) = __BOOT_DS, flat; a busy 64-bit TSS; interrupts off; RSI =
 * the zero page.  The same boot MSRs as the PVH entry.
 */
int vcpu_boot_long(struct el_vm *vm, const struct linux_entry *e, char *err, size_t errlen)
{
	struct kvm_regs r = {.rip = e->rip, .rsi = e->rsi, .rsp = e->rsp,
			     .rflags = X86_RFLAGS_FIXED};
	struct kvm_segment data = flat_segment(LX_SEL_DATA, SEG_TYPE_DATA_RW_ACC);
	struct kvm_sregs s;

	if (kvm_ioctl(vm->vcpu_fd, KVM_GET_SREGS, &s) < 0)
		goto fail;
	s.cs = flat_segment(LX_SEL_CODE, SEG_TYPE_CODE_RX_ACC);
	s.cs.l = 1;
	s.cs.db = 0;
	s.ds = s.es = s.fs = s.gs = s.ss = data;
	s.tr = (struct kvm_segment){.base = 0, .limit = 0x67, .selector = LX_SEL_TSS,
				    .type = SEG_TYPE_TSS64_BUSY, .present = 1};
	s.gdt.base = e->gdt_base;
	s.gdt.limit = e->gdt_limit;
	s.idt.base = 0;
	s.idt.limit = 0;
	s.cr0 = X86_CR0_PE | X86_CR0_ET | X86_CR0_PG;
	s.cr3 = e->cr3;
	s.cr4 = X86_CR4_PAE;
	s.cr2 = 0;
	s.efer = X86_EFER_LME | X86_EFER_LMA;
	if (kvm_ioctl(vm->vcpu_fd, KVM_SET_SREGS, &s) < 0)
		goto fail;
	if (kvm_ioctl(vm->vcpu_fd, KVM_SET_REGS, &r) < 0)
		goto fail;
	return vcpu_msrs_set(vm, err, errlen);
fail:
	snprintf(err, errlen, "cannot set the vCPU's long-mode entry state: %s", kvm_last_error());
	return -1;
}
