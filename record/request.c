/*
 * Run requests (request.h): defaults, the checks every command applies the
 * same way, and the request turned into the VMM's spec and programs.
 */
#include <stdio.h>
#include <string.h>

#include "linux_cmdline.h"
#include "request.h"
#include "status.h"

void request_init(struct el_run_request *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu_spec = "host";
	r->append = "";
	r->repeat = 1;
	r->mem_bytes = EL_DEFAULT_MEMORY;
	r->timeout_s = EL_DEFAULT_TIMEOUT;
	r->pin_cpu = -1;
}

int request_finish(const char *cmd, struct el_run_request *r, struct el_run_spec *spec)
{
	char err[512];

	if (cpuid_spec_parse(r->cpu_spec, &spec->cpu, err, sizeof(err))) {
		fprintf(stderr, "entrylab %s: %s\n", cmd, err);
		return EL_EXIT_USAGE;
	}
	if (strlen(r->append) > 2000) {
		fprintf(stderr, "entrylab %s: --append is longer than 2000 characters; shorten it\n",
			cmd);
		return EL_EXIT_USAGE;
	}
	if (r->guest == EL_GUEST_LINUX) {
		char line[4096];

		/* Linux's knobs pass through; el.* and entrylab-only knobs are refused, named. */
		if (linux_cmdline_compose(line, sizeof(line), r->append, err, sizeof(err))) {
			fprintf(stderr, "entrylab %s: %s\n", cmd, err);
			return EL_EXIT_USAGE;
		}
		if (r->strict) {
			fprintf(stderr, "entrylab %s: --strict checks entrylab's knobs against what our "
				"kernel set up; Linux's own configuration is in the record "
				"(guest.config, guest.linux): drop --strict with --guest linux\n", cmd);
			return EL_EXIT_USAGE;
		}
	} else if (request_check_append(r->append)) {
		return EL_EXIT_USAGE;
	}
	if (events_parse(r->events, &r->ev, err, sizeof(err))) {
		fprintf(stderr, "entrylab %s: %s\n", cmd, err);
		return EL_EXIT_USAGE;
	}
	spec->guest = r->guest;
	spec->append = r->append;
	spec->mem_bytes = r->mem_bytes;
	spec->timeout_s = r->timeout_s;
	spec->pin_cpu = r->pin_cpu;
	spec->verbose = r->verbose;
	events_for_this_cpu(&r->ev, spec->events);
	spec->nr_events = r->ev.n;
	return 0;
}

int request_programs(const char *cmd, struct el_run_request *r, struct el_programs *p,
		     struct el_run_spec *spec)
{
	const struct el_program_choice c = {
		.bench = r->bench, .exec = r->exec, .kernel = r->kernel,
		.args = r->args, .nargs = r->nargs, .iterations = r->iterations,
		.mem_bytes = r->mem_bytes, .guest = r->guest, .region = r->region,
		.events = spec->events, .nr_events = spec->nr_events,
		.files = r->files, .nr_files = r->nr_files,
	};
	char err[600];
	int rc = programs_prepare(p, &c, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "entrylab %s: %s\n", cmd, err);
		return rc;
	}
	programs_spec(p, spec);
	if (p->image) {
		r->args = p->argv;
		r->nargs = p->argc;
		r->iterations = p->iterations;
	}
	return 0;
}
