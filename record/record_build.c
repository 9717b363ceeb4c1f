/*
 * Turns one run (spec + result) into its record object.  Everything the
 * guest reported was validated by the exit loop; names come from the shared
 * tables (features.def, knobs.h, selfcheck.def).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array_size.h"
#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "entrylab/selfcheck.h"
#include "hostout.h"
#include "output_cap.h"
#include "record.h"
#include "status.h"
#include "text_sanitize.h"

static const struct {
	const char *name;
	int exit_code;
} run_status[] = {
	[EL_RUN_OK] = {EL_STATUS_OK, 0},
	[EL_RUN_GUEST_CRASH] = {EL_STATUS_GUEST_CRASH, EL_EXIT_GUEST_CRASH},
	[EL_RUN_GUEST_BAD_IO] = {EL_STATUS_GUEST_BAD_IO, EL_EXIT_GUEST_BAD_IO},
	[EL_RUN_TIMEOUT] = {EL_STATUS_TIMEOUT, EL_EXIT_TIMEOUT},
	[EL_RUN_VMM_ERROR] = {EL_STATUS_VMM_ERROR, EL_EXIT_VMM},
	[EL_RUN_UNSUPPORTED] = {EL_STATUS_UNSUPPORTED, EL_EXIT_UNSUPPORTED},
};

const char *record_status(const struct el_run_result *res)
{
	return run_status[res->status].name;
}

int record_exit_code(const struct el_run_result *res)
{
	return res->status == EL_RUN_OK ? res->exit_status : run_status[res->status].exit_code;
}

static struct json_object *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_object_new_string(buf);
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *config_obj(const uint8_t *values)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < EL_CFG_COUNT; i++) {
		const char *name;

		if (values[i] == EL_CONFIG_UNAVAILABLE)
			name = "unavailable";
		else if (values[i] == EL_CONFIG_UNSET)
			continue;
		else
			name = el_config[i].values[values[i]];
		put(o, el_config[i].key, json_object_new_string(name));
	}
	return o;
}

static struct json_object *cpuid_bits_obj(uint64_t bits)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < EL_FEAT_COUNT; i++)
		put(o, el_features[i].name, json_object_new_boolean((bits >> i) & 1));
	return o;
}

static struct json_object *vcpu_cpuid_obj(const struct el_cpuid *c)
{
	struct json_object *o = json_object_new_object();
	unsigned i;

	for (i = 0; i < EL_FEAT_COUNT; i++)
		put(o, el_features[i].name, json_object_new_boolean(cpuid_has(c, i)));
	return o;
}

static struct json_object *selfcheck_obj(const struct el_report *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *checks = json_object_new_object();
	bool all = true;
	unsigned i;

	for (i = 0; i < EL_SELFCHECK_COUNT; i++) {
		const char *v = "not-run";

		if (r->selfcheck_run & (1u << i)) {
			v = (r->selfcheck_failed & (1u << i)) ? "failed" : "passed";
			all = all && !(r->selfcheck_failed & (1u << i));
		}
		put(checks, el_selfchecks[i].name, json_object_new_string(v));
	}
	put(o, "passed", json_object_new_boolean(all && r->selfcheck_run));
	put(o, "checks", checks);
	return o;
}

/* The scheduler timer as the guest saw it (struct el_timer_stats). */
static struct json_object *timer_obj(const struct el_timer_stats *t)
{
	struct json_object *o = json_object_new_object();

	put(o, "interrupts", json_object_new_int64((int64_t)t->interrupts));
	put(o, "late_last_ns", json_object_new_int64((int64_t)t->late_last_ns));
	put(o, "late_max_ns", json_object_new_int64((int64_t)t->late_max_ns));
	put(o, "fallbacks", json_object_new_int64((int64_t)t->fallbacks));
	put(o, "polls", json_object_new_int64((int64_t)t->polls));
	put(o, "halt_skips", json_object_new_int64((int64_t)t->halt_skips));
	return o;
}

