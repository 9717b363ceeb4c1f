/*
 * The KVM_RUN loop: every exit reason is dispatched from a table, and every
 * reason without a device behind it ends the run on purpose, named (the
 * failures, classed by who caused them: exit_fault.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
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

/* Our kernel's exits. */
static void (*const exit_handlers[])(struct el_loop *) = {
	[KVM_EXIT_IO] = exit_io,
	[KVM_EXIT_MMIO] = exit_mmio,
	[KVM_EXIT_HLT] = exit_hlt,
	[KVM_EXIT_SHUTDOWN] = exit_shutdown,
	[KVM_EXIT_FAIL_ENTRY] = exit_fail_entry,
	[KVM_EXIT_INTERNAL_ERROR] = exit_internal_error,
	[KVM_EXIT_INTR] = exit_intr,
	[KVM_EXIT_SYSTEM_EVENT] = exit_system_event,
};

/*
 * Linux's (linux_mode.c): a port or address with nothing behind it is a
 * probe, answered and counted (dev/legacy.c); a triple fault is Linux
 * resetting the machine.  The rest as for our kernel.
 */
static void (*const linux_handlers[])(struct el_loop *) = {
	[KVM_EXIT_IO] = exit_io,
	[KVM_EXIT_MMIO] = exit_mmio_linux,
	[KVM_EXIT_HLT] = exit_hlt,
	[KVM_EXIT_SHUTDOWN] = exit_shutdown_linux,
	[KVM_EXIT_FAIL_ENTRY] = exit_fail_entry,
	[KVM_EXIT_INTERNAL_ERROR] = exit_internal_error,
	[KVM_EXIT_INTR] = exit_intr,
	[KVM_EXIT_SYSTEM_EVENT] = exit_system_event,
};

void exit_dispatch(struct el_loop *l)
{
	uint32_t reason = l->vm->run->exit_reason;
	void (*fn)(struct el_loop *) = NULL;

	if (l->lx && reason < EL_ARRAY_SIZE(linux_handlers))
		fn = linux_handlers[reason];
	else if (!l->lx && reason < EL_ARRAY_SIZE(exit_handlers))
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
