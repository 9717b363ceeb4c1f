/*
 * `entrylab engine [--json] [--engine kvm|bochs] [--nested|--no-nested]`:
 * which engine a run with those options would use here, and why, with the
 * facts the decision came from (harness/engine/engine.h), one line each or
 * one JSON object.  Exit 0, or 121 when no engine is left (--no-nested on a
 * host that needs the nested runner), as `run` would exit.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array_size.h"
#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "kvm.h"
#include "status.h"

struct engine_cli {
	struct engine_request rq;
	bool json;
};

static void usage(FILE *f);

static int opt_engine(void *obj, const char *arg, struct el_opt_state *st)
{
	return cli_engine_word(st->t->cmd, arg, &((struct engine_cli *)obj)->rq.bochs);
}

static int refuse(void *obj, struct el_opt_state *st)
{
	(void)obj;
	return cli_bad("engine", "see entrylab engine --help",
		       "unknown option or missing value in '%s'", st->argv[optind - 1]);
}

#define AT(field) .off = offsetof(struct engine_cli, field)

/* The options, once: getopt's table and --help both come from here. */
static const struct el_opt engine_opts[] = {
	{.long_name = "json", .help = "one JSON object instead of a line per fact",
	 .kind = EL_OPT_TRUE, AT(json)},
	{.long_name = "engine", .arg = "kvm|bochs", .help = "the engine asked for, as run's",
	 .kind = EL_OPT_CALL, .fn = opt_engine},
	{.long_name = "nested", .help = "as run --nested: force the nested runner",
	 .kind = EL_OPT_SET, AT(rq.nested), .val = EL_NESTED_FORCE},
	{.long_name = "no-nested", .help = "as run --no-nested: forbid it", .kind = EL_OPT_SET,
	 AT(rq.nested), .val = EL_NESTED_FORBID},
	{.short_name = 'h', .long_name = "help", .help = "this text", .kind = EL_OPT_HELP},
};

static const struct el_opt_table engine_table = {
	EL_OPT_TABLE("engine", engine_opts), .in_order = true, .col = 27, .gap = 1,
	.usage = usage, .refuse = refuse, .help_returns = true,
};

const struct el_opt_table *cmd_engine_table(void)
{
	return &engine_table;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: entrylab engine [OPTIONS]\n"
		   "Which engine `entrylab run` with these options would use here, and why,\n"
		   "then the facts: the KVM device (%s, else %s) and its\n"
		   "answers, the KVM modules loaded, the nested runner's and Bochs's tools.\n",
		KVM_DEVICE_ENV, KVM_DEVICE_DEFAULT);
	el_opt_help(f, &engine_table);
	fprintf(f, "Exit status: 0, or %d when no engine is left (--no-nested where only the\n"
		   "nested runner would do), as `entrylab run` would exit.\n",
		EL_EXIT_UNSUPPORTED);
}

/* 0, EL_EXIT_USAGE (said why), or -1 for --help (printed). */
static int parse(int argc, char **argv, struct engine_cli *o)
{
	struct el_opt_state st;
	int rc;

	memset(o, 0, sizeof(*o));
	if ((rc = el_opt_parse(&engine_table, argc, argv, o, &st)))
		return rc;
	if (optind < argc)
		return cli_bad("engine", "it takes options only (entrylab engine --help)",
			       "unexpected argument '%s'", argv[optind]);
	if (o->rq.bochs && o->rq.nested != EL_NESTED_AUTO)
		return cli_bad("engine", "drop it: Bochs has no nested runner", "%s with --engine bochs",
			       o->rq.nested == EL_NESTED_FORCE ? "--nested" : "--no-nested");
	return 0;
}

