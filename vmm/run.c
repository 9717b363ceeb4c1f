/*
 * vm_run_here(): one boot of the guest, start to end, in the child that
 * el_vm_run() (jail.c) forks.  Set-up reads as a checklist (VM, CPUID,
 * kernel, start_info, vCPU state, pinning, timeout); the first step that
 * fails ends the run with its status and message.
 * A Linux guest (spec->guest) gets its devices with the VM (the PIT, COM1's
 * interrupt: vm.h EL_VM_LINUX), its kernel by run_boot_linux(), the loop's
 * Linux mode (exit.h, linux_mode.c), and its result from /init's frames.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "events.h"
#include "confine.h"
#include "exit.h"
#include "hostout.h"
#include "kvm.h"
#include "linux_boot.h"
#include "linux_cmdline.h"
#include "linux_load.h"
#include "pvh_load.h"
#include "pvh_start.h"
#include "region_scope.h"
#include "regs_dump.h"
#include "timeout.h"
#include "xcr0.h"

struct run_ctx {
	struct el_loop loop;
	struct el_vm vm;
	struct el_linux_mode lx; /* --guest linux only */
	struct el_timeout timeout;
	cpu_set_t old_affinity;
	bool pinned;
	struct el_cpuid supported, wanted;
	char cmdline[EL_CMDLINE_MAX];
	char err[512];
};

static int run_fail(struct run_ctx *c, enum el_run_status st)
{
	loop_stop(&c->loop, st, "%s", c->err);
	return -1;
}

static int run_kvm_fail(struct run_ctx *c, const char *what, const char *fallback)
{
	const char *why = kvm_last_error();

	snprintf(c->err, sizeof(c->err), "%s: %s", what, *why ? why : fallback);
	return run_fail(c, EL_RUN_VMM_ERROR);
}

