/*
 * One trace as library functions (trace.h): the markers found in the kernel
 * image, QEMU run once, its output turned into a run record with a "trace"
 * object.  `entrylab trace` and `entrylab matrix --trace` both run these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "host_elf.h"
#include "host_info.h"
#include "record.h"
#include "status.h"
#include "trace.h"

/* The vDSO image the guest mapped, from the kernel's embedded copies. */
static int vdso_symtab(const struct el_run_spec *spec, const char *console, struct el_symtab *t)
{
	char name[64], sym[96], err[256];
	uint64_t base, lo, hi;
	const unsigned char *img;

	if (!console || !trace_console_vdso(console, name, sizeof(name), &base))
		return -1;
	snprintf(sym, sizeof(sym), "vdso_image_%s", name);
	for (char *c = sym; *c; c++)
		*c = *c == '-' ? '_' : *c;
	lo = elf_symbol_value(spec->kernel, spec->kernel_len, sym);
	strncat(sym, "_end", sizeof(sym) - strlen(sym) - 1);
	hi = elf_symbol_value(spec->kernel, spec->kernel_len, sym);
	img = lo && hi > lo ? elf_vaddr_bytes(spec->kernel, spec->kernel_len, lo, hi - lo) : NULL;
	if (!img)
		return -1;
	return symtab_load(t, "vdso", img, hi - lo, base, err, sizeof(err));
}

/*
 * Kernel, program and vDSO symbols; a table that cannot be read is left out
 * (a Linux kernel's says why on stderr: its instructions then count as
 * "[unknown kernel]").  Linux's vDSO is found by its bytes (trace_linux_vdso).
 */
static void load_maps(const struct el_trace_job *job, const char *console,
		      const struct el_run_result *res, const struct frame_scan *scan,
		      const struct el_trace_data *d, struct el_symtab tabs[3],
		      struct el_trace_maps *m)
{
	const struct el_run_spec *spec = job->spec;
	const unsigned char *prog = job->prog->image;
	size_t plen = job->prog->image_len;
	char err[256];

	memset(m, 0, sizeof(*m));
	if (prog && !symtab_load(&tabs[0], "program", prog, plen, elf_program_bias(prog, plen), err,
				 sizeof(err)))
		m->tabs[m->n++] = &tabs[0];
	if (job->lx) {
		if (!trace_linux_vdso(job, d, m->n ? &tabs[0] : NULL, &tabs[1]))
			m->tabs[m->n++] = &tabs[1];
		if (!trace_linux_kernel_syms(job, res, scan, &tabs[2], err, sizeof(err)))
			m->tabs[m->n++] = &tabs[2];
		else
			fprintf(stderr, "entrylab trace: no Linux kernel symbols: %s\n", err);
		return;
	}
	if (!vdso_symtab(spec, console, &tabs[1]))
		m->tabs[m->n++] = &tabs[1];
	if (!symtab_load(&tabs[2], "kernel", spec->kernel, spec->kernel_len, 0, err, sizeof(err)))
		m->tabs[m->n++] = &tabs[2];
}

/* The run record with what a trace knows and does not: no KVM, no hypercall report. */
static struct json_object *trace_record(const struct el_trace_job *job,
					const struct el_run_result *res,
					const struct el_trace_result *out,
					struct json_object *trace)
{
	const struct el_trace_run *q = &out->q;
	struct el_run_request req = *job->req;
	struct el_host_info host;
	struct json_object *rec, *guest, *cpuid, *region, *qemu = json_object_new_object();

	host_info_get(&host, NULL);
	host.kvm = "tcg";
	req.iterations = out->iterations;
	rec = record_build(&req, job->spec, &host, res);
	json_object_object_del(rec, "vmm");
	json_object_object_add(qemu, "binary", json_object_new_string(q->qemu));
	json_object_object_add(qemu, "accel", json_object_new_string("tcg"));
	json_object_object_add(qemu, "cpu", json_object_new_string(q->cpu));
	json_object_object_add(qemu, "icount", json_object_new_string("shift=0,sleep=off"));
	json_object_object_add(qemu, "bios", q->bios[0] ? json_object_new_string(q->bios) : NULL);
	json_object_object_add(qemu, "exit_code", json_object_new_int(q->exit_code));
	json_object_object_add(qemu, "wall_ms", json_object_new_double(q->wall_ms));
	if (q->qemu_err && *q->qemu_err)
		json_object_object_add(qemu, "stderr", json_object_new_string(q->qemu_err));
	/* A Linux guest's kernel file is guest.kernel (record_build); QEMU's command line here. */
	if (job->lx)
		json_object_object_add(qemu, "append", json_object_new_string(job->lx->cmdline));
	json_object_object_add(rec, "qemu", qemu);
	/* The vCPU's CPUID is what the guest reported seeing; KVM_GET_CPUID2 has no say. */
	if (json_object_object_get_ex(rec, "guest", &guest)) {
		json_object_object_del(guest, "vcpu_cpuid");
		if (json_object_object_get_ex(guest, "cpuid", &cpuid))
			json_object_object_add(guest, "vcpu_cpuid", json_object_get(cpuid));
	}
	/*
	 * Our kernel's region counts arrive on the console under QEMU, not by
	 * hypercall; a Linux guest's come in its RUN frame, as record_build() has them.
	 */
	if (!job->lx) {
		json_object_object_add(rec, "region", trace_region_json(q->console, job->scope,
									out->not_measured));
	} else if (json_object_object_get_ex(rec, "region", &region) && region) {
		/* TCG has no VM exits to count. */
		json_object_object_add(region, "exits", NULL);
	}
	json_object_object_add(rec, "trace", trace);
	return rec;
}