static void fact(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fact(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%-16s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static void print_text(const struct engine_probe *p)
{
	const struct engine_facts *f = &p->facts;
	const struct nested_ready *n = &f->nested;
	struct engine_offer of;

	engine_offer(p, &of);
	fact("engine:", "%s", engine_kind_name(p->d.kind));
	fact("reason:", "%s", p->d.reason);
	fact("kvm device:", "%s (%s)", f->device,
	     f->device_from_env ? "from " KVM_DEVICE_ENV : "the default; " KVM_DEVICE_ENV " unset");
	fact("exists:", "%s", yes_no(f->device_exists));
	if (f->open_errno)
		fact("opens:", "no: %s (errno %d)", strerror(f->open_errno), f->open_errno);
	else
		fact("opens:", "yes, read-write");
	fact("kvm modules:", "%s", f->modules[0] ? f->modules : "none loaded (/sys/module)");
	if (f->api_version >= 0)
		fact("api version:", "%d (entrylab needs %d)", f->api_version, KVM_API_VERSION);
	else
		fact("api version:", "not asked");
	fact("capabilities:", "%s%s", f->missing_cap ? "missing " : "",
	     f->missing_cap ? f->missing_cap : f->api_version >= 0 ? "all entrylab needs" : "not asked");
	fact("KVM_CREATE_VM:", "%s", f->create_vm_errno < 0 ? "not tried"
				    : f->create_vm_errno ? strerror(f->create_vm_errno) : "ok");
	fact("KVM_SET_CPUID2:", "%s", f->cpuid_honoured == 1 ? "kept"
				     : f->cpuid_honoured == 0 ? "ignored (the guest sees the host's CPUID)"
				     : f->create_vm_errno == 0 ? "the check failed (a throwaway vCPU)"
							      : "not tried");
	if (f->supported_read)
		fact("kvm offers:", "pcid %s, pmu %s (KVM_GET_SUPPORTED_CPUID)", yes_no(f->pcid),
		     f->pmu);
	fact("pcid:", "%s (%s)", of.pcid < 0 ? "unknown" : yes_no(of.pcid), of.source);
	fact("pmu:", "%s (%s)", of.pmu ? of.pmu : "unknown", of.source);
	fact("forced nested:", "%s", f->force_env ? "ENTRYLAB_FORCE_NESTED is set"
						  : "no (ENTRYLAB_FORCE_NESTED unset or 0)");
	fact("inner:", "%s", f->inner ? "yes: inside the nested runner's VM"
				      : "no: not inside the nested runner's VM");
	fact("nested qemu:", "%s%s%s", n->qemu, n->qemu_path[0] ? " at " : ": not found in PATH",
	     n->qemu_path);
	if (n->files)
		fact("nested files:", "%s (base.cpio, kernel)", n->dir);
	else
		fact("nested files:", "missing: %s", n->why);
	fact("bochs:", "%s", f->bochs[0] ? f->bochs : "not found in PATH");
	fact("grub-mkrescue:", "%s", f->mkrescue[0] ? f->mkrescue : "not found in PATH");
}

static struct json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static struct json_object *kvm_json(const struct engine_facts *f)
{
	struct json_object *k = json_object_new_object(), *mods = json_object_new_array();
	char buf[sizeof(f->modules)], *save, *tok;

	json_object_object_add(k, "device", json_object_new_string(f->device));
	json_object_object_add(k, "device_from_env", json_object_new_boolean(f->device_from_env));
	json_object_object_add(k, "exists", json_object_new_boolean(f->device_exists));
	json_object_object_add(k, "opens", json_object_new_boolean(!f->open_errno));
	json_object_object_add(k, "open_error",
			       f->open_errno ? json_object_new_string(strerror(f->open_errno)) : NULL);
	json_object_object_add(k, "open_errno",
			       f->open_errno ? json_object_new_int(f->open_errno) : NULL);
	snprintf(buf, sizeof(buf), "%s", f->modules);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		json_object_array_add(mods, json_object_new_string(tok));
	json_object_object_add(k, "modules", mods);
	json_object_object_add(k, "api_version",
			       f->api_version >= 0 ? json_object_new_int(f->api_version) : NULL);
	json_object_object_add(k, "missing_cap", str_or_null(f->missing_cap));
	json_object_object_add(k, "create_vm",
			       f->create_vm_errno < 0 ? NULL
			       : json_object_new_string(f->create_vm_errno ? strerror(f->create_vm_errno)
									   : "ok"));
	json_object_object_add(k, "cpuid_honoured",
			       f->cpuid_honoured < 0 ? NULL
						     : json_object_new_boolean(f->cpuid_honoured));
	json_object_object_add(k, "pcid",
			       f->supported_read ? json_object_new_boolean(f->pcid) : NULL);
	json_object_object_add(k, "pmu", f->supported_read ? json_object_new_string(f->pmu) : NULL);
	return k;
}

static void print_json(const struct engine_probe *p, const struct engine_request *rq)
{
	const struct engine_facts *f = &p->facts;
	const struct nested_ready *n = &f->nested;
	struct json_object *root = json_object_new_object(), *o;
	struct engine_offer of;
	static const char *const modes[] = {[EL_NESTED_AUTO] = "auto",
					    [EL_NESTED_FORCE] = "force",
					    [EL_NESTED_FORBID] = "forbid"};

	engine_offer(p, &of);
	json_object_object_add(root, "engine", json_object_new_string(engine_kind_name(p->d.kind)));
	json_object_object_add(root, "reason", json_object_new_string(p->d.reason));
	o = json_object_new_object();
	json_object_object_add(o, "engine", json_object_new_string(rq->bochs ? "bochs" : "kvm"));
	json_object_object_add(o, "nested", json_object_new_string(modes[rq->nested]));
	json_object_object_add(root, "request", o);
	json_object_object_add(root, "kvm", kvm_json(f));
	o = json_object_new_object();
	json_object_object_add(o, "pcid", of.pcid < 0 ? NULL : json_object_new_boolean(of.pcid));
	json_object_object_add(o, "pmu", str_or_null(of.pmu));
	json_object_object_add(o, "source", json_object_new_string(of.source));
	json_object_object_add(root, "offers", o);
	json_object_object_add(root, "force_nested_env", json_object_new_boolean(f->force_env));
	json_object_object_add(root, "inner", json_object_new_boolean(f->inner));
	o = json_object_new_object();
	json_object_object_add(o, "qemu", json_object_new_string(n->qemu));
	json_object_object_add(o, "qemu_path", str_or_null(n->qemu_path));
	json_object_object_add(o, "dir", str_or_null(n->dir));
	json_object_object_add(o, "files", json_object_new_boolean(n->files));
	json_object_object_add(o, "missing", n->files ? NULL : str_or_null(n->why));
	json_object_object_add(o, "ready", json_object_new_boolean(n->files && n->qemu_path[0]));
	json_object_object_add(root, "nested_runner", o);
	o = json_object_new_object();
	json_object_object_add(o, "bochs", str_or_null(f->bochs));
	json_object_object_add(o, "grub_mkrescue", str_or_null(f->mkrescue));
	json_object_object_add(o, "ready", json_object_new_boolean(f->bochs[0] && f->mkrescue[0]));
	json_object_object_add(root, "bochs", o);
	printf("%s\n", json_object_to_json_string_ext(
			       root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

int cmd_engine(int argc, char **argv)
{
	static struct engine_probe p; /* the facts hold paths: off the stack */
	struct engine_cli o;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	engine_probe(&o.rq, &p);
	if (o.json)
		print_json(&p, &o.rq);
	else
		print_text(&p);
	fflush(stdout);
	return p.d.kind == ENGINE_NONE ? EL_EXIT_UNSUPPORTED : 0;
}
