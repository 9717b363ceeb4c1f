/* struct el_report from Linux's facts and the program's region page. */
#include "report.h"

#include <string.h>

static void report_init(struct el_report *r, uint32_t kind)
{
	memset(r, 0, sizeof(*r));
	r->magic = EL_REPORT_MAGIC;
	r->abi_version = EL_ABI_VERSION;
	r->size = sizeof(*r);
	r->kind = kind;
	memset(r->config, EL_CONFIG_UNSET, sizeof(r->config));
	memset(r->requested, EL_CONFIG_UNSET, sizeof(r->requested));
}

void linit_report_boot(struct el_report *r, const struct linit_facts *f)
{
	report_init(r, EL_REPORT_BOOT);
	r->cpuid = f->cpuid;
	memcpy(r->config, f->config, sizeof(f->config));
}

const char *linit_region_from_page(const struct el_linux_region *page, struct el_region *g)
{
	memset(g, 0, sizeof(*g));
	g->unknown = EL_REGION_UNKNOWN_ALL;
	if (page->magic != EL_LINUX_REGION_MAGIC)
		return page->magic ? "the region page's magic is wrong" :
				     "the program marked no region";
	if (!page->begins)
		return "the program ended a region it never began";
	if (!page->ends)
		return "the program began a region and never ended it";
	if (page->tsc_end < page->tsc_begin)
		return "the program's last region marker was a BEGIN with no END after it";
	g->tsc_begin = page->tsc_begin;
	g->tsc_end = page->tsc_end;
	g->iterations = page->iterations;
	g->valid = 1;
	return NULL;
}

const char *linit_region_whole(const struct linit_whole *w, struct el_region *g)
{
	memset(g, 0, sizeof(*g));
	g->unknown = EL_REGION_UNKNOWN_ALL;
	if (w->exec_errno)
		return "the program's execve failed: it never ran";
	if (!w->tsc_exec)
		return "the program's process never reached its execve";
	if (w->tsc_wait < w->tsc_exec)
		return "the TSC after waitpid is earlier than before the program's execve";
	g->tsc_begin = w->tsc_exec;
	g->tsc_end = w->tsc_wait;
	if (w->faults_counted) {
		g->page_faults = w->page_faults;
		g->unknown &= ~EL_REGION_UNKNOWN_PAGE_FAULTS;
	}
	g->valid = 1;
	return NULL;
}

const char *linit_region_of(uint32_t scope, const struct el_linux_region *page,
			    const struct linit_whole *whole, struct el_region *g)
{
	return scope == EL_REGION_SCOPE_WHOLE ? linit_region_whole(whole, g)
					      : linit_region_from_page(page, g);
}

void linit_report_run(struct el_report *r, const struct el_report *boot, uint32_t scope,
		      const struct el_linux_region *page, const struct linit_whole *whole,
		      const struct el_counter *counters, const struct el_counter *markers,
		      unsigned nr, int exit_status)
{
	int counted;

	*r = *boot;
	r->kind = EL_REPORT_RUN;
	linit_region_of(scope, page, whole, &r->region);
	r->region_scope = r->region.valid ? scope : EL_REGION_SCOPE_NONE;
	counted = r->region.valid && (scope == EL_REGION_SCOPE_WHOLE || page->errors == 0);
	if (nr > EL_MAX_COUNTERS)
		nr = EL_MAX_COUNTERS;
	r->nr_counters = nr;
	for (unsigned i = 0; i < nr; i++) {
		r->counters[i] = counters[i];
		r->markers[i] = markers[i];
		if (!counted && r->counters[i].status == EL_COUNTER_COUNTED) {
			r->counters[i].status = EL_COUNTER_NOT_COUNTED;
			r->counters[i].value = 0;
		}
	}
	r->exit_status = exit_status;
	r->flags = EL_REPORT_EXITED;
}
