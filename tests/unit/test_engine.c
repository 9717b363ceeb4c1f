/*
 * The engine decision (harness/engine/engine.h): each rule on hand-filled
 * facts (engine_decide() is pure), then the probe itself where it needs no
 * KVM: $ENTRYLAB_KVM_DEVICE naming a path that does not exist, and
 * ENTRYLAB_FORCE_NESTED; `entrylab engine --json` in-process; and the KVM
 * device variable kept out of the nested runner's VM.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "engine.h"
#include "host_io.h"
#include "kvm.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "status.h"

/* A host where everything works: /dev/kvm opens, speaks API 12, keeps CPUID. */
static void good_facts(struct engine_facts *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->device, sizeof(f->device), "/dev/kvm");
	f->device_exists = true;
	snprintf(f->modules, sizeof(f->modules), "kvm kvm_amd");
	f->api_version = KVM_API_VERSION;
	f->create_vm_errno = 0;
	f->cpuid_honoured = 1;
	f->supported_read = true;
	f->pcid = true;
	f->pmu = "amd-core";
	snprintf(f->bochs, sizeof(f->bochs), "/usr/bin/bochs");
	snprintf(f->mkrescue, sizeof(f->mkrescue), "/usr/bin/grub-mkrescue");
}

/* Up to the open: the device is not there. */
static void missing_facts(struct engine_facts *f, const char *path, bool from_env)
{
	good_facts(f);
	snprintf(f->device, sizeof(f->device), "%s", path);
	f->device_from_env = from_env;
	f->device_exists = false;
	f->open_errno = ENOENT;
	f->api_version = -1;
	f->create_vm_errno = -1;
	f->cpuid_honoured = -1;
	f->supported_read = false;
}

static const struct engine_request automatic = {0};

/* engine_decide() on f for rq: kind, and a reason holding text. */
static void expect_decision(const struct engine_facts *f, const struct engine_request *rq,
			    enum engine_kind kind, const char *text)
{
	struct engine_decision d;

	engine_decide(f, rq, &d);
	cr_expect_eq(d.kind, kind, "%s, not %s: %s", engine_kind_name(d.kind),
		     engine_kind_name(kind), d.reason);
	cr_expect(strstr(d.reason, text), "the reason lacks '%s': %s", text, d.reason);
}

Test(engine, all_good_is_native)
{
	struct engine_facts f;

	good_facts(&f);
	expect_decision(&f, &automatic, ENGINE_NATIVE, "/dev/kvm works");
	cr_expect_str_eq(engine_kind_name(ENGINE_NATIVE), "native");
}

Test(engine, device_missing_is_nested_naming_path_and_errno)
{
	struct engine_facts f;
	struct engine_decision d;

	missing_facts(&f, "/dev/kvm", false);
	expect_decision(&f, &automatic, ENGINE_NESTED,
			"/dev/kvm: No such file or directory (errno 2); KVM modules loaded (kvm "
			"kvm_amd) but no device node here");
	f.modules[0] = '\0';
	expect_decision(&f, &automatic, ENGINE_NESTED, "; no KVM module is loaded");

	/* a path the user chose: named as theirs, no guess about modules */
	missing_facts(&f, "/nonexistent", true);
	engine_decide(&f, &automatic, &d);
	cr_expect_eq(d.kind, ENGINE_NESTED);
	cr_expect_str_eq(d.reason, "/nonexistent (ENTRYLAB_KVM_DEVICE): No such file or "
				   "directory (errno 2)");
}

Test(engine, permission_denied_is_nested)
{
	struct engine_facts f;

	missing_facts(&f, "/dev/kvm", false);
	f.device_exists = true;
	f.open_errno = EACCES;
	expect_decision(&f, &automatic, ENGINE_NESTED, "/dev/kvm: Permission denied (errno 13)");
}

Test(engine, cpuid_ignored_is_nested_with_that_reason)
{
	struct engine_facts f;

	good_facts(&f);
	snprintf(f.modules, sizeof(f.modules), "kvm kvm_pvm");
	f.cpuid_honoured = 0;
	expect_decision(&f, &automatic, ENGINE_NESTED,
			"/dev/kvm ignores KVM_SET_CPUID2 (modules: kvm kvm_pvm)");
	f.cpuid_honoured = -1; /* the check itself failed: not trusted either */
	expect_decision(&f, &automatic, ENGINE_NESTED,
			"could not tell whether /dev/kvm keeps KVM_SET_CPUID2");
}

Test(engine, each_kvm_step_that_fails_is_named)
{
	struct engine_facts f;

	good_facts(&f);
	f.api_version = 11;
	expect_decision(&f, &automatic, ENGINE_NESTED,
			"/dev/kvm speaks KVM API 11, entrylab needs 12");
	good_facts(&f);
	f.missing_cap = "KVM_CAP_IRQCHIP";
	expect_decision(&f, &automatic, ENGINE_NESTED, "/dev/kvm lacks KVM_CAP_IRQCHIP");
	good_facts(&f);
	f.create_vm_errno = ENOMEM;
	expect_decision(&f, &automatic, ENGINE_NESTED,
			"KVM_CREATE_VM on /dev/kvm failed: Cannot allocate memory");
}