/* What a Linux guest's /init said of Linux (INFO frame), as Linux showed it. */
static struct json_object *linux_obj(const struct el_run_result *res)
{
	const struct el_linux_info *l = &res->linux_info;
	struct json_object *o;

	if (!res->have_linux)
		return NULL;
	o = json_object_new_object();
	put(o, "release", json_object_new_string(l->release));
	put(o, "cmdline", json_object_new_string(l->cmdline));
	put(o, "meltdown", json_object_new_string(l->meltdown));
	put(o, "clocksource", json_object_new_string(l->clocksource));
	put(o, "vsyscall", json_object_new_string(l->vsyscall));
	return o;
}

static struct json_object *guest_obj(const struct el_run_spec *spec,
				     const struct el_run_result *res)
{
	struct json_object *g = json_object_new_object();
	const struct el_report *b = &res->boot;
	bool linux_guest = spec->guest == EL_GUEST_LINUX;

	put(g, "kind", json_object_new_string(el_guest_kind_names[spec->guest]));
	if (linux_guest) {
		struct json_object *k = json_object_new_object();

		put(k, "file", spec->kernel_file ? json_object_new_string(spec->kernel_file) : NULL);
		put(k, "format", spec->kernel_format ? json_object_new_string(spec->kernel_format)
						     : NULL);
		put(g, "kernel", k);
		put(g, "linux", linux_obj(res));
	}
	if (res->have_boot) {
		put(g, "cpuid", cpuid_bits_obj(b->cpuid));
		/* Linux shows neither its control registers nor what a knob asked. */
		if (!linux_guest) {
			put(g, "cr0", hex(b->cr0));
			put(g, "cr4", hex(b->cr4));
			put(g, "efer", hex(b->efer));
		}
		put(g, "config", config_obj(b->config));
		if (!linux_guest) {
			put(g, "requested", config_obj(b->requested));
			put(g, "selfcheck", selfcheck_obj(b));
		}
		put(g, "pmu", record_guest_pmu_json(b));
	}
	put(g, "vcpu_cpuid", vcpu_cpuid_obj(&res->vcpu_cpuid));
	if (res->have_run || res->have_boot)
		put(g, "timer", timer_obj(res->have_run ? &res->run.timer : &b->timer));
	if (res->have_run) {
		put(g, "unknown_syscalls", json_object_new_int64((int64_t)res->run.unknown_syscalls));
	} else if (res->have_boot) {
		put(g, "unknown_syscalls", json_object_new_int64((int64_t)b->unknown_syscalls));
	}
	if (res->status == EL_RUN_OK)
		put(g, "exit_status", json_object_new_int(res->exit_status));
	else
		put(g, "exit_status", NULL);
	return g;
}

static struct json_object *counted(const struct el_region *r, uint32_t bit, uint64_t v)
{
	return (r->unknown & bit) ? NULL : json_object_new_int64((int64_t)v);
}

/*
 * Why a run that had a program measured no region, for the record's
 * region.not_measured and the summary (NULL when it measured one, or ran
 * no program).
 */
const char *record_region_missing(const struct el_run_spec *spec, const struct el_run_result *res)
{
	if (spec->region_scope == EL_REGION_SCOPE_NONE || (res->have_run && res->run.region.valid))
		return NULL;
	if (!res->have_run)
		return "the run ended before the guest reported the program's region";
	if (spec->region_scope == EL_REGION_SCOPE_WHOLE)
		return "the program never ran in user mode";
	if (res->region_begun)
		return "the program's BEGIN marker ran but no END marker after it";
	return "the program's markers never ran (no BEGIN marker); --region whole measures "
	       "the whole program";
}

/*
 * region: the scope always (when a program ran), the figures when measured,
 * else null with the reason: never a 0 nobody counted.
 */
