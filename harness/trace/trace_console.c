/*
 * What a trace learns from the guest console.  Under QEMU no hypercall is
 * answered, so the guest's boot report, its vDSO placement and the
 * program's exit arrive only as the lines the guest kernel prints
 * (guest-kernel/report.c, vdso, proc/process.c), and so do the region's
 * counts (the "region:" line guest-kernel/report.c prints after the run).  Parsing is forgiving:
 * anything missing leaves the field unset, never guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "trace.h"

/* Start of the line after the first occurrence of tag at a line start; NULL if none. */
static const char *line_with(const char *con, const char *tag)
{
	size_t n = strlen(tag);

	for (const char *p = con; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, tag, n))
			return p + n;
	return NULL;
}

static uint8_t config_value(unsigned item, const char *s, size_t len)
{
	if (len == 11 && !strncmp(s, "unavailable", len))
		return EL_CONFIG_UNAVAILABLE;
	for (unsigned v = 0; el_config[item].values[v]; v++)
		if (strlen(el_config[item].values[v]) == len &&
		    !strncmp(el_config[item].values[v], s, len))
			return (uint8_t)v;
	return EL_CONFIG_UNSET;
}

/* "             KEY  REQUESTED  EFFECTIVE[   (differs)]" lines after the config header. */
static bool parse_config(const char *p, struct el_report *r)
{
	bool any = false;

	for (p = p ? strchr(p, '\n') : NULL; p && !strncmp(p + 1, "             ", 13);
	     p = strchr(p + 1, '\n')) {
		char key[32], req[32], eff[32];

		if (sscanf(p + 1, "%31s %31s %31s", key, req, eff) != 3)
			break;
		for (unsigned i = 0; i < EL_CFG_COUNT; i++) {
			if (strcmp(key, el_config[i].key))
				continue;
			r->requested[i] = config_value(i, req, strlen(req));
			r->config[i] = config_value(i, eff, strlen(eff));
			any = true;
		}
	}
	return any;
}

/* "+pcid -invpcid ..." over the cpuid line and its indented continuations. */
static void parse_cpuid(const char *p, struct el_report *r)
{
	while (p) {
		const char *end = strchr(p, '\n');

		while (*p && *p != '\n') {
			const char *tok;
			int f;

			while (*p == ' ')
				p++;
			tok = p;
			while (*p && *p != ' ' && *p != '\n')
				p++;
			if ((tok[0] == '+' || tok[0] == '-') &&
			    (f = cpuid_feature_lookup(tok + 1, (size_t)(p - tok - 1))) >= 0 &&
			    tok[0] == '+')
				r->cpuid |= 1ull << f;
		}
		p = end && !strncmp(end + 1, "             ", 13) ? end + 1 : NULL;
	}
}

static void parse_hex(const char *p, uint64_t *v)
{
	if (p)
		*v = strtoull(p, NULL, 16);
}

bool trace_console_boot(const char *con, struct el_report *r)
{
	const char *boot = line_with(con, "boot report:"), *p;
	unsigned run, failed;

	memset(r, 0, sizeof(*r));
	memset(r->config, EL_CONFIG_UNSET, sizeof(r->config));
	memset(r->requested, EL_CONFIG_UNSET, sizeof(r->requested));
	if (!boot)
		return false;
	parse_cpuid(line_with(boot, "  cpuid      "), r);
	parse_hex(line_with(boot, "  CR0        "), &r->cr0);
	parse_hex(line_with(boot, "  CR4        "), &r->cr4);
	parse_hex(line_with(boot, "  EFER       "), &r->efer);
	p = line_with(boot, "  selfcheck  ");
	if (p && sscanf(p, "run 0x%x failed 0x%x", &run, &failed) == 2) {
		r->selfcheck_run = run;
		r->selfcheck_failed = failed;
	}
	r->magic = EL_REPORT_MAGIC;
	r->abi_version = EL_ABI_VERSION;
	r->kind = EL_REPORT_BOOT;
	return parse_config(line_with(boot, "  config     item"), r);
}

bool trace_console_vdso(const char *con, char *name, size_t namelen, uint64_t *base)
{
	const char *p = strstr(con, "[vdso] ");
	char n[64];
	unsigned long long a;

	if (!p || sscanf(p, "[vdso] %63s at %llx", n, &a) != 2 || !a)
		return false;
	snprintf(name, namelen, "%s", n);
	*base = a;
	return true;
}

bool trace_console_exit_status(const char *con, int *status)
{
	static const char tag[] = ") exited with status ";
	const char *p, *last = NULL;
	int s;

	for (p = strstr(con, tag); p; p = strstr(p + 1, tag))
		last = p;
	if (!last || sscanf(last, ") exited with status %d", &s) != 1 || s < 0 || s > 255)
		return false;
	*status = s;
	return true;
}

bool trace_console_iterations(const char *con, const char *bench, uint64_t *n)
{
	size_t len = bench ? strlen(bench) : 0;
	unsigned long long v, region = 0, result = 0;

	for (const char *p = con; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		/* The kernel's region line (the last one wins), else the program's result line. */
		if (sscanf(p, "region: iterations %llu ", &v) == 1 && v)
			region = v;
		else if (len && !result && !strncmp(p, bench, len) && p[len] == ' ' &&
			 sscanf(p + len, " iterations=%llu", &v) == 1 && v)
			result = v;
	}
	if (!region && !result)
		return false;
	*n = region ? region : result;
	return true;
}

bool trace_console_panicked(const char *con)
{
	return strstr(con, "kernel panic") || strstr(con, "nested exception");
}

bool trace_console_region(const char *con, struct el_region *r)
{
	const char *p = NULL;
	unsigned long long v[6];

	memset(r, 0, sizeof(*r));
	/* The last one: the kernel prints it after the program, whose output may come first. */
	for (const char *q = line_with(con, "region: "); q; q = line_with(q, "region: "))
		p = q;
	if (!p || sscanf(p, "iterations %llu tsc_ticks %llu tsc_khz %llu syscalls %llu "
			    "page_faults %llu interrupts %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
			 &v[5]) != 6)
		return false;
	*r = (struct el_region){.iterations = v[0], .tsc_end = v[1], .tsc_khz = v[2],
				.syscalls = v[3], .page_faults = v[4], .interrupts = v[5],
				.valid = 1};
	return true;
}
