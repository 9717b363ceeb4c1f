/*
 * The Bochs engine (`entrylab run --engine bochs --cpu-model M`): the same
 * guest kernel, command line and initrd as a KVM run, booted by GRUB from
 * an ISO in Bochs 2.7 with a named CPU model, for functional runs of what
 * no KVM here offers (PCID, INVPCID).  The guest reports by framed lines on
 * COM1 (frame.h); the record is the KVM run's, with host.kvm "bochs",
 * host.bochs_cpu_model, and no timing or counter presented as measured.
 */
#ifndef EL_BOCHS_H
#define EL_BOCHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "record.h"

struct bochs_model {
	const char *name;
	bool long_mode;     /* x86-64: the guest kernel can boot on it */
	bool pcid, invpcid; /* CPUID.01H:ECX[17], CPUID.(07H,0):EBX[10] as the model has them */
};

const struct bochs_model *bochs_model_find(const char *name);
/* The long-mode models, one a line, for usage errors and `entrylab list`. */
void bochs_models_print(FILE *f);
/* 0, or -1 with "--cpu-model 'X' is not ...; fix" in err (unknown, or no long mode). */
int bochs_model_check(const char *name, char *err, size_t errlen);

/*
 * The guest command line as GRUB's multiboot2 line receives it: each word
 * single-quoted.  -1 with the offending character named in err when a word
 * holds a byte GRUB would rewrite or cannot pass (quotes, backslash,
 * controls, non-ASCII).
 */
int bochs_grub_cmdline(const char *cmdline, char *out, size_t outlen, char *err, size_t errlen);

/* grub.cfg's text for cmdline (as bochs_grub_cmdline quotes it) into out; -1 with err. */
int bochs_grub_cfg(const char *cmdline, char *out, size_t outlen, char *err, size_t errlen);

/* bochsrc's text: model, memory, the ISO, COM1's file, the log (paths absolute). */
struct bochs_rc {
	const char *model;
	unsigned megs;
	const char *iso, *com1, *log;
	const char *bios, *vgabios;
};
int bochs_rc_text(const struct bochs_rc *rc, char *out, size_t outlen);

/*
 * The programs the engine runs, looked up in PATH: true when both are
 * there; their paths in bochs and mkrescue ("" for one that is not).
 */
bool bochs_tools_find(char *bochs, char *mkrescue, size_t cap);

/* The VGA BIOS Bochs needs, among those Debian installs; NULL if none. */
const char *bochs_vgabios_path(void);

/*
 * One boot under Bochs: fills *res as el_vm_run() does (status, detail,
 * reports, exit status, console).  Counters and timings are not measured:
 * res->run.region is not kept, wall and boot times stay 0.  When the run
 * did not end ok, its directory (bochsrc, ISO, COM1 capture, bochs.log) is
 * kept and named in the detail; *logdir gets its path ("" when removed).
 */
void bochs_run(const struct el_run_spec *spec, const char *model, struct el_run_result *res,
	       char *logdir, size_t logdir_len);

/*
 * bochs_run() plus --strict (record_config_mismatch) and the record:
 * record_build()'s, with host.kvm "bochs", host.pmu "none",
 * host.bochs_cpu_model, "measurements": "not-meaningful", and null
 * region, vmm and guest.vcpu_cpuid (nothing of them was measured).
 */
struct json_object *bochs_record_run(const struct el_run_request *req,
				     const struct el_run_spec *spec,
				     const struct el_host_info *host, const char *model,
				     struct el_run_result *res);

#endif
