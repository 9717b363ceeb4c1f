/*
 * The QEMU side of `entrylab trace`: the -cpu and guest command line for a
 * request, the images written to a private directory, qemu-system-x86_64
 * run with the plugin (console and stderr captured, --timeout enforced),
 * and the plugin's output read back.  QEMU runs directly, TCG by design: a
 * trace never needs /dev/kvm or the nested runner.
 *
 * Determinism: -icount shift=0,sleep=off makes guest time advance exactly
 * 1 ns per instruction (the TSC reads 1 GHz), so timer-driven code runs at
 * the same instruction every time; the wall clock is fixed (-rtc base and
 * el.epoch_ns).  What the program prints as "ns" is then an instruction
 * count of its own, and el.tsc_khz=1000000 tells the guest so (no PIT
 * calibration).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "host_io.h"
#include "pvh_start.h"
#include "region_scope.h"
#include "trace.h"

/*
 * Our feature names are QEMU's, except these; and TCG can never give them
 * (QEMU would accept pmu=on and kvmclock=on silently and offer nothing).
 */
static const struct {
	enum el_feature f;
	const char *qemu_name;
	const char *why;
} qemu_names[] = {
	{EL_FEAT_ARCH_PERFMON, "pmu", "QEMU TCG has no PMU (a trace counts instructions exactly "
				      "without one)"},
	{EL_FEAT_KVMCLOCK, "kvmclock", "kvmclock is KVM's paravirtual clock; QEMU TCG has none"},
};

int trace_qemu_cpu(const struct el_cpu_request *req, char *out, size_t len, char *err,
		   size_t errlen)
{
	size_t used = (size_t)snprintf(out, len, "max");

	for (unsigned f = 0; f < EL_FEAT_COUNT; f++) {
		const char *name = el_features[f].name, *never = NULL;
		int n;

		if (req->feat[f] == EL_REQ_DEFAULT)
			continue;
		for (size_t i = 0; i < EL_ARRAY_SIZE(qemu_names); i++)
			if (qemu_names[i].f == f) {
				name = qemu_names[i].qemu_name;
				never = qemu_names[i].why;
			}
		if (req->feat[f] == EL_REQ_ON && never) {
			snprintf(err, errlen, "+%s: %s; drop it or use -%s", el_features[f].name,
				 never, el_features[f].name);
			return -1;
		}
		n = snprintf(out + used, len - used, ",%s=%s", name,
			     req->feat[f] == EL_REQ_ON ? "on" : "off");
		if (n < 0 || (size_t)n >= len - used)
			return snprintf(err, errlen, "the -cpu string is too long"), -1;
		used += (size_t)n;
	}
	/* As entrylab does on KVM: a feature asked for and not given is an error. */
	if (used + 9 >= len)
		return snprintf(err, errlen, "the -cpu string is too long"), -1;
	strcat(out, ",enforce");
	return 0;
}

int trace_guest_cmdline(char *out, size_t len, const char *append, const char *init_args,
			char *err, size_t errlen)
{
	size_t max = len < EL_CMDLINE_MAX ? len : EL_CMDLINE_MAX;
	int n = snprintf(out, max, "%s%sel.tsc_khz=%" PRIu64 " el.epoch_ns=%" PRIu64 "000000000%s%s",
			 append ? append : "", append && *append ? " " : "",
			 (uint64_t)EL_TRACE_TSC_KHZ, (uint64_t)EL_TRACE_EPOCH_S,
			 init_args && *init_args ? " -- " : "", init_args ? init_args : "");

	if (n < 0 || (size_t)n >= max) {
		snprintf(err, errlen, "the guest command line would be %d bytes; the limit is %zu: "
				      "shorten --append or the program's arguments", n, max - 1);
		return -1;
	}
	return 0;
}

/* The private directory of one trace and the files in it. */
struct trace_dir {
	char path[256];
	char kernel[4096], initrd[300], plugin[300], counts[300];
};

