/*
 * Hypercalls: a 32-bit OUT to EL_PORT_HCALL + nr whose value is the
 * guest-physical address of the argument.  Reports are copied out through
 * the checked translator and validated (report_check.c: shape, order,
 * consistency with the markers this loop saw) before anything of theirs is
 * believed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "hostout.h"
#include "report_check.h"

/* What this run's loop saw so far, for report_check(). */
static struct el_report_seen hcall_seen(const struct el_loop *l)
{
	return (struct el_report_seen){
		.have_boot = l->res->have_boot,
		.have_run = l->res->have_run,
		.region_begun = l->res->region_begun,
		.region_ended = l->res->region_ended,
		.scope = (uint8_t)l->spec->region_scope,
	};
}

static void hc_report(struct el_loop *l, uint32_t gpa)
{
	const void *src = el_gpa(l->vm, gpa, sizeof(struct el_report));
	struct el_report_seen seen = hcall_seen(l);
	struct el_report r;
	char why[256];

	if (!src) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "EL_HC_REPORT: report at 0x%x (+%zu bytes) is not inside guest RAM", gpa,
			  sizeof(r));
		return;
	}
	memcpy(&r, src, sizeof(r)); /* validate our copy, not memory the guest owns */
	if (report_check(&r, &seen, why, sizeof(why))) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO, "EL_HC_REPORT at 0x%x: %s", gpa, why);
		return;
	}
	if (!l->res->have_boot && !l->res->have_run)
		l->res->boot_ms = loop_ms(l);
	if (r.kind == EL_REPORT_BOOT) {
		l->res->boot = r;
		l->res->have_boot = true;
	} else {
		l->res->run = r;
		l->res->have_run = true;
	}
}

/*
 * The program's stdout/stderr: copied out of guest memory (checked) and
 * written to ours, or both to stderr when stdout carries --json/-x output.
 */
static void hc_write(struct el_loop *l, uint32_t gpa)
{
	const struct el_write *wp = el_gpa(l->vm, gpa, sizeof(struct el_write));
	struct el_write w;
	const void *buf;

	if (!wp) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO, "EL_HC_WRITE: argument at 0x%x is not inside guest RAM",
			  gpa);
		return;
	}
	memcpy(&w, wp, sizeof(w));
	if (w.fd > 2 || w.len > EL_WRITE_MAX) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "EL_HC_WRITE at 0x%x: fd %u / length %u (want fd 0, 1 or 2, length <= %u)", gpa,
			  w.fd, w.len, EL_WRITE_MAX);
		return;
	}
	buf = el_gpa(l->vm, w.gpa, w.len ? w.len : 1);
	if (!buf) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "EL_HC_WRITE: buffer 0x%llx (+%u bytes) is not inside guest RAM",
			  (unsigned long long)w.gpa, w.len);
		return;
	}
	if (w.fd == EL_WRITE_CONSOLE) {
		for (uint32_t i = 0; i < w.len; i++)
			console_put(l, ((const char *)buf)[i]);
		return;
	}
	/* Queued to io_uring: the vCPU goes back into KVM_RUN at once. */
	hostout_write(w.fd == 2 || l->spec->program_output_to_stderr ? 2 : 1, buf, w.len);
}

/* A region marker out of order (before BOOT, after RUN, END without BEGIN) stops the run. */
static bool hc_marker_ok(struct el_loop *l, unsigned nr)
{
	struct el_report_seen seen = hcall_seen(l);
	char why[256];

	if (!report_check_marker(nr, &seen, why, sizeof(why)))
		return true;
	loop_stop(l, EL_RUN_GUEST_BAD_IO, "%s", why);
	return false;
}

static void hc_region_begin(struct el_loop *l, uint32_t arg)
{
	(void)arg;
	if (!hc_marker_ok(l, EL_HC_REGION_BEGIN))
		return;
	l->res->region_begun = true;
	l->res->region_ended = false;
	l->region_start = l->res->exits_total;
}

static void hc_region_end(struct el_loop *l, uint32_t arg)
{
	(void)arg;
	if (!hc_marker_ok(l, EL_HC_REGION_END))
		return;
	/* Exits strictly between the two markers: neither marker counts. */
	l->res->region_exits = l->res->exits_total - 1 - l->region_start;
	l->res->region_ended = true;
}

static void (*const hcalls[EL_HC_COUNT])(struct el_loop *, uint32_t) = {
	[EL_HC_REPORT] = hc_report,
	[EL_HC_REGION_BEGIN] = hc_region_begin,
	[EL_HC_REGION_END] = hc_region_end,
	[EL_HC_WRITE] = hc_write,
};

void hcall_io(struct el_loop *l, const struct el_io *io)
{
	unsigned nr = io->port - EL_PORT_HCALL;
	uint32_t arg;

	if (!io->out && io->size == 4 && io->count == 1 && nr == 0) {
		uint32_t probe = EL_HCALL_PROBE; /* "entrylab is here" */

		memcpy(io->data, &probe, sizeof(probe));
		return;
	}
	if (!io->out || io->size != 4 || io->count != 1) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: %u-byte %s at hypercall port 0x%x; hypercalls are one 32-bit "
			  "OUT",
			  io->size, io->out ? "OUT" : "IN", io->port);
		return;
	}
	if (nr >= EL_HC_COUNT || !hcalls[nr]) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO, "unknown hypercall %u (port 0x%x)", nr, io->port);
		return;
	}
	memcpy(&arg, io->data, sizeof(arg));
	hcalls[nr](l, arg);
}
