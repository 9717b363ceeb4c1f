/*
 * A decoded COM1 stream (frame_decode) as a run result: a Linux /init's INFO
 * parsed (frame_linux_info), the reports validated by the VMM's own
 * report_check(), in the order they came, and the EXIT value mapped by the
 * exit port's exit_value_apply().
 */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "report_check.h"

#define FAIL(res, st, ...) \
	(snprintf((res)->detail, sizeof((res)->detail), __VA_ARGS__), (res)->status = (st))

static const uint32_t frame_report_kind[] = {
	[FRAME_BOOT] = EL_REPORT_BOOT,
	[FRAME_RUN] = EL_REPORT_RUN,
};

/*
 * Without a hypercall channel nobody sees the region markers: the RUN
 * report's own region.valid stands for them (its other checks still run).
 */
static void frame_seen_markers(const struct el_report *r, struct el_report_seen *seen)
{
	if (r->kind != EL_REPORT_RUN)
		return;
	seen->region_begun = seen->region_ended = r->region.valid == 1;
}

static int frame_report_accept(const struct frame_report *f, struct el_report_seen *seen,
			       struct el_run_result *res)
{
	const char *name = f->kind == FRAME_BOOT ? "BOOT" : "RUN";
	char why[300];

	if (f->r.kind != frame_report_kind[f->kind]) {
		FAIL(res, EL_RUN_GUEST_BAD_IO, "COM1 %s frame: its report's kind is %u, not %s (%u)",
		     name, f->r.kind, name, frame_report_kind[f->kind]);
		return -1;
	}
	frame_seen_markers(&f->r, seen);
	if (report_check(&f->r, seen, why, sizeof(why))) {
		FAIL(res, EL_RUN_GUEST_BAD_IO, "COM1 %s frame: %s", name, why);
		return -1;
	}
	if (f->kind == FRAME_BOOT) {
		res->boot = f->r;
		res->have_boot = seen->have_boot = true;
	} else {
		res->run = f->r;
		res->have_run = seen->have_run = true;
		res->region_begun = seen->region_begun;
		res->region_ended = seen->region_ended;
	}
	return 0;
}

enum el_run_status frame_result(const struct frame_scan *s, struct el_run_result *res)
{
	struct el_report_seen seen = {0};
	char why[300];

	if (s->count[FRAME_INFO]) {
		if (frame_linux_info(s->info, s->info_len, &res->linux_info, why, sizeof(why)))
			return FAIL(res, EL_RUN_GUEST_BAD_IO, "COM1 %s", why);
		res->have_linux = true;
	}
	for (unsigned i = 0; i < s->nr_reports; i++)
		if (frame_report_accept(&s->reports[i], &seen, res))
			return res->status;
	if (s->bad)
		return FAIL(res, EL_RUN_GUEST_BAD_IO, "%s", s->err);
	if (!s->count[FRAME_EXIT])
		return FAIL(res, EL_RUN_GUEST_CRASH, "no EXIT frame on COM1: the guest stopped "
			    "before its end (%s)", res->have_run ? "after its RUN report"
			    : res->have_boot ? "after its BOOT report, before RUN"
			    : "before any report");
	return exit_value_apply(s->exit_value, res);
}
