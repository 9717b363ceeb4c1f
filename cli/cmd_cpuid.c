/*
 * `entrylab cpuid`: applies a --cpu spec to a throwaway vCPU and shows, per
 * named feature, what the host offers, what was asked, what KVM kept and
 * whether KVM enforces the bit or only the guest honours it.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd_cpuid.h"
#include "commands.h"
#include "cpuid.h"
#include "engine.h"
#include "host_info.h"
#include "kvm.h"
#include "nested.h"
#include "opt_table.h"
#include "record.h"
#include "status.h"


struct cpuid_opts {
	const char *spec;
	bool json, help;
	bool quiet; /* cmd_cpuid_needs_kvm's parse: nothing said */
	enum el_nested_mode nested;
	struct el_cpu_request req;
};

/* The three views of one spec. */
struct cpuid_views {
	struct el_cpuid supported, applied, effective;
};

static void usage(FILE *f);

static int refuse(void *obj, struct el_opt_state *st)
{
	if (!((struct cpuid_opts *)obj)->quiet)
		fprintf(stderr, "entrylab cpuid: %s '%s'; see entrylab cpuid --help\n",
			optopt == 'c' ? "missing SPEC after" : "unknown option",
			st->argv[optind - 1]);
	return EL_EXIT_USAGE;
}

#define AT(field) .off = offsetof(struct cpuid_opts, field)

static const struct el_opt cpuid_opts_table[] = {
	{.short_name = 'c', .long_name = "cpu", .arg = "SPEC",
	 .help = "host[,+feat|,-feat|,feat=on|off]... (default host;\n"
		 "`entrylab list features` lists the names)",
	 .kind = EL_OPT_STRING, AT(spec)},
	{.long_name = "json", .synopsis = "--json", .help = "one JSON object instead of the table",
	 .kind = EL_OPT_TRUE, AT(json)},
	{.long_name = "nested", .kind = EL_OPT_SET, AT(nested), .val = EL_NESTED_FORCE},
	{.long_name = "no-nested", .kind = EL_OPT_SET, AT(nested), .val = EL_NESTED_FORBID},
	/* --help: the text once the whole command line is known good */
	{.short_name = 'h', .long_name = "help", .kind = EL_OPT_TRUE, AT(help)},
};

static const struct el_opt_table cpuid_table = {
	EL_OPT_TABLE("cpuid", cpuid_opts_table), .in_order = true, .col = 19, .gap = 2,
	.usage = usage, .refuse = refuse,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: entrylab cpuid [--cpu SPEC] [--json] [--nested|--no-nested]\n");
	el_opt_help(f, &cpuid_table);
}

const struct el_opt_table *cmd_cpuid_table(void)
{
	return &cpuid_table;
}

/* 0, or EL_EXIT_USAGE after saying why (unless quiet). */
static int opts_parse(int argc, char **argv, struct cpuid_opts *o, bool quiet)
{
	struct el_opt_state st;
	char err[512];
	int rc;

	memset(o, 0, sizeof(*o));
	o->spec = "host";
	o->quiet = quiet;
	if ((rc = el_opt_parse(&cpuid_table, argc, argv, o, &st)))
		return rc;
	if (optind < argc) {
		if (!quiet)
			fprintf(stderr, "entrylab cpuid: unexpected argument '%s'; see entrylab "
					"cpuid --help\n", argv[optind]);
		return EL_EXIT_USAGE;
	}
	if (!o->help && cpuid_spec_parse(o->spec, &o->req, err, sizeof(err))) {
		if (!quiet)
			fprintf(stderr, "entrylab cpuid: %s\n", err);
		return EL_EXIT_USAGE;
	}
	return 0;
}

bool cmd_cpuid_needs_kvm(int argc, char **argv)
{
	struct cpuid_opts o;

	return opts_parse(argc, argv, &o, true) == 0 && !o.help;
}