static struct json_object *region_obj(const struct el_run_spec *spec,
				      const struct el_run_result *res)
{
	const struct el_region *r = &res->run.region;
	const char *missing = record_region_missing(spec, res);
	struct json_object *o;

	if (spec->region_scope == EL_REGION_SCOPE_NONE)
		return NULL;
	o = json_object_new_object();
	put(o, "scope", json_object_new_string(el_region_scope_record[spec->region_scope]));
	if (missing) {
		static const char *const keys[] = {"tsc_ticks", "tsc_khz", "exits", "syscalls",
						   "page_faults", "interrupts"};

		for (size_t i = 0; i < EL_ARRAY_SIZE(keys); i++)
			put(o, keys[i], NULL);
		put(o, "not_measured", json_object_new_string(missing));
		return o;
	}
	put(o, "tsc_ticks", json_object_new_int64((int64_t)(r->tsc_end - r->tsc_begin)));
	put(o, "tsc_khz", json_object_new_int64((int64_t)(r->tsc_khz ? r->tsc_khz : res->tsc_khz)));
	/* The VMM sees a Linux guest's region markers no more than Linux's counts: null. */
	put(o, "exits", spec->guest == EL_GUEST_LINUX
				? NULL : json_object_new_int64((int64_t)res->region_exits));
	/* A field the kernel could not count is null, never 0 (abi.h EL_REGION_UNKNOWN_*). */
	put(o, "syscalls", counted(r, EL_REGION_UNKNOWN_SYSCALLS, r->syscalls));
	put(o, "page_faults", counted(r, EL_REGION_UNKNOWN_PAGE_FAULTS, r->page_faults));
	put(o, "interrupts", counted(r, EL_REGION_UNKNOWN_INTERRUPTS, r->interrupts));
	return o;
}

static struct json_object *request_obj(const struct el_run_request *req)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ev = json_object_new_array();
	struct json_object *files = json_object_new_array();

	put(o, "cpu", json_object_new_string(req->cpu_spec));
	put(o, "append", json_object_new_string(req->append));
	if (req->events) {
		char buf[512], *save, *tok;

		snprintf(buf, sizeof(buf), "%s", req->events);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			json_object_array_add(ev, json_object_new_string(tok));
	}
	put(o, "events", ev);
	put(o, "memory", json_object_new_int64((int64_t)req->mem_bytes));
	put(o, "timeout", json_object_new_double(req->timeout_s));
	put(o, "strict", json_object_new_boolean(req->strict));
	for (unsigned i = 0; i < req->nr_files; i++) {
		struct json_object *f = json_object_new_object();

		put(f, "host", json_object_new_string(req->files[i].host));
		put(f, "guest", json_object_new_string(req->files[i].guest));
		put(f, "bytes", json_object_new_int64((int64_t)req->files[i].bytes));
		json_object_array_add(files, f);
	}
	put(o, "files", files);
	return o;
}

/*
 * bench: name, args, and the iterations in the benchmark's unit: the count
 * the program declared to its region marker when the run reported one,
 * else what its arguments ask for (bench_iterations); pagefault adds its
 * rounds and size, since its iteration is a fault, not a round.
 */
static struct json_object *bench_obj(const struct el_run_request *req,
				     const struct el_run_result *res)
{
	struct json_object *o = json_object_new_object();
	struct json_object *args = json_object_new_array();
	const struct el_bench *b = req->bench ? bench_find(req->bench) : NULL;
	struct el_bench_iter it = {0};
	uint64_t n = record_iterations(req, res);
	int i;

	put(o, "name", req->bench   ? json_object_new_string(req->bench)
		       : req->exec ? json_object_new_string(req->exec)
				   : NULL);
	for (i = 0; i < req->nargs; i++)
		json_object_array_add(args, json_object_new_string(req->args[i]));
	put(o, "args", args);
	put(o, "iterations", n ? json_object_new_int64((int64_t)n) : NULL);
	if (b)
		bench_iterations(b, req->args, req->nargs, &it);
	put(o, "unit", it.unit ? json_object_new_string(it.unit) : NULL);
	if (it.rounds) {
		put(o, "rounds", json_object_new_int64((int64_t)it.rounds));
		put(o, "size", json_object_new_int64((int64_t)it.size));
	}
	return o;
}

