/*
 * [host CLASS] sections (experiment.h, struct exp_host): the constraint
 * goes into an #SBATCH line, so it is held to Slurm's constraint syntax
 * (feature names, & | , [ ] ( ) * and counts), nothing a shell or sbatch
 * would read otherwise; expect = VENDOR FAMILY MODEL is the CPUID identity
 * a node of the class must show (fleet_task.c compares it).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "experiment_priv.h"

int experiment_parse_expect(const char *text, struct exp_host *h)
{
	char vendor[32], fam[24], mod[24], extra[2], *end;
	unsigned long f, m;

	if (sscanf(text, "%31s %23s %23s %1s", vendor, fam, mod, extra) != 3 ||
	    strlen(vendor) > 12)
		return -1;
	f = strtoul(fam, &end, 0);
	if (*end || !isdigit((unsigned char)fam[0]) || f > 0x10e)
		return -1;
	m = strtoul(mod, &end, 0);
	if (*end || !isdigit((unsigned char)mod[0]) || m > 0xff)
		return -1;
	snprintf(h->vendor, sizeof(h->vendor), "%s", vendor);
	h->family = (unsigned)f;
	h->model = (unsigned)m;
	h->has_expect = true;
	return 0;
}

static bool constraint_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.&|,[]()*:", *s))
			return false;
	return true;
}

void check_hosts(struct check_ctx *c)
{
	for (unsigned i = 0; i < c->exp->nhosts; i++) {
		struct exp_host *h = &c->exp->hosts[i];

		if (h->constraint.text && !constraint_ok(h->constraint.text))
			check_problem(c, h->constraint.line, "constraint = %s: not a Slurm "
				      "constraint of feature names joined by & | , (with [ ] ( ) "
				      "* :); write e.g. constraint = skylake&nopcid",
				      h->constraint.text);
		if (h->expect.text && experiment_parse_expect(h->expect.text, h))
			check_problem(c, h->expect.line, "expect = %s: write the CPU's vendor, "
				      "family and model as CPUID gives them, e.g. expect = "
				      "GenuineIntel 6 0x55 (`entrylab cpuid` shows this host's)",
				      h->expect.text);
	}
}
