/*
 * Which engine a command will use, and why: the one answer the CLI (`run`,
 * `matrix`, `cpuid`, `entrylab engine`, the --dry-run lines) and the tests
 * (tests/kvm/harness.c nested_mode()) share, so that no test guesses the
 * engine differently from entrylab.
 *
 * Two halves: engine_facts_get() looks at the host (the KVM device and what
 * it answers, the modules loaded, the nested runner's and Bochs's tools);
 * engine_decide() is a pure function of those facts and of what the
 * command asked for.  The rules, first match wins:
 *
 *   --engine bochs                      bochs
 *   --trace (matrix)                    tcg     (QEMU TCG here, no KVM)
 *   inside the nested runner's VM       native  (the VM's own /dev/kvm)
 *   --nested                            nested
 *   ENTRYLAB_FORCE_NESTED set (not 0)   nested
 *   the KVM device does not open,       nested, the reason naming the device
 *   speaks another API, lacks a         (kvm.h: $ENTRYLAB_KVM_DEVICE or
 *   capability, cannot create a VM,     /dev/kvm) and what it did
 *   or ignores KVM_SET_CPUID2 (kvm_pvm)
 *   otherwise                           native
 *
 * and nested under --no-nested is "none": the command is refused (121).
 */
#ifndef EL_ENGINE_H
#define EL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "nested.h"

enum engine_kind { ENGINE_NATIVE, ENGINE_NESTED, ENGINE_BOCHS, ENGINE_TCG, ENGINE_NONE };

/* What the command asked for. */
struct engine_request {
	bool bochs;                 /* --engine bochs */
	bool trace;                 /* matrix --trace */
	enum el_nested_mode nested; /* --nested, --no-nested, or neither */
};

/* What the host offers; filled by engine_facts_get(), or by hand in unit tests. */
struct engine_facts {
	bool inner;     /* this process is the nested runner's inner entrylab */
	bool force_env; /* ENTRYLAB_FORCE_NESTED is set, not "" or "0" */

	/* The KVM device (kvm_device_path()) and what it answered, step by step. */
	char device[4096];
	bool device_from_env;     /* $ENTRYLAB_KVM_DEVICE named it */
	bool device_exists;       /* stat() finds it */
	int open_errno;           /* 0: it opened read-write */
	char modules[96];         /* KVM modules loaded (/sys/module), "kvm kvm_amd"; "" none */
	int api_version;          /* KVM_GET_API_VERSION; -1: not asked (it did not open) */
	const char *missing_cap;  /* a capability entrylab needs and KVM lacks; NULL: none */
	int create_vm_errno;      /* KVM_CREATE_VM: 0 worked, an errno, -1 not tried */
	int cpuid_honoured;       /* KVM_SET_CPUID2 kept: 1, 0 ignored, -1 failed or not tried */
	bool supported_read;      /* KVM_GET_SUPPORTED_CPUID answered (pcid, pmu below) */
	bool pcid;                /* it offers PCID (CPUID.01H:ECX[17]) */
	const char *pmu;          /* host_pmu_kind() of it: "intel-v2", ..., "none" */

	struct nested_ready nested; /* the nested runner: QEMU and its files */

	char bochs[256], mkrescue[256]; /* the Bochs engine's tools in PATH; "" missing */
};

/* A reason names the device, whose path may be long. */
#define ENGINE_REASON_MAX 4700

struct engine_decision {
	enum engine_kind kind;
	char reason[ENGINE_REASON_MAX]; /* one line: why this engine (and, for none, the fix) */
};

/*
 * Looks at this host.  Costs two throwaway VMs when the device works; says
 * nothing unless a KVM ioctl fails that a working device answers.  Inside
 * the nested runner's VM (inner) the device is not probed: the decision
 * there is native whatever it answers.
 */
void engine_facts_get(struct engine_facts *f);

/* Pure: the rules above. */
void engine_decide(const struct engine_facts *f, const struct engine_request *rq,
		   struct engine_decision *d);

/* "native", "nested", "bochs", "tcg", "none". */
const char *engine_kind_name(enum engine_kind k);

/*
 * PCID and the PMU a guest gets from the decided engine.  Pure.  native:
 * KVM_GET_SUPPORTED_CPUID's; nested and tcg: neither (QEMU TCG offers
 * neither); bochs: no PMU, PCID as the --cpu-model has it (unknown here).
 */
struct engine_offer {
	int pcid;           /* 1, 0, -1 unknown */
	const char *pmu;    /* host_pmu_kind()'s names; "none"; NULL unknown */
	const char *source; /* where that comes from, e.g. "KVM_GET_SUPPORTED_CPUID" */
};
struct engine_probe;
void engine_offer(const struct engine_probe *p, struct engine_offer *o);

/*
 * Whether a boot is estimated at the nested runner's rate, not native KVM's
 * (request_estimate(), matrix_estimate(), the default --timeout): it runs in
 * the nested runner, under Bochs (slower still), or is this process inside
 * the nested runner's VM.  Pure.
 */
bool engine_nested_rate(const struct engine_probe *p);

/* Both halves: the engine a command asking rq would use here. */
struct engine_probe {
	struct engine_facts facts;
	struct engine_decision d;
};
void engine_probe(const struct engine_request *rq, struct engine_probe *out);

/*
 * For a command about to run: engine_probe(), then 0, or (kind none)
 * EL_EXIT_UNSUPPORTED after "entrylab CMD: <reason>" on stderr.
 */
int engine_select(const char *cmd, const struct engine_request *rq, struct engine_probe *out);

/* "engine: nested (<reason>)": the line --dry-run prints (len: ENGINE_LINE_MAX will do). */
#define ENGINE_LINE_MAX (ENGINE_REASON_MAX + 32)
void engine_line(const struct engine_probe *p, char *buf, size_t len);

#endif