/* vmm.jail: the confinement the VMM process read back after applying it (vmm/confine.h). */
static struct json_object *jail_obj(const struct el_confine_info *j)
{
	struct json_object *o = json_object_new_object(), *fds = json_object_new_array();

	if (!j->applied) {
		json_object_put(fds);
		put(o, "applied", json_object_new_boolean(0));
		return o;
	}
	put(o, "applied", json_object_new_boolean(1));
	put(o, "seccomp", json_object_new_string(j->seccomp));
	put(o, "seccomp_mode", j->seccomp_mode >= 0 ? json_object_new_int(j->seccomp_mode) : NULL);
	put(o, "syscalls_allowed", json_object_new_int((int)j->syscalls_allowed));
	put(o, "no_new_privs", j->no_new_privs >= 0 ? json_object_new_int(j->no_new_privs) : NULL);
	put(o, "uid", j->uid >= 0 ? json_object_new_int64(j->uid) : NULL);
	put(o, "gid", j->gid >= 0 ? json_object_new_int64(j->gid) : NULL);
	put(o, "cap_eff", j->cap_eff[0] ? json_object_new_string(j->cap_eff) : NULL);
	put(o, "cap_bnd", j->cap_bnd[0] ? json_object_new_string(j->cap_bnd) : NULL);
	for (unsigned i = 0; i < j->nr_fds; i++)
		json_object_array_add(fds, json_object_new_int(j->fds[i]));
	put(o, "fds", fds);
	return o;
}

/* Top ports first: most accesses, then the lower port. */
static int legacy_port_cmp(const void *a, const void *b)
{
	const struct el_legacy_port *x = a, *y = b;
	uint64_t nx = x->reads + x->writes, ny = y->reads + y->writes;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return (int)x->port - (int)y->port;
}

/*
 * vmm.legacy_io (Linux only): the ports and MMIO Linux probed where there
 * is nothing (vmm/dev/legacy.c), all ones read, writes dropped; the
 * EL_LEGACY_TOP busiest ports by name.
 */
#define EL_LEGACY_TOP 5
static struct json_object *legacy_obj(const struct el_legacy_io *g)
{
	struct json_object *o = json_object_new_object(), *ports = json_object_new_array();
	struct json_object *mmio = json_object_new_object();
	struct el_legacy_port top[EL_LEGACY_PORTS];
	unsigned n = g->nr_ports < EL_LEGACY_PORTS ? g->nr_ports : EL_LEGACY_PORTS;
	char name[16];

	memcpy(top, g->ports, n * sizeof(top[0]));
	qsort(top, n, sizeof(top[0]), legacy_port_cmp);
	put(o, "reads", json_object_new_int64((int64_t)g->reads));
	put(o, "writes", json_object_new_int64((int64_t)g->writes));
	for (unsigned i = 0; i < n && i < EL_LEGACY_TOP; i++) {
		struct json_object *p = json_object_new_object();

		snprintf(name, sizeof(name), "0x%x", top[i].port);
		put(p, "port", json_object_new_string(name));
		put(p, "reads", json_object_new_int64((int64_t)top[i].reads));
		put(p, "writes", json_object_new_int64((int64_t)top[i].writes));
		json_object_array_add(ports, p);
	}
	put(o, "ports", ports);
	put(mmio, "reads", json_object_new_int64((int64_t)g->mmio_reads));
	put(mmio, "writes", json_object_new_int64((int64_t)g->mmio_writes));
	put(mmio, "first", g->mmio_reads || g->mmio_writes ? hex(g->mmio_first) : NULL);
	put(o, "mmio", mmio);
	return o;
}