int trace_prepare(struct el_trace_job *job)
{
	const struct el_run_spec *spec = job->spec;
	char cpu[512], err[512];

	job->lx = NULL;
	/* Resolved before boot by request_programs (vmm/region_scope.h), for every caller. */
	job->scope = spec->region_scope;
	if (trace_qemu_cpu(&spec->cpu, cpu, sizeof(cpu), err, sizeof(err))) {
		fprintf(stderr, "entrylab trace: %s\n", err);
		return EL_EXIT_UNSUPPORTED;
	}
	if (spec->guest == EL_GUEST_LINUX)
		return trace_linux_prepare(job);
	job->begin = elf_symbol_value(spec->kernel, spec->kernel_len, "el_region_begin_out");
	job->end = elf_symbol_value(spec->kernel, spec->kernel_len, "el_region_end_out");
	if (!job->begin || !job->end) {
		fprintf(stderr, "entrylab trace: the guest kernel has no el_region_begin_out / "
				"el_region_end_out symbols (guest-kernel/sys/region.c); trace a "
				"kernel built from this tree, with its symbol table\n");
		return job->req->kernel ? EL_EXIT_USAGE : EL_EXIT_VMM;
	}
	return 0;
}

void trace_job_free(struct el_trace_job *job)
{
	trace_linux_free(job->lx);
	job->lx = NULL;
}

/*
 * The region's iterations: a whole program's are what -n says it runs (the
 * request's divisor; 0: totals only); a marked region's what the program
 * declared, from a Linux guest's RUN report, else trace_console_iterations().
 */
static uint64_t region_iterations(const struct el_trace_job *job, const struct el_run_result *res,
				  const char *console)
{
	uint64_t n = job->req->iterations;

	if (job->scope == EL_REGION_SCOPE_WHOLE)
		return n;
	if (job->lx && res->have_run && res->run.region.valid && res->run.region.iterations)
		return res->run.region.iterations;
	if (console)
		trace_console_iterations(console, job->req->bench, &n);
	return n;
}

struct json_object *trace_once(const struct el_trace_job *job, struct el_run_result *res,
			       struct el_trace_result *out)
{
	struct frame_scan scan = {0};
	struct json_object *trace;
	char err[256] = "";

	memset(out, 0, sizeof(*out));
	memset(res, 0, sizeof(*res));
	trace_qemu_run(job, &out->q);
	out->have_data = out->q.plugin_out && !trace_parse(out->q.plugin_out,
							   out->q.plugin_out_len, &out->d, err,
							   sizeof(err));
	trace_outcome(&out->q, &out->d, out->have_data, res);
	if (job->lx)
		trace_linux_outcome(&out->q, res, &scan);
	/* QEMU ran the guest, but what the plugin wrote cannot be read. */
	if (out->q.plugin_out && !out->have_data && !out->q.timed_out && !out->q.signal) {
		res->status = EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "%s", err);
	}
	if (out->have_data && out->d.plugin_error && res->status == EL_RUN_OK) {
		res->status = EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "the eltrace plugin ran out of memory or "
			 "found its counts inconsistent: the trace is not to be trusted");
	}
	out->have_data = out->have_data && out->d.executed;
	out->not_measured = out->have_data ? trace_not_measured(&out->d) : NULL;
	if (out->have_data && !out->not_measured) {
		load_maps(job, out->q.console, res, &scan, &out->d, out->tabs, &out->m);
		if (trace_totals(&out->d, &out->m, &out->t))
			out->have_data = false;
	}
	frame_scan_free(&scan);
	/* Per iteration: what a marked region declared, or -n for a whole program. */
	out->iterations = region_iterations(job, res, out->q.console);
	trace = out->have_data ? trace_json(&out->d, &out->t, out->iterations) : NULL;
	/* Where a Linux kernel's names came from (harness/trace/README.md, "Linux"). */
	if (trace && job->lx && !out->not_measured)
		json_object_object_add(trace, "kernel_symbols", json_object_new_string(
			job->lx->kernel_symtab ? "vmlinux" : job->lx->ksyms ? "kallsyms" : "cache"));
	return trace_record(job, res, out, trace);
}


void trace_result_free(struct el_trace_result *out)
{
	trace_totals_free(&out->t);
	trace_data_free(&out->d);
	for (unsigned i = 0; i < 3; i++)
		symtab_free(&out->tabs[i]);
	trace_run_free(&out->q);
}