static int dir_make(struct trace_dir *d, const struct el_trace_job *job, char *err,
		    size_t errlen)
{
	const struct el_run_spec *spec = job->spec;
	const struct el_cpio *linux_initrd = job->lx ? &job->lx->initrd : NULL;
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	/* QEMU's option syntax takes ',' as a separator: keep it out of the paths. */
	if (strchr(tmp, ',') || strlen(tmp) > 200) {
		snprintf(err, errlen, "TMPDIR '%s' contains a comma or is too long for QEMU's "
				      "options; set TMPDIR to another directory", tmp);
		return -1;
	}
	snprintf(d->path, sizeof(d->path), "%s/entrylab-trace-XXXXXX", tmp);
	if (!mkdtemp(d->path)) {
		snprintf(err, errlen, "cannot create a directory in %s: %s; set TMPDIR to a "
				      "writable directory", tmp, strerror(errno));
		d->path[0] = '\0';
		return -1;
	}
	snprintf(d->kernel, sizeof(d->kernel), "%s/kernel", d->path);
	snprintf(d->initrd, sizeof(d->initrd), "%s/initrd.cpio", d->path);
	snprintf(d->plugin, sizeof(d->plugin), "%s/eltrace.so", d->path);
	snprintf(d->counts, sizeof(d->counts), "%s/counts", d->path);
	/* A Linux kernel file QEMU reads where it is (trace_linux.c), else a copy. */
	if (job->lx && job->lx->kernel_file[0])
		snprintf(d->kernel, sizeof(d->kernel), "%s", job->lx->kernel_file);
	else if (io_write_new_file(d->kernel, spec->kernel, spec->kernel_len, err, errlen))
		return -1;
	if (io_write_new_file(d->initrd, linux_initrd ? linux_initrd->buf : spec->initrd,
			      linux_initrd ? linux_initrd->len : spec->initrd_len, err, errlen) ||
	    io_write_new_file(d->plugin, entrylab_trace_plugin,
		       (size_t)(entrylab_trace_plugin_end - entrylab_trace_plugin), err, errlen))
		return -1;
	return 0;
}

static void dir_remove(struct trace_dir *d, const struct el_trace_job *job)
{
	if (!d->path[0])
		return;
	if (!job->lx || !job->lx->kernel_file[0])
		unlink(d->kernel);
	unlink(d->initrd);
	unlink(d->plugin);
	unlink(d->counts);
	rmdir(d->path);
}

static const char *qemu_binary(const struct el_trace_opts *opts)
{
	const char *env = getenv("ENTRYLAB_QEMU");

	if (opts->qemu)
		return opts->qemu;
	return env && *env ? env : "qemu-system-x86_64";
}

/*
 * qboot, where Debian's qemu-system-data installs it: it boots the PVH kernel
 * as SeaBIOS does, in 0.5 rather than 5.9 million instructions (SeaBIOS's
 * POST under TCG is most of a small trace's wall time).  NULL: QEMU's default.
 */
static const char *const qboot_paths[] = {"/usr/share/qemu/qboot.rom", NULL};

const char *trace_qemu_firmware(void)
{
	for (unsigned i = 0; qboot_paths[i]; i++)
		if (!access(qboot_paths[i], R_OK))
			return qboot_paths[i];
	return NULL;
}

/* ",KEY=0xADDR:BYTES" (eltrace_window.c); the bytes as hex. */
static size_t mark_arg(char *out, size_t len, const char *key, const struct el_trace_mark *m)
{
	size_t n = (size_t)snprintf(out, len, ",%s=0x%llx:", key, (unsigned long long)m->vaddr);

	for (unsigned i = 0; i < m->n; i++)
		n += (size_t)snprintf(out + (n < len ? n : len), n < len ? len - n : 0, "%02x",
				      m->bytes[i]);
	return n;
}

/*
 * The plugin's arguments (eltrace_window.c): our kernel's marker OUTs
 * (open=user for the whole program: from its first user instruction), or
 * for a Linux guest the program's marker sites (begin_site=/end_site= per
 * site), or its entry point and /init's label (whole).  -1 if too long.
 */
static int plugin_args(const struct el_trace_job *job, const struct trace_dir *d, char *out,
		       size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s,out=%s%s", d->plugin, d->counts,
				    job->opts.listing ? ",listing=on" : "");

	if (!job->lx) {
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, ",begin=0x%llx,end=0x%llx%s",
				      (unsigned long long)job->begin,
				      (unsigned long long)job->end,
				      job->scope == EL_REGION_SCOPE_WHOLE ? ",open=user" : "");
		return n < len ? 0 : -1;
	}
	if (job->scope == EL_REGION_SCOPE_WHOLE) {
		n += mark_arg(out + n, n < len ? len - n : 0, "entry", &job->lx->entry);
		n += mark_arg(out + n, n < len ? len - n : 0, "end", &job->lx->whole_end);
		return n < len ? 0 : -1;
	}
	for (unsigned i = 0; i < job->lx->nsites && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, ",%s_site=0x%llx",
				      job->lx->sites[i].op == EL_REGION_BEGIN ? "begin" : "end",
				      (unsigned long long)job->lx->sites[i].addr);
	return n < len ? 0 : -1;
}

