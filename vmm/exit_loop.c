/*
 * The KVM_RUN loop: every exit reason is dispatched from a table, and every
 * reason without a device behind it ends the run on purpose, named.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "kvm.h"
#include "timeout.h"

void loop_stop(struct el_loop *l, enum el_run_status st, const char *fmt, ...)
{
	va_list ap;

	if (l->stop)
		return;
	l->stop = true;
	l->res->status = st;
	va_start(ap, fmt);
	vsnprintf(l->res->detail, sizeof(l->res->detail), fmt, ap);
	va_end(ap);
}

double loop_ms(const struct el_loop *l)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - l->t0.tv_sec) * 1e3 +
	       (double)(now.tv_nsec - l->t0.tv_nsec) / 1e6;
}

static void exit_mmio(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;

	loop_stop(l, EL_RUN_GUEST_BAD_IO,
		  "KVM_EXIT_MMIO: guest %s %u bytes at physical 0x%llx, where there is no RAM "
		  "and no device",
		  run->mmio.is_write ? "wrote" : "read", run->mmio.len,
		  (unsigned long long)run->mmio.phys_addr);
}

/*
 * With the in-kernel LAPIC, KVM blocks a halted vCPU itself until an interrupt
 * arrives (a guest halting with IF=0 then runs into --timeout); this exit
 * only comes from a KVM that handed HLT out anyway.
 */
static void exit_hlt(struct el_loop *l)
{
	loop_stop(l, EL_RUN_GUEST_CRASH,
		  "KVM_EXIT_HLT: the guest halted and this KVM left waking it to us; entrylab "
		  "delivers no interrupts from user space (end the guest through port 0x%x)",
		  EL_PORT_EXIT);
}

static void exit_shutdown(struct el_loop *l)
{
	loop_stop(l, EL_RUN_GUEST_CRASH, "triple fault (KVM_EXIT_SHUTDOWN)");
}

static void exit_fail_entry(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;

	loop_stop(l, EL_RUN_VMM_ERROR,
		  "KVM_EXIT_FAIL_ENTRY: the CPU refused to enter the guest, hardware entry "
		  "failure reason 0x%llx (on CPU %u)",
		  (unsigned long long)run->fail_entry.hardware_entry_failure_reason,
		  run->fail_entry.cpu);
}

static const char *const internal_suberrors[] = {
	[KVM_INTERNAL_ERROR_EMULATION] = "emulation failure",
	[KVM_INTERNAL_ERROR_SIMUL_EX] = "exception while delivering an exception",
	[KVM_INTERNAL_ERROR_DELIVERY_EV] = "exit while delivering an event",
	[KVM_INTERNAL_ERROR_UNEXPECTED_EXIT_REASON] = "unexpected hardware exit reason",
};

/* KVM handed over the bytes it could not emulate: name them, a developer can decode them. */
static void emulation_failure(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;
	unsigned size = run->emulation_failure.insn_size;
	char bytes[3 * 16] = "";

	if (size > sizeof(run->emulation_failure.insn_bytes))
		size = sizeof(run->emulation_failure.insn_bytes);
	for (unsigned i = 0; i < size; i++)
		snprintf(bytes + 3 * i, sizeof(bytes) - 3 * i, " %02x",
			 run->emulation_failure.insn_bytes[i]);
	loop_stop(l, EL_RUN_VMM_ERROR,
		  "KVM_EXIT_INTERNAL_ERROR: suberror 1 (emulation failure): KVM cannot emulate the "
		  "instruction at RIP (bytes:%s)",
		  size ? bytes : " none");
}

static void exit_internal_error(struct el_loop *l)
{
	const struct kvm_run *run = l->vm->run;
	uint32_t sub = run->internal.suberror, n = run->internal.ndata;
	const char *name = sub < sizeof(internal_suberrors) / sizeof(internal_suberrors[0]) &&
					   internal_suberrors[sub]
				   ? internal_suberrors[sub]
				   : "unknown";
	char data[256] = "";
	size_t used = 0;

	if (sub == KVM_INTERNAL_ERROR_EMULATION && n >= 3 &&
	    (run->emulation_failure.flags & KVM_INTERNAL_ERROR_EMULATION_FLAG_INSTRUCTION_BYTES)) {
		emulation_failure(l);
		return;
	}
	if (n > sizeof(run->internal.data) / sizeof(run->internal.data[0]))
		n = sizeof(run->internal.data) / sizeof(run->internal.data[0]);
	for (uint32_t i = 0; i < n && used < sizeof(data); i++)
		used += (size_t)snprintf(data + used, sizeof(data) - used, " 0x%llx",
					 (unsigned long long)run->internal.data[i]);
	loop_stop(l, EL_RUN_VMM_ERROR, "KVM_EXIT_INTERNAL_ERROR: suberror %u (%s), data:%s", sub,
		  name, n ? data : " none");
}

/* A signal other than the timeout's interrupted KVM_RUN: just go on. */
static void exit_intr(struct el_loop *l)
{
	l->vm->run->immediate_exit = 0;
}

static void exit_unexpected(struct el_loop *l)
{
	uint32_t reason = l->vm->run->exit_reason;

	loop_stop(l, EL_RUN_VMM_ERROR, "unexpected KVM exit %s (%u): entrylab has no handler for it",
		  kvm_exit_name(reason), reason);
}

static void (*const exit_handlers[])(struct el_loop *) = {
	[KVM_EXIT_IO] = exit_io,
	[KVM_EXIT_MMIO] = exit_mmio,
	[KVM_EXIT_HLT] = exit_hlt,
	[KVM_EXIT_SHUTDOWN] = exit_shutdown,
	[KVM_EXIT_FAIL_ENTRY] = exit_fail_entry,
	[KVM_EXIT_INTERNAL_ERROR] = exit_internal_error,
	[KVM_EXIT_INTR] = exit_intr,
};

static void exit_dispatch(struct el_loop *l)
{
	uint32_t reason = l->vm->run->exit_reason;
	void (*fn)(struct el_loop *) = NULL;

	if (reason < sizeof(exit_handlers) / sizeof(exit_handlers[0]))
		fn = exit_handlers[reason];
	(fn ? fn : exit_unexpected)(l);
}

static void exit_name_set(struct el_loop *l, uint32_t reason)
{
	snprintf(l->res->exit_reason, sizeof(l->res->exit_reason), "%s", kvm_exit_name(reason));
}

void exit_loop_run(struct el_loop *l)
{
	struct kvm_run *run = l->vm->run;

	while (!l->stop) {
		if (__kvm_ioctl(l->vm->vcpu_fd, KVM_RUN, 0) < 0) {
			int e = errno;

			if (e != EINTR && e != EAGAIN) {
				loop_stop(l, EL_RUN_VMM_ERROR, "KVM_RUN failed: %s (errno %d)%s",
					  strerror(e), e,
					  e == EIO ? "; KVM killed the VM, see the kernel log (dmesg)"
						   : "");
				break;
			}
			exit_name_set(l, KVM_EXIT_INTR);
			if (timeout_fired()) {
				loop_stop(l, EL_RUN_TIMEOUT, "guest still running after %g s",
					  l->spec->timeout_s);
				break;
			}
			run->immediate_exit = 0;
			continue;
		}
		l->res->exits_total++;
		exit_name_set(l, run->exit_reason);
		exit_dispatch(l);
	}
}