Test(engine, forced_nested_by_env_or_option)
{
	struct engine_facts f;

	good_facts(&f);
	f.force_env = true;
	expect_decision(&f, &automatic, ENGINE_NESTED, "ENTRYLAB_FORCE_NESTED is set");
	good_facts(&f);
	expect_decision(&f, &(struct engine_request){.nested = EL_NESTED_FORCE}, ENGINE_NESTED,
			"--nested");
}

Test(engine, no_nested_where_nested_is_needed_is_none)
{
	struct engine_facts f;
	const struct engine_request forbid = {.nested = EL_NESTED_FORBID};

	missing_facts(&f, "/dev/kvm", false);
	expect_decision(&f, &forbid, ENGINE_NONE, "/dev/kvm: No such file or directory");
	expect_decision(&f, &forbid, ENGINE_NONE,
			"--no-nested forbids the nested runner; drop --no-nested");
	good_facts(&f);
	expect_decision(&f, &forbid, ENGINE_NATIVE, "/dev/kvm works");
}

Test(engine, bochs_and_trace_need_no_kvm)
{
	struct engine_facts f;
	const struct engine_request bochs = {.bochs = true};

	missing_facts(&f, "/dev/kvm", false);
	expect_decision(&f, &bochs, ENGINE_BOCHS, "--engine bochs");
	f.bochs[0] = '\0';
	expect_decision(&f, &bochs, ENGINE_BOCHS, "not both in PATH");
	expect_decision(&f, &(struct engine_request){.trace = true}, ENGINE_TCG, "--trace");
	cr_expect_str_eq(engine_kind_name(ENGINE_TCG), "tcg");
}

Test(engine, inner_is_native_on_the_vms_own_kvm)
{
	struct engine_facts f;

	good_facts(&f);
	f.inner = true;
	f.force_env = true; /* the host's wish is not the VM's */
	expect_decision(&f, &automatic, ENGINE_NATIVE, "inside the nested runner's VM");
}

Test(engine, offers_follow_the_engine)
{
	struct engine_probe p;
	struct engine_offer o;

	good_facts(&p.facts);
	engine_decide(&p.facts, &automatic, &p.d);
	engine_offer(&p, &o);
	cr_expect_eq(o.pcid, 1);
	cr_expect_str_eq(o.pmu, "amd-core");
	cr_expect_str_eq(o.source, "KVM_GET_SUPPORTED_CPUID");

	engine_decide(&p.facts, &(struct engine_request){.nested = EL_NESTED_FORCE}, &p.d);
	engine_offer(&p, &o);
	cr_expect_eq(o.pcid, 0, "TCG offers no PCID, whatever this host's KVM does");
	cr_expect_str_eq(o.pmu, "none");
}

Test(engine, nested_rate_for_nested_bochs_and_inner)
{
	struct engine_probe p;

	good_facts(&p.facts);
	engine_decide(&p.facts, &automatic, &p.d);
	cr_expect_not(engine_nested_rate(&p), "native KVM runs at its own rate");
	engine_decide(&p.facts, &(struct engine_request){.trace = true}, &p.d);
	cr_expect_not(engine_nested_rate(&p), "a trace estimates its own way");
	engine_decide(&p.facts, &(struct engine_request){.nested = EL_NESTED_FORCE}, &p.d);
	cr_expect(engine_nested_rate(&p));
	engine_decide(&p.facts, &(struct engine_request){.bochs = true}, &p.d);
	cr_expect(engine_nested_rate(&p), "Bochs is slower still: the nested rate at the least");
	p.facts.inner = true;
	engine_decide(&p.facts, &automatic, &p.d);
	cr_expect_eq(p.d.kind, ENGINE_NATIVE);
	cr_expect(engine_nested_rate(&p), "inside the nested VM, native is the VM's nested KVM");
}

/* ---- the probe itself, where it needs no KVM ---- */

Test(engine, device_env_names_the_path)
{
	unsetenv(KVM_DEVICE_ENV);
	cr_expect_str_eq(kvm_device_path(), "/dev/kvm");
	cr_expect(!kvm_device_from_env());
	setenv(KVM_DEVICE_ENV, "", 1);
	cr_expect_str_eq(kvm_device_path(), "/dev/kvm", "an empty value is the default");
	setenv(KVM_DEVICE_ENV, "/nonexistent", 1);
	cr_expect_str_eq(kvm_device_path(), "/nonexistent");
	cr_expect(kvm_device_from_env());
	cr_expect_eq(kvm_device_open(), -1);
	cr_expect_eq(errno, ENOENT);
	unsetenv(KVM_DEVICE_ENV);
}

Test(engine, probe_with_a_nonexistent_device_is_nested)
{
	static struct engine_probe p;

	setenv(KVM_DEVICE_ENV, "/nonexistent", 1);
	engine_probe(&automatic, &p);
	unsetenv(KVM_DEVICE_ENV);
	cr_expect_eq(p.d.kind, ENGINE_NESTED);
	cr_expect_str_eq(p.facts.device, "/nonexistent");
	cr_expect(!p.facts.device_exists);
	cr_expect_eq(p.facts.open_errno, ENOENT);
	cr_expect_eq(p.facts.create_vm_errno, -1, "nothing past the open is tried");
	cr_expect(strstr(p.d.reason, "/nonexistent"), "%s", p.d.reason);
}