/* KVM's CPUID, the --cpu policy on top, into the vCPU and read back for the record. */
static int run_cpuid(struct run_ctx *c)
{
	struct el_run_result *res = c->loop.res;

	if (cpuid_kvm_supported(c->vm.kvm_fd, &c->supported))
		return run_kvm_fail(c, "cannot read KVM's supported CPUID",
				    "KVM_GET_SUPPORTED_CPUID failed");
	if (cpuid_apply(&c->supported, &c->loop.spec->cpu, &c->wanted, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_UNSUPPORTED);
	if (cpuid_kvm_set(c->vm.vcpu_fd, &c->wanted))
		return run_kvm_fail(c, "cannot set the vCPU's CPUID", "KVM_SET_CPUID2 failed");
	if (cpuid_kvm_get(c->vm.vcpu_fd, &res->vcpu_cpuid))
		return run_kvm_fail(c, "cannot read the vCPU's CPUID back", "KVM_GET_CPUID2 failed");
	/* Some KVMs (kvm_pvm) silently keep their own CPUID: an explicit toggle must not be lost. */
	if (cpuid_check_kept(&c->loop.spec->cpu, &c->wanted, &res->vcpu_cpuid, c->err,
			     sizeof(c->err)))
		return run_fail(c, EL_RUN_UNSUPPORTED);
	return 0;
}

/*
 * The XCR0 our kernel will set, given to the vCPU before it runs
 * (xcr0.h: KVM nested under QEMU before 8.2 never sees the guest's XSETBV).
 */
static int run_xcr0(struct run_ctx *c)
{
	uint64_t x = xcr0_guest_choice(&c->loop.res->vcpu_cpuid);

	if (xcr0_preset(c->vm.kvm_fd, c->vm.vcpu_fd, x, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	return 0;
}

/* Kernel, then start_info above the boot-info area, then the vCPU's entry state. */
static int run_boot_image(struct run_ctx *c)
{
	const struct el_run_spec *spec = c->loop.spec;
	struct pvh_image img;
	char why[400];
	uint64_t si;

	if (!spec->kernel || !spec->kernel_len) {
		snprintf(c->err, sizeof(c->err), "no guest kernel image to boot");
		return run_fail(c, EL_RUN_VMM_ERROR);
	}
	if (pvh_load(spec->kernel, spec->kernel_len, &c->vm.mem, &img, why, sizeof(why))) {
		snprintf(c->err, sizeof(c->err), "cannot load the guest kernel: %s", why);
		return run_fail(c, EL_RUN_VMM_ERROR);
	}
	if (pvh_cmdline_compose(c->cmdline, sizeof(c->cmdline), spec->append, c->loop.res->tsc_khz,
				c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	if (events_cmdline_append(c->cmdline, sizeof(c->cmdline), spec->events, spec->nr_events,
				  c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_UNSUPPORTED);
	if (region_cmdline_append(c->cmdline, sizeof(c->cmdline), spec->region_scope, c->err,
				  sizeof(c->err)))
		return run_fail(c, EL_RUN_UNSUPPORTED);
	if ((spec->argv0 && *spec->argv0) || (spec->init_args && *spec->init_args)) {
		size_t used = strlen(c->cmdline);
		int n = snprintf(c->cmdline + used, sizeof(c->cmdline) - used, "%s%s -- %s",
				 spec->argv0 && *spec->argv0 ? " el.argv0=" : "",
				 spec->argv0 ? spec->argv0 : "",
				 spec->init_args ? spec->init_args : "");

		if (n < 0 || (size_t)n >= sizeof(c->cmdline) - used) {
			snprintf(c->err, sizeof(c->err), "the guest command line with the program's "
				 "arguments exceeds %zu bytes: shorten the arguments or --append",
				 sizeof(c->cmdline) - 1);
			return run_fail(c, EL_RUN_UNSUPPORTED);
		}
	}
	si = pvh_start_build(&c->vm.mem, c->cmdline, img.hi, spec->initrd, spec->initrd_len, c->err,
			     sizeof(c->err));
	if (!si)
		return run_fail(c, EL_RUN_VMM_ERROR);
	if (vcpu_boot(&c->vm, img.entry, si, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	return 0;
}

/*
 * A Linux kernel (linux_load.h): loaded as the CLI checked it, the command
 * line composed (common/linux_cmdline.h: the base, then the user's
 * --append), then its PVH entry (start_info, module 0 the initrd) or
 * Linux's 64-bit boot protocol (linux_boot.h).  The program, its arguments
 * and the events are in the initrd (linux_init.h), not on the command line.
 */
static int run_boot_linux(struct run_ctx *c)
{
	const struct el_run_spec *spec = c->loop.spec;
	struct linux_image li;
	struct linux_entry e;
	char why[400];
	uint64_t si;

	if (!spec->kernel || !spec->kernel_len) {
		snprintf(c->err, sizeof(c->err), "no Linux kernel image to boot");
		return run_fail(c, EL_RUN_VMM_ERROR);
	}
	if (linux_parse(spec->kernel, spec->kernel_len, spec->mem_bytes, spec->initrd_len, &li,
			why, sizeof(why)) ||
	    linux_load(spec->kernel, spec->kernel_len, &li, &c->vm.mem, why, sizeof(why))) {
		snprintf(c->err, sizeof(c->err), "cannot load the Linux kernel: %s", why);
		return run_fail(c, EL_RUN_VMM_ERROR);
	}
	if (linux_cmdline_compose(c->cmdline, sizeof(c->cmdline), spec->append, c->err,
				  sizeof(c->err)))
		return run_fail(c, EL_RUN_UNSUPPORTED);
	if (strlen(c->cmdline) + 1 > li.cmdline_max) {
		snprintf(c->err, sizeof(c->err), "the Linux command line is %zu bytes; this kernel "
			 "takes at most %u: shorten --append", strlen(c->cmdline),
			 li.cmdline_max - 1);
		return run_fail(c, EL_RUN_UNSUPPORTED);
	}
	if (li.kind == LINUX_PVH) {
		si = pvh_start_build(&c->vm.mem, c->cmdline, li.hi, spec->initrd, spec->initrd_len,
				     c->err, sizeof(c->err));
		if (!si || vcpu_boot(&c->vm, li.entry, si, c->err, sizeof(c->err)))
			return run_fail(c, EL_RUN_VMM_ERROR);
		return 0;
	}
	if (linux_boot_build(&c->vm.mem, spec->kernel, &li, c->cmdline, spec->initrd,
			     spec->initrd_len, &e, c->err, sizeof(c->err)) ||
	    vcpu_boot_long(&c->vm, &e, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	return 0;
}

static int run_pin(struct run_ctx *c, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(c->old_affinity), &c->old_affinity)) {
		snprintf(c->err, sizeof(c->err), "--pin %d: no such CPU; choose one this process "
			 "may run on (see nproc)", cpu);
		return run_fail(c, EL_RUN_UNSUPPORTED);
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(c->err, sizeof(c->err),
			 "--pin %d: cannot run the vCPU thread there (%s); choose a CPU this "
			 "process may use (see nproc, taskset -p $$)",
			 cpu, strerror(errno));
		return run_fail(c, EL_RUN_UNSUPPORTED);
	}
	c->pinned = true;
	return 0;
}

/* Seconds of --timeout left since VM creation (at least 1 ms: the timer fires at once). */
static double run_left_s(struct run_ctx *c)
{
	double left = c->loop.spec->timeout_s - loop_ms(&c->loop) / 1e3;

	return left > 1e-3 ? left : 1e-3;
}

/*
 * The deadline for hostout's waits on a stalled reader: t0 + --timeout, less
 * a margin (a tenth, at most 0.5 s) so the record is written before the
 * deadline is spent.
 */
static void run_deadline(struct run_ctx *c)
{
	struct timespec d = c->loop.t0;
	double s = c->loop.spec->timeout_s;
	double margin = s / 10 < 0.5 ? s / 10 : 0.5;

	if (s <= 0) {
		hostout_set_deadline(NULL);
		return;
	}
	s -= margin;
	d.tv_sec += (time_t)s;
	d.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
	if (d.tv_nsec >= 1000000000L) {
		d.tv_sec++;
		d.tv_nsec -= 1000000000L;
	}
	hostout_set_deadline(&d);
}

/*
 * The program's output to the host, within the deadline.  A reader that
 * stalled past it turns an ended run into a timeout: the record says so and
 * is written before the deadline is spent much further.
 */
static void run_drain(struct run_ctx *c)
{
	struct el_run_result *res = c->loop.res;
	struct hostout_stats st;
	bool drained = hostout_flush();

	hostout_take_stats(&st);
	res->output_bytes = st.bytes;
	res->output_dropped = st.dropped;
	if (st.stalled && res->status == EL_RUN_TIMEOUT) {
		size_t n = strlen(res->detail);

		snprintf(res->detail + n, sizeof(res->detail) - n, "; %llu bytes of program output "
			 "were dropped: nothing read entrylab's stdout/stderr",
			 (unsigned long long)st.dropped);
	}
	if (drained || res->status != EL_RUN_OK)
		return; /* an earlier ending keeps its status and detail */
	res->status = EL_RUN_TIMEOUT;
	snprintf(res->detail, sizeof(res->detail), "--timeout %.3g s passed with entrylab's "
		 "stdout/stderr not read: %llu of %llu bytes of program output dropped; read "
		 "entrylab's output (do not leave the pipe stalled) or raise --timeout",
		 c->loop.spec->timeout_s, (unsigned long long)st.dropped,
		 (unsigned long long)st.bytes);
}

static int run_setup(struct run_ctx *c)
{
	const struct el_run_spec *spec = c->loop.spec;
	bool linux_guest = spec->guest == EL_GUEST_LINUX;

	if (linux_guest && linux_mode_init(&c->lx, &c->loop, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	if (vm_create(&c->vm, spec->mem_bytes, linux_guest ? EL_VM_LINUX : 0, c->err,
		      sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	c->loop.res->tsc_khz = vm_tsc_khz(&c->vm);
	if (run_cpuid(c) || (!linux_guest && run_xcr0(c)) ||
	    (linux_guest ? run_boot_linux(c) : run_boot_image(c)) ||
	    run_pin(c, spec->pin_cpu))
		return -1;
	/* One deadline from VM creation: set-up, the guest and draining its output. */
	if (spec->timeout_s > 0 &&
	    timeout_arm(&c->timeout, c->vm.run, run_left_s(c), c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	return 0;
}

/* This process's peak resident set (ru_maxrss, KiB): guest memory touched plus the VMM's own. */
static long run_peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss;
}

/* Last before the first KVM_RUN: fds closed, root and capabilities gone, seccomp on. */
static int run_confine(struct run_ctx *c, int keep_fd)
{
	if (confine_apply(&c->vm, keep_fd, &c->loop.res->jail, c->err, sizeof(c->err)))
		return run_fail(c, EL_RUN_VMM_ERROR);
	return 0;
}

/* The VMM proper, in jail.c's child: set-up, confinement (confine.h), the loop. */
void vm_run_here(const struct el_run_spec *spec, struct el_run_result *res, int keep_fd)
{
	struct run_ctx *c = calloc(1, sizeof(*c));

	memset(res, 0, sizeof(*res));
	if (!c) {
		res->status = EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "out of memory");
		return;
	}
	c->loop = (struct el_loop){.vm = &c->vm, .spec = spec, .res = res};
	clock_gettime(CLOCK_MONOTONIC, &c->loop.t0);
	run_deadline(c);
	kvm_last_error_clear();

	if (!run_setup(c) && !run_confine(c, keep_fd)) {
		exit_loop_run(&c->loop);
		if (res->status != EL_RUN_OK)
			regs_dump(c->vm.vcpu_fd, res->regs, sizeof(res->regs));
	}
	if (c->loop.lx) {
		linux_mode_finish(&c->loop); /* the frames: the run's result */
		linux_mode_free(&c->lx);
	}
	console_finish(&c->loop);
	run_drain(c); /* the program's output before anything we print next */
	timeout_disarm(&c->timeout);
	if (c->pinned)
		sched_setaffinity(0, sizeof(c->old_affinity), &c->old_affinity);
	vm_destroy(&c->vm);
	res->wall_ms = loop_ms(&c->loop);
	res->peak_rss_kb = run_peak_rss_kb();
	free(c);
}

void el_run_result_free(struct el_run_result *res)
{
	free(res->console);
	res->console = NULL;
	res->console_len = 0;
}
