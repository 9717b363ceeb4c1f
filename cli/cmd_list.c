/*
 * `entrylab list WHAT`: the names users type, straight from the tables the
 * code uses (features.def, knobs.h, the benchmark and event tables).
 */
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "bench.h"
#include "cmdline.h"
#include "commands.h"
#include "cpuid.h"
#include "events.h"
#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "experiment.h"
#include "status.h"

static int list_features(void)
{
	char where[48], enf[96];
	unsigned i;

	for (i = 0; i < EL_FEAT_COUNT; i++) {
		cpuid_feature_where(i, where, sizeof(where));
		cpuid_feature_enforcement(i, enf, sizeof(enf));
		printf("%-14s %-22s %s\n", el_features[i].name, where, enf);
	}
	return 0;
}

/* What the knobs that are not config items take and do (el.* are entrylab's to set). */
static const struct {
	const char *name, *values, *help;
} other_knobs[] = {
	{"init", "PATH", "program the guest runs as /init"},
	{"test.crash", "none|triple|hang|ud|badport|sysenter|icebp|badidt|mmio-exec|"
			"report-backwards|report-unmarked|report-boot-twice",
	 "make the guest kernel fail on purpose (tests of the VMM)"},
	{"el.tsc_khz", "N", "set by entrylab: the TSC rate in kHz, so the guest skips its PIT "
			    "calibration (run: KVM_GET_TSC_KHZ; trace: 1000000, -icount's 1 GHz)"},
	{"el.epoch_ns", "N", "set by entrylab: the wall clock at boot, ns since 1970 (trace: "
			     "fixed at 2024-01-01)"},
	{"el.events", "0xCFG[,0xCFG]", "set by entrylab from -e: the PMU event encodings"},
	{"el.region", "marked|whole",
	 "set by entrylab from --region, else marked when the program lists marker sites: the "
	 "region is the markers' bracket, or the whole program from exec to its exit (absent: "
	 "marked)"},
	{"el.argv0", "NAME", "set by entrylab: the program's argv[0], the benchmark's name or "
			       "--exec FILE's base name (absent: /init's path)"},
};

static int list_knobs(void)
{
	size_t i;

	for (i = 0; i < EL_KNOB_COUNT; i++) {
		const struct el_knob_desc *k = &el_knobs[i];
		const struct el_config_desc *c = &el_config[k->item];
		char values[96] = "";
		const char *const *v;

		if (k->flag_value < 0) {
			for (v = c->values; *v; v++) {
				strncat(values, *v, sizeof(values) - strlen(values) - 2);
				if (v[1])
					strncat(values, "|", sizeof(values) - strlen(values) - 1);
			}
			printf("%-18s %-28s [%s] %s\n", k->name, values, c->values[c->def], k->help);
		} else {
			printf("%-18s %-28s %s\n", k->name, "(flag)", k->help);
		}
	}
	/* The parser's own list of the other knobs, so none goes unlisted. */
	for (i = 0; el_cmdline_other_knobs[i]; i++) {
		const char *name = el_cmdline_other_knobs[i], *values = "VALUE", *help = "";

		for (size_t k = 0; k < EL_ARRAY_SIZE(other_knobs); k++)
			if (!strcmp(other_knobs[k].name, name)) {
				values = other_knobs[k].values;
				help = other_knobs[k].help;
			}
		printf("%-18s %-28s %s\n", name, values, help);
	}
	return 0;
}

static int list_nothing(const char *what)
{
	fprintf(stderr, "entrylab list %s: none in this build yet\n", what);
	return 0;
}

static int list_benches(void)
{
	const struct el_bench *b;

	for (unsigned i = 0; (b = bench_at(i)); i++)
		printf("%-14s seed %-8s [%s] %s; an iteration is one %s\n", b->name, b->seed,
		       b->default_args, b->description, b->unit);
	return 0;
}

static int list_events(void)
{
	events_list_this_cpu(stdout);
	return 0;
}

/* Every shipped experiment, loaded and checked: a broken file says so here first. */
static int list_experiments(void)
{
	char **files;
	int n = experiment_list_files(&files), rc = 0;

	if (!n)
		return list_nothing("experiments");
	for (int i = 0; i < n; i++) {
		struct el_experiment e;

		if (experiment_load(files[i], &e, stderr)) {
			rc = EL_EXIT_USAGE;
		} else {
			printf("%-18s seed %-8s %s\n", e.name, e.seed[0] ? e.seed : "-", e.description);
			printf("%-18s %u variants:", "", e.nvariants);
			for (unsigned v = 0; v < e.nvariants; v++)
				printf(" %s", e.variants[v].name);
			printf("\n");
		}
		experiment_free(&e);
	}
	experiment_list_free(files, n);
	return rc;
}

static const struct {
	const char *what;
	int (*fn)(void);
} lists[] = {
	{"benches", list_benches}, {"events", list_events},	    {"knobs", list_knobs},
	{"features", list_features}, {"experiments", list_experiments},
};

int cmd_list(int argc, char **argv)
{
	size_t i;

	if (argc == 2)
		for (i = 0; i < EL_ARRAY_SIZE(lists); i++)
			if (!strcmp(argv[1], lists[i].what))
				return lists[i].fn();
	fprintf(stderr, "usage: entrylab list benches|events|knobs|features|experiments\n");
	return EL_EXIT_USAGE;
}