/*
 * --append and the region's scope for our kernel (" el.region=whole" for
 * the whole program), before the " -- " of the program's arguments.
 */
static int scope_append(char *out, size_t len, const char *append, enum el_region_scope scope,
			char *err, size_t errlen)
{
	if ((size_t)snprintf(out, len, "%s", append ? append : "") >= len)
		return snprintf(err, errlen, "--append is too long: shorten it"), -1;
	return region_cmdline_append(out, len, scope, err, errlen);
}

void trace_qemu_run(const struct el_trace_job *job, struct el_trace_run *r)
{
	const struct el_trace_opts *opts = &job->opts;
	const struct el_run_spec *spec = job->spec;
	struct trace_dir d = {0};
	char cmdline[EL_CMDLINE_MAX], append[EL_CMDLINE_MAX], mem[32], plugin[4096];
	const char *bios = trace_qemu_firmware();

	memset(r, 0, sizeof(*r));
	r->split_frames = job->lx != NULL;
	snprintf(r->qemu, sizeof(r->qemu), "%s", qemu_binary(opts));
	snprintf(r->bios, sizeof(r->bios), "%s", bios ? bios : "");
	if (trace_qemu_cpu(&spec->cpu, r->cpu, sizeof(r->cpu), r->err, sizeof(r->err)) ||
	    (!job->lx && scope_append(append, sizeof(append), spec->append, job->scope, r->err,
				      sizeof(r->err))) ||
	    (!job->lx && trace_guest_cmdline(cmdline, sizeof(cmdline), append,
					     spec->init_args, r->err, sizeof(r->err))) ||
	    dir_make(&d, job, r->err, sizeof(r->err))) {
		r->spawn_failed = true;
		dir_remove(&d, job);
		return;
	}
	if (plugin_args(job, &d, plugin, sizeof(plugin))) {
		snprintf(r->err, sizeof(r->err), "the plugin's arguments are too long");
		r->spawn_failed = true;
		dir_remove(&d, job);
		return;
	}
	snprintf(mem, sizeof(mem), "%lluM",
		 (unsigned long long)((spec->mem_bytes + (1u << 20) - 1) >> 20));
	/*
	 * A Linux guest gets -seed too: its RDRAND (TCG's draws from QEMU's
	 * generator) seeds the kernel's RNG, and so user ASLR, the mmap base
	 * and the page tables a benchmark's pages land in; with a fixed seed
	 * the same command counts the same instructions.
	 */
	{
		const char *argv[48] = {
			r->qemu, "-accel", "tcg", "-cpu", r->cpu, "-m", mem, "-nodefaults",
			"-kernel", d.kernel, "-initrd", d.initrd,
			"-append", job->lx ? job->lx->cmdline : cmdline,
			"-display", "none", "-serial", "stdio", "-monitor", "none", "-no-reboot",
			"-device", "isa-debug-exit,iobase=0xf4,iosize=4",
			"-icount", "shift=0,sleep=off",
			"-rtc", "base=2024-01-01T00:00:00,clock=vm", "-plugin", plugin};
		unsigned n = 0;

		while (argv[n])
			n++;
		if (job->lx) {
			argv[n++] = "-seed";
			argv[n++] = "1";
		}
		if (bios) {
			argv[n++] = "-bios";
			argv[n++] = bios;
		}
		trace_spawn(argv, spec->timeout_s, spec->verbose, r);
	}
	if (!r->spawn_failed && !r->timed_out) {
		char why[300];

		/* A missing file is the plugin not having run: the outcome says so. */
		r->plugin_out = io_read_file(d.counts, TRACE_PLUGIN_OUT_MAX, &r->plugin_out_len,
					     why, sizeof(why));
	}
	dir_remove(&d, job);
}

void trace_run_free(struct el_trace_run *r)
{
	free(r->console);
	free(r->qemu_err);
	free(r->plugin_out);
	free(r->frames);
	r->console = r->qemu_err = r->plugin_out = r->frames = NULL;
}
