/*
 * Hypercalls: a 32-bit OUT to EL_PORT_HCALL + nr whose value is the
 * guest-physical address of the argument.  Reports are copied out through
 * the checked translator and validated field by field before anything of
 * theirs is believed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "exit.h"
#include "hostout.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

static unsigned config_nr_values(unsigned item)
{
	unsigned n = 0;

	while (el_config[item].values[n])
		n++;
	return n;
}

static int config_check(const uint8_t *vals, const char *field, char *err, size_t errlen)
{
	for (unsigned i = 0; i < EL_CFG_COUNT; i++) {
		uint8_t v = vals[i];

		if (v < config_nr_values(i) || v == EL_CONFIG_UNAVAILABLE || v == EL_CONFIG_UNSET)
			continue;
		return ERR("report %s[%u] (%s) = %u is not a value of %s", field, i,
			   el_config[i].key, v, el_config[i].key);
	}
	return 0;
}

int hcall_report_check(const struct el_report *r, char *err, size_t errlen)
{
	if (r->magic != EL_REPORT_MAGIC)
		return ERR("report magic 0x%08x is not EL_REPORT_MAGIC 0x%08x", r->magic,
			   EL_REPORT_MAGIC);
	if (r->abi_version != EL_ABI_VERSION)
		return ERR("report abi_version %u, but this entrylab speaks %u: rebuild the guest "
			   "kernel with this tree",
			   r->abi_version, EL_ABI_VERSION);
	if (r->size != sizeof(*r))
		return ERR("report size %u is not sizeof(struct el_report) = %zu", r->size,
			   sizeof(*r));
	if (r->kind != EL_REPORT_BOOT && r->kind != EL_REPORT_RUN)
		return ERR("report kind %u is neither BOOT (%u) nor RUN (%u)", r->kind,
			   EL_REPORT_BOOT, EL_REPORT_RUN);
	if (r->nr_counters > EL_MAX_COUNTERS)
		return ERR("report nr_counters %u exceeds EL_MAX_COUNTERS (%u)", r->nr_counters,
			   EL_MAX_COUNTERS);
	for (uint32_t i = 0; i < r->nr_counters; i++) {
		if (r->counters[i].status > EL_COUNTER_NOT_COUNTED)
			return ERR("report counters[%u].status %u is not a counter status", i,
				   r->counters[i].status);
		if (r->markers[i].status > EL_COUNTER_NOT_COUNTED)
			return ERR("report markers[%u].status %u is not a counter status", i,
				   r->markers[i].status);
	}
	if (r->pmu.kind >= EL_PMU_KIND_COUNT)
		return ERR("report pmu.kind %u is not a PMU kind (< %u)", r->pmu.kind,
			   (unsigned)EL_PMU_KIND_COUNT);
	if (config_check(r->config, "config", err, errlen) ||
	    config_check(r->requested, "requested", err, errlen))
		return -1;
	return 0;
}

static void hc_report(struct el_loop *l, uint32_t gpa)
{
	const void *src = el_gpa(l->vm, gpa, sizeof(struct el_report));
	struct el_report r;
	char why[256];

	if (!src) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "EL_HC_REPORT: report at 0x%x (+%zu bytes) is not inside guest RAM", gpa,
			  sizeof(r));
		return;
	}
	memcpy(&r, src, sizeof(r)); /* validate our copy, not memory the guest owns */
	if (hcall_report_check(&r, why, sizeof(why))) {
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

static void hc_region_begin(struct el_loop *l, uint32_t arg)
{
	(void)arg;
	l->res->region_begun = true;
	l->res->region_ended = false;
	l->region_start = l->res->exits_total;
}

static void hc_region_end(struct el_loop *l, uint32_t arg)
{
	(void)arg;
	if (!l->res->region_begun || l->res->region_ended) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO, "EL_HC_REGION_END without a REGION_BEGIN before it");
		return;
	}
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