Test(engine, probe_with_force_env_is_nested)
{
	static struct engine_probe p;

	setenv("ENTRYLAB_FORCE_NESTED", "1", 1);
	engine_probe(&automatic, &p);
	unsetenv("ENTRYLAB_FORCE_NESTED");
	cr_expect(p.facts.force_env);
	cr_expect_eq(p.d.kind, ENGINE_NESTED);
	cr_expect_str_eq(p.d.reason, "ENTRYLAB_FORCE_NESTED is set");

	setenv("ENTRYLAB_FORCE_NESTED", "0", 1);
	engine_probe(&automatic, &p);
	unsetenv("ENTRYLAB_FORCE_NESTED");
	cr_expect(!p.facts.force_env, "0 does not force");
}

Test(engine, select_refuses_none_with_121)
{
	static struct engine_probe p;

	setenv(KVM_DEVICE_ENV, "/nonexistent", 1);
	cr_expect_eq(engine_select("run", &(struct engine_request){.nested = EL_NESTED_FORBID}, &p),
		     EL_EXIT_UNSUPPORTED);
	cr_expect_eq(engine_select("run", &automatic, &p), 0);
	unsetenv(KVM_DEVICE_ENV);
	cr_expect_eq(p.d.kind, ENGINE_NESTED);
}

/* `entrylab engine --json` in-process: one object saying nested, naming the device. */
Test(engine, cmd_engine_json_names_the_device, .init = cr_redirect_stdout)
{
	char *argv[] = {"engine", "--json", NULL}, buf[65536];
	struct json_object *o, *v;
	size_t n;
	FILE *f;

	setenv(KVM_DEVICE_ENV, "/nonexistent", 1);
	cr_assert_eq(cmd_engine(2, argv), 0);
	unsetenv(KVM_DEVICE_ENV);
	fflush(stdout);
	f = cr_get_redirected_stdout();
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	o = json_tokener_parse(buf);
	cr_assert(o, "not one JSON object: %s", buf);
	cr_assert(json_object_object_get_ex(o, "engine", &v));
	cr_expect_str_eq(json_object_get_string(v), "nested");
	cr_assert(json_object_object_get_ex(o, "reason", &v));
	cr_expect(strstr(json_object_get_string(v), "/nonexistent"), "%s", buf);
	json_object_put(o);
}

Test(engine, cmd_engine_bad_usage_is_120)
{
	char *bad_engine[] = {"engine", "--engine", "xen", NULL};
	char *extra[] = {"engine", "run", NULL};
	char *bochs_nested[] = {"engine", "--engine", "bochs", "--nested", NULL};

	cr_expect_eq(cmd_engine(3, bad_engine), EL_EXIT_USAGE);
	cr_expect_eq(cmd_engine(2, extra), EL_EXIT_USAGE);
	cr_expect_eq(cmd_engine(4, bochs_nested), EL_EXIT_USAGE);
}

/* ---- the inner entrylab uses the VM's own /dev/kvm ---- */

Test(engine, device_env_never_reaches_the_nested_vm)
{
	static struct nested_cmd cmd;
	char *argv[] = {"entrylab", "run", "getpid", NULL}, err[256], *init, *agent;
	struct nested_request r = {.argc = 3, .argv = argv};
	struct nested_runner rn = {.warm = true};
	struct nested_buf b = {0};
	bool found;
	size_t len;

	setenv(KVM_DEVICE_ENV, "/nonexistent", 1);
	cr_assert_eq(nested_request_encode(&b, 1, &r, &rn), 0);
	unsetenv(KVM_DEVICE_ENV);
	nested_req_find(b.p, b.len, &cmd, &found, &len, err, sizeof(err));
	cr_assert(found && !err[0], "%s", err);
	for (unsigned i = 0; i < cmd.nenv; i++)
		cr_expect(strncmp(cmd.env[i], KVM_DEVICE_ENV "=", strlen(KVM_DEVICE_ENV) + 1),
			  "the request carries it: %s", cmd.env[i]);
	nested_buf_free(&b);

	/* In the VM: init hands over to the agent, which builds each command's environment. */
	init = io_read_file(EL_SOURCE_DIR "/harness/nested/init", 1 << 20, &len, err,
			    sizeof(err));
	cr_assert(init, "%s", err);
	cr_expect(strstr(init, "\nexec /nested/entrylab __nested-agent\n"),
		  "init must exec the agent");
	free(init);
	agent = io_read_file(EL_SOURCE_DIR "/harness/nested/nested_agent.c", 1 << 20, &len, err,
			     sizeof(err));
	cr_assert(agent, "%s", err);
	cr_expect(strstr(agent, "execve(argv[0], argv, (char *const *)env)"),
		  "the agent must give the command its own environment, not inherit one");
	free(agent);
}