/* 0, or an EL_EXIT_* code after printing why. */
static int views_get(const struct cpuid_opts *o, struct cpuid_views *v, struct el_host_info *hi)
{
	char err[512];
	int kvm_fd = kvm_open(err, sizeof(err));
	int rc = EL_EXIT_VMM;

	if (kvm_fd < 0) {
		fprintf(stderr, "entrylab cpuid: %s\n", err);
		return EL_EXIT_VMM;
	}
	if (cpuid_kvm_supported(kvm_fd, &v->supported))
		goto out;
	if (cpuid_apply(&v->supported, &o->req, &v->applied, err, sizeof(err))) {
		fprintf(stderr, "entrylab cpuid: %s\n", err);
		rc = EL_EXIT_UNSUPPORTED;
		goto out;
	}
	if (cpuid_kvm_effective(kvm_fd, &v->applied, &v->effective))
		goto out;
	host_info_get(hi, &v->supported);
	hi->kvm = nested_is_inner() ? "nested" : "native";
	rc = 0;
out:
	close(kvm_fd);
	return rc;
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void print_table(const struct cpuid_opts *o, const struct cpuid_views *v,
			const struct el_host_info *hi)
{
	bool changed_any = false;

	printf("entrylab cpuid --cpu %s  (%s; Linux %s; kvm %s %s; pmu %s)\n", o->req.spec,
	       hi->cpu_model, hi->kernel, hi->kvm, hi->kvm_module, hi->pmu);
	printf("%-13s %-24s %-5s %-10s %-10s %s\n", "feature", "location", "host", "requested",
	       "effective", "enforcement");
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		char where[32], enf[64], eff[8];
		bool on = cpuid_has(&v->effective, f);
		bool changed = on != cpuid_has(&v->applied, f);

		cpuid_feature_where(f, where, sizeof(where));
		cpuid_feature_enforcement(f, enf, sizeof(enf));
		snprintf(eff, sizeof(eff), "%s%s", on ? "on" : "off", changed ? "*" : "");
		changed_any |= changed;
		printf("%-13s %-24s %-5s %-10s %-10s %s\n", el_features[f].name, where,
		       yes_no(cpuid_has(&v->supported, f)), cpuid_req_name(o->req.feat[f]), eff,
		       enf);
	}
	if (changed_any)
		printf("* KVM changed this bit in KVM_SET_CPUID2: the guest sees the effective "
		       "value\n");
	printf("enforcement \"kvm: ...\": without the CPUID bit KVM makes the guest fault;\n"
	       "\"guest only\": KVM lets the guest use it anyway, only entrylab's guest kernel "
	       "obeys CPUID.\n");
}

static void print_json(const struct cpuid_opts *o, const struct cpuid_views *v,
		       const struct el_host_info *hi)
{
	static const char *const regs[] = {"eax", "ebx", "ecx", "edx"};
	struct json_object *root = json_object_new_object();
	struct json_object *feats = json_object_new_array();

	json_object_object_add(root, "cpu", json_object_new_string(o->req.spec));
	json_object_object_add(root, "host", host_info_json(hi));
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		const struct el_feature_desc *d = &el_features[f];
		struct json_object *j = json_object_new_object();
		char where[32], enf[64];

		cpuid_feature_where(f, where, sizeof(where));
		cpuid_feature_enforcement(f, enf, sizeof(enf));
		json_object_object_add(j, "name", json_object_new_string(d->name));
		json_object_object_add(j, "cpuid", json_object_new_string(where));
		json_object_object_add(j, "leaf", json_object_new_int64(d->leaf));
		json_object_object_add(j, "subleaf", json_object_new_int64(d->subleaf));
		json_object_object_add(j, "register", json_object_new_string(regs[d->reg]));
		json_object_object_add(j, "mask", json_object_new_int64(d->mask));
		json_object_object_add(j, "host", json_object_new_boolean(
							  cpuid_has(&v->supported, f)));
		json_object_object_add(j, "requested",
				       json_object_new_string(cpuid_req_name(o->req.feat[f])));
		json_object_object_add(j, "applied", json_object_new_boolean(
							     cpuid_has(&v->applied, f)));
		json_object_object_add(j, "effective", json_object_new_boolean(
							       cpuid_has(&v->effective, f)));
		json_object_object_add(j, "enforced_by", json_object_new_string(
					       d->enforcement == EL_ENF_GUEST ? "guest" : "kvm"));
		json_object_object_add(j, "enforcement", json_object_new_string(enf));
		json_object_array_add(feats, j);
	}
	json_object_object_add(root, "features", feats);
	printf("%s\n", json_object_to_json_string_ext(
			       root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

int cmd_cpuid(int argc, char **argv)
{
	static struct cpuid_views views; /* 30 KiB of tables */
	static struct engine_probe engine;
	struct el_host_info hi;
	struct cpuid_opts o;
	char err[512];
	int rc = opts_parse(argc, argv, &o, false);

	if (rc)
		return rc;
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if ((rc = engine_select("cpuid", &(struct engine_request){.nested = o.nested}, &engine)))
		return rc;
	if (engine.d.kind == ENGINE_NESTED)
		return nested_run(&(struct nested_request){
			.argc = argc + 1, .argv = argv - 1, .why = engine.d.reason, .boots = 1});
	rc = views_get(&o, &views, &hi);
	if (rc)
		return rc;
	if (o.json)
		print_json(&o, &views, &hi);
	else
		print_table(&o, &views, &hi);
	fflush(stdout);
	/* The table shows it; a request KVM did not honour still fails the command. */
	if (cpuid_check_kept(&o.req, &views.applied, &views.effective, err, sizeof(err))) {
		fprintf(stderr, "entrylab cpuid: %s\n", err);
		return EL_EXIT_UNSUPPORTED;
	}
	return 0;
}
