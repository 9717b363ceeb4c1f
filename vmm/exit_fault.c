/*
 * Exits that end a run because something failed, classed by who did it: the
 * guest (triple fault, an exception KVM could not deliver, an instruction it
 * could not emulate, a VM entry refused after the guest changed its state)
 * is guest-crash; KVM's or the VMM's own failure is vmm-error.  Each detail
 * names the exit reason, and where KVM gives them, the RIP and the
 * instruction.  Callable without a vCPU (the RIP then reads "unknown").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "exit.h"
#include "insn_name.h"
#include "kvm.h"

/* The guest's RIP as " at RIP 0x..." (KVM_GET_REGS), or " (RIP unknown)" without a vCPU. */
static const char *fault_rip(const struct el_loop *l, char *buf, size_t len)
{
	struct kvm_regs regs;

	if (l->vm->vcpu_fd < 0 || __kvm_ioctl(l->vm->vcpu_fd, KVM_GET_REGS, &regs) < 0)
		snprintf(buf, len, " (RIP unknown)");
	else
		snprintf(buf, len, " at RIP 0x%llx", (unsigned long long)regs.rip);
	return buf;
}

/*
 * With the in-kernel LAPIC, KVM blocks a halted vCPU itself until an interrupt
 * arrives (a guest halting with IF=0 then runs into --timeout); this exit
 * only comes from a KVM that handed HLT out anyway.
 */
void exit_hlt(struct el_loop *l)
{
	loop_stop(l, EL_RUN_GUEST_CRASH,
		  "KVM_EXIT_HLT: the guest halted and this KVM left waking it to us; entrylab "
		  "delivers no interrupts from user space (end the guest through port 0x%x)",
		  EL_PORT_EXIT);
}

/* No RIP: after a shutdown some KVMs have already reset the vCPU (RIP 0xfff0). */
void exit_shutdown(struct el_loop *l)
{
	loop_stop(l, EL_RUN_GUEST_CRASH, "triple fault (KVM_EXIT_SHUTDOWN)");
}

static const char *const system_events[] = {
	[KVM_SYSTEM_EVENT_SHUTDOWN] = "shutdown",
	[KVM_SYSTEM_EVENT_RESET] = "reset",
	[KVM_SYSTEM_EVENT_CRASH] = "crash",
};

/* A shutdown, reset or crash the guest asked for (PSCI-style, or a triple fault on some KVMs). */
void exit_system_event(struct el_loop *l)
{
	uint32_t type = l->vm->run->system_event.type;
	const char *name = type < EL_ARRAY_SIZE(system_events) && system_events[type]
				   ? system_events[type]
				   : "unknown";

	loop_stop(l, EL_RUN_GUEST_CRASH, "KVM_EXIT_SYSTEM_EVENT: the guest caused a %s (type %u)",
		  name, type);
}

/*
 * The first KVM_RUN enters the state the VMM set up: a refusal there is
 * ours.  Later, the state is what the guest made of it.
 */
void exit_fail_entry(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;
	bool first = l->res->exits_total <= 1;

	loop_stop(l, first ? EL_RUN_VMM_ERROR : EL_RUN_GUEST_CRASH,
		  "KVM_EXIT_FAIL_ENTRY: the CPU refused to enter the guest, hardware entry "
		  "failure reason 0x%llx (on CPU %u), %s",
		  (unsigned long long)run->fail_entry.hardware_entry_failure_reason,
		  run->fail_entry.cpu,
		  first ? "at the first entry: the initial state the VMM set up is invalid"
			: "after the guest changed its state into one the CPU does not accept");
}

/* Internal error suberrors: what KVM says, and who caused it. */
static const struct {
	const char *name;
	enum el_run_status status;
	const char *cause;
} internal_suberrors[] = {
	[KVM_INTERNAL_ERROR_EMULATION] = {"emulation failure", EL_RUN_GUEST_CRASH,
					  "the guest ran an instruction KVM cannot emulate"},
	[KVM_INTERNAL_ERROR_SIMUL_EX] = {"exception while delivering an exception",
					 EL_RUN_GUEST_CRASH,
					 "the guest's IDT or stack cannot take the exception"},
	[KVM_INTERNAL_ERROR_DELIVERY_EV] = {"exit while delivering an event", EL_RUN_GUEST_CRASH,
					    "the guest's IDT, GDT or stack points where KVM "
					    "cannot deliver through (no RAM, MMIO)"},
	[KVM_INTERNAL_ERROR_UNEXPECTED_EXIT_REASON] = {"unexpected hardware exit reason",
						       EL_RUN_VMM_ERROR,
						       "KVM did not expect it: a KVM problem"},
};

/* KVM handed over the bytes it could not emulate: name the instruction. */
static void emulation_failure(struct el_loop *l, const char *rip)
{
	const struct kvm_run *run = l->vm->run;
	unsigned size = run->emulation_failure.insn_size;
	char bytes[3 * 16 + 1] = "", name[32];
	const char *insn;

	if (size > sizeof(run->emulation_failure.insn_bytes))
		size = sizeof(run->emulation_failure.insn_bytes);
	for (unsigned i = 0; i < size; i++)
		snprintf(bytes + 3 * i, sizeof(bytes) - 3 * i, " %02x",
			 run->emulation_failure.insn_bytes[i]);
	insn = insn_name(run->emulation_failure.insn_bytes, size, name, sizeof(name));
	loop_stop(l, EL_RUN_GUEST_CRASH,
		  "KVM_EXIT_INTERNAL_ERROR: suberror 1 (emulation failure): KVM cannot emulate the "
		  "guest's %s%s (bytes:%s)",
		  insn ? insn : "instruction", rip, size ? bytes : " none");
}

void exit_internal_error(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;
	uint32_t sub = run->internal.suberror, n = run->internal.ndata;
	bool known = sub < EL_ARRAY_SIZE(internal_suberrors) && internal_suberrors[sub].name;
	char data[256] = "", rip[48];
	size_t used = 0;

	fault_rip(l, rip, sizeof(rip));
	if (sub == KVM_INTERNAL_ERROR_EMULATION && n >= 3 &&
	    (run->emulation_failure.flags & KVM_INTERNAL_ERROR_EMULATION_FLAG_INSTRUCTION_BYTES)) {
		emulation_failure(l, rip);
		return;
	}
	if (n > EL_ARRAY_SIZE(run->internal.data))
		n = EL_ARRAY_SIZE(run->internal.data);
	for (uint32_t i = 0; i < n && used < sizeof(data); i++)
		used += (size_t)snprintf(data + used, sizeof(data) - used, " 0x%llx",
					 (unsigned long long)run->internal.data[i]);
	loop_stop(l, known ? internal_suberrors[sub].status : EL_RUN_VMM_ERROR,
		  "KVM_EXIT_INTERNAL_ERROR: suberror %u (%s): %s%s, data:%s", sub,
		  known ? internal_suberrors[sub].name : "unknown",
		  known ? internal_suberrors[sub].cause : "a suberror entrylab does not know", rip,
		  n ? data : " none");
}