static struct json_object *vmm_obj(const struct el_run_spec *spec,
				   const struct el_run_result *res)
{
	struct json_object *o = json_object_new_object();

	put(o, "exit_reason", json_object_new_string(res->exit_reason));
	put(o, "exits", json_object_new_int64((int64_t)res->exits_total));
	{
		struct json_object *io = json_object_new_object();

		for (unsigned i = 0; i < EL_IO_DEVICES; i++)
			put(io, exit_io_device_name(i), json_object_new_int64((int64_t)res->io_exits[i]));
		put(o, "io_exits", io);
	}
	if (spec->guest == EL_GUEST_LINUX)
		put(o, "legacy_io", legacy_obj(&res->legacy));
	put(o, "boot_ms", json_object_new_double(res->boot_ms));
	put(o, "wall_ms", json_object_new_double(res->wall_ms));
	put(o, "tsc_khz", json_object_new_int64((int64_t)res->tsc_khz));
	put(o, "output", json_object_new_string(res->jail.output[0] ? res->jail.output
							  : hostout_backend()));
	put(o, "jail", jail_obj(&res->jail));
	put(o, "peak_rss_kb", res->peak_rss_kb ? json_object_new_int64(res->peak_rss_kb) : NULL);
	if (res->peak_rss_kb) { /* the native VMM ran: it counted the program's output */
		struct json_object *po = json_object_new_object();

		put(po, "bytes", json_object_new_int64((int64_t)res->output_bytes));
		put(po, "dropped", json_object_new_int64((int64_t)res->output_dropped));
		put(o, "program_output", po);
	} else {
		put(o, "program_output", NULL);
	}
	if (res->regs[0])
		put(o, "registers", json_object_new_string(res->regs));
	return o;
}

/* Guest bytes as a JSON string: valid UTF-8 (text_sanitize.h); *replaced counts substitutions. */
static struct json_object *guest_text(const char *s, size_t len, uint64_t *replaced)
{
	size_t n = 0;
	char *t = text_sanitize_utf8(s ? s : "", s ? len : 0, &n, replaced);
	struct json_object *o = t ? json_object_new_string_len(t, (int)n) : NULL;

	free(t);
	return o;
}

/* How much of the console the record holds (results/README.md, "Guest output"). */
static struct json_object *console_info(const struct el_run_result *res, uint64_t replaced)
{
	struct json_object *o = json_object_new_object();

	put(o, "bytes", json_object_new_int64((int64_t)res->console_bytes));
	put(o, "kept", json_object_new_int64((int64_t)(res->console_bytes - res->console_dropped)));
	put(o, "dropped", json_object_new_int64((int64_t)res->console_dropped));
	put(o, "truncated", json_object_new_boolean(res->console_dropped > 0));
	put(o, "replaced", json_object_new_int64((int64_t)replaced));
	put(o, "cap", json_object_new_int64(EL_OUTPUT_CAP));
	return o;
}

struct json_object *record_build(const struct el_run_request *req, const struct el_run_spec *spec, const struct el_host_info *host,
				 const struct el_run_result *res)
{
	struct json_object *rec = json_object_new_object();
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	uint64_t replaced = 0;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);

	put(rec, "schema", json_object_new_string(EL_RECORD_SCHEMA));
	put(rec, "status", json_object_new_string(record_status(res)));
	if (res->detail[0])
		put(rec, "detail", guest_text(res->detail, strlen(res->detail), NULL));
	put(rec, "bench", bench_obj(req, res));
	put(rec, "request", request_obj(req));
	put(rec, "host", host_info_json(host));
	put(rec, "guest", guest_obj(spec, res));
	put(rec, "region", region_obj(spec, res));
	put(rec, "counters", record_counters_json(req, spec, res));
	put(rec, "vmm", vmm_obj(spec, res));
	put(rec, "console", guest_text(res->console, res->console_len, &replaced));
	put(rec, "console_info", console_info(res, replaced));
	put(rec, "time", json_object_new_string(when));
	put(rec, "version", json_object_new_string(ENTRYLAB_VERSION));
	return rec;
}
