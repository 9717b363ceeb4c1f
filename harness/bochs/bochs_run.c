/*
 * One boot under Bochs (bochs.h): a private directory with the kernel, the
 * initrd and grub.cfg, an ISO by grub-mkrescue, a bochsrc, Bochs headless
 * until the guest writes "Shutdown" to port 0x8900 or the deadline passes,
 * then COM1's capture decoded (frame.h) into the result.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array_size.h"
#include "bochs.h"
#include "bochs_priv.h"
#include "frame.h"
#include "host_io.h"
#include "output_cap.h"
#include "pvh_start.h"
#include "qemu_spawn.h"
#include "region_scope.h"
#include "text_keep.h"
#include "text_sanitize.h"

#define BOCHS_BIOS "/usr/share/bochs/BIOS-bochs-latest"
#define BOCHS_COM1_MAX (64u << 20) /* a capture larger than this is the guest's flood */
#define BOCHS_INSTALL "install them with `apt-get install bochs bochsbios vgabios bochs-term " \
		      "grub-pc-bin grub-common xorriso mtools` (or harness/bootstrap.sh)"

enum { P_ISODIR, P_GRUBDIR, P_ISO, P_RC, P_COM1, P_LOG, P_OUT, P_MKRESCUE_OUT, P_DBG, P_COUNT };

struct bochs_ctx {
	const struct el_run_spec *spec;
	const char *model;
	struct el_run_result *res;
	char dir[256];
	char path[P_COUNT][320];
};

static const char *const bochs_files[] = {
	[P_ISODIR] = "iso", [P_GRUBDIR] = "iso/boot/grub", [P_ISO] = "entrylab.iso",
	[P_RC] = "bochsrc", [P_COM1] = "com1.txt", [P_LOG] = "bochs.log",
	[P_OUT] = "bochs.out", [P_MKRESCUE_OUT] = "grub-mkrescue.out", [P_DBG] = "debugger.rc",
};

static int fail(struct bochs_ctx *c, enum el_run_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct bochs_ctx *c, enum el_run_status st, const char *fmt, ...)
{
	va_list ap;

	c->res->status = st;
	va_start(ap, fmt);
	vsnprintf(c->res->detail, sizeof(c->res->detail), fmt, ap);
	va_end(ap);
	return -1;
}

static int ctx_dir(struct bochs_ctx *c)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(c->dir, sizeof(c->dir), "%s/entrylab-bochs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir))
		return fail(c, EL_RUN_VMM_ERROR, "cannot create a directory under %s for the Bochs "
			    "run: %s; set TMPDIR to a writable directory", tmp && *tmp ? tmp
			    : "/tmp", strerror(errno));
	for (unsigned i = 0; i < EL_ARRAY_SIZE(bochs_files); i++)
		snprintf(c->path[i], sizeof(c->path[i]), "%s/%s", c->dir, bochs_files[i]);
	return 0;
}

static int write_file(struct bochs_ctx *c, const char *name, const void *data, size_t len)
{
	char path[400], err[400];

	snprintf(path, sizeof(path), "%s/%s", c->dir, name);
	if (io_write_new_file(path, data, len, err, sizeof(err)))
		return fail(c, EL_RUN_VMM_ERROR, "%s", err);
	return 0;
}

/* The command line the VMM would give the guest, without the TSC rate (Bochs has its own). */
static int guest_cmdline(struct bochs_ctx *c, char *out, size_t outlen)
{
	char err[300];
	size_t used;

	if (pvh_cmdline_compose(out, outlen, c->spec->append, 0, err, sizeof(err)))
		return fail(c, EL_RUN_UNSUPPORTED, "%s", err);
	if (region_cmdline_append(out, outlen, c->spec->region_scope, err, sizeof(err)))
		return fail(c, EL_RUN_UNSUPPORTED, "%s", err);
	if (!c->spec->init_args || !*c->spec->init_args)
		return 0;
	used = strlen(out);
	if ((size_t)snprintf(out + used, outlen - used, " -- %s", c->spec->init_args) >=
	    outlen - used)
		return fail(c, EL_RUN_UNSUPPORTED, "the guest command line with the program's "
			    "arguments exceeds %zu bytes: shorten the arguments or --append",
			    outlen - 1);
	return 0;
}

static int make_tree(struct bochs_ctx *c)
{
	char cmdline[EL_CMDLINE_MAX], cfg[12288], err[400];

	if (guest_cmdline(c, cmdline, sizeof(cmdline)))
		return -1;
	if (bochs_grub_cfg(cmdline, cfg, sizeof(cfg), err, sizeof(err)))
		return fail(c, EL_RUN_UNSUPPORTED, "%s", err);
	{
		char boot[340];

		snprintf(boot, sizeof(boot), "%s/boot", c->path[P_ISODIR]);
		if (mkdir(c->path[P_ISODIR], 0700) || mkdir(boot, 0700) ||
		    mkdir(c->path[P_GRUBDIR], 0700))
			return fail(c, EL_RUN_VMM_ERROR, "cannot create %s: %s", c->path[P_GRUBDIR],
				    strerror(errno));
	}
	if (!c->spec->kernel || !c->spec->kernel_len)
		return fail(c, EL_RUN_VMM_ERROR, "no guest kernel image to boot");
	if (write_file(c, "iso/boot/grub/grub.cfg", cfg, strlen(cfg)) ||
	    write_file(c, "iso/boot/kernel", c->spec->kernel, c->spec->kernel_len) ||
	    write_file(c, "iso/boot/initrd", c->spec->initrd ? (const void *)c->spec->initrd : "",
		       c->spec->initrd ? c->spec->initrd_len : 0))
		return -1;
	return 0;
}

/* What a helper's end says, or 0 when it exited 0. */
static int helper_end(struct bochs_ctx *c, const char *what, const struct bochs_exec_result *r,
		      const char *out)
{
	if (r->timed_out)
		return fail(c, EL_RUN_TIMEOUT, "%s did not finish within --timeout %g s; see %s",
			    what, c->spec->timeout_s, out);
	if (WIFEXITED(r->wait_status) && WEXITSTATUS(r->wait_status) == 0)
		return 0;
	if (WIFSIGNALED(r->wait_status))
		return fail(c, EL_RUN_VMM_ERROR, "%s was killed by signal %d; see %s", what,
			    WTERMSIG(r->wait_status), out);
	return fail(c, EL_RUN_VMM_ERROR, "%s failed (exit status %d); see %s", what,
		    WEXITSTATUS(r->wait_status), out);
}

static int make_iso(struct bochs_ctx *c)
{
	const char *argv[] = {"grub-mkrescue", "-o", c->path[P_ISO], c->path[P_ISODIR], NULL};
	struct bochs_exec_result r;

	if (bochs_exec(argv, c->path[P_MKRESCUE_OUT], c->spec->timeout_s, &r))
		return fail(c, EL_RUN_UNSUPPORTED, "%s%s", r.err, r.not_found ? "; "
			    BOCHS_INSTALL : "");
	return helper_end(c, "grub-mkrescue", &r, c->path[P_MKRESCUE_OUT]);
}

static int make_rc(struct bochs_ctx *c)
{
	char text[4096];
	struct bochs_rc rc = {
		.model = c->model, .megs = (unsigned)(c->spec->mem_bytes >> 20),
		.iso = c->path[P_ISO], .com1 = c->path[P_COM1], .log = c->path[P_LOG],
		.bios = BOCHS_BIOS, .vgabios = bochs_vgabios_path(),
	};

	if (access(BOCHS_BIOS, R_OK) || !rc.vgabios)
		return fail(c, EL_RUN_UNSUPPORTED, "Bochs's BIOS (%s) or a VGA BIOS "
			    "(/usr/share/vgabios/vgabios.bin) is missing; " BOCHS_INSTALL,
			    BOCHS_BIOS);
	if (bochs_rc_text(&rc, text, sizeof(text)))
		return fail(c, EL_RUN_VMM_ERROR, "bochsrc does not fit %zu bytes", sizeof(text));
	/* Debian's Bochs has the debugger built in: it stops before the first instruction. */
	if (write_file(c, "debugger.rc", "c\n", 2))
		return -1;
	return write_file(c, "bochsrc", text, strlen(text));
}

/* The first "PANIC" line of bochs.log, if any, for the detail. */
static void log_panic(const char *log, char *out, size_t outlen)
{
	size_t len = 0;
	char err[200];
	char *text = io_read_file(log, 16u << 20, &len, err, sizeof(err));
	const char *p = text ? strstr(text, "PANIC") : NULL;

	/* the guest's own "Shutdown" is logged as a panic too: not the problem */
	while (p && !strncmp(p + strcspn(p, "S\n"), "Shutdown port", 13))
		p = strstr(p + 5, "PANIC");
	out[0] = '\0';
	if (p) {
		size_t n = strcspn(p, "\n");

		snprintf(out, outlen, ": %.*s", (int)(n > 160 ? 160 : n), p);
	}
	free(text);
}

static void console_into(struct bochs_ctx *c, const struct frame_scan *s)
{
	struct text_keep k;
	size_t len = 0;

	text_keep_init(&k, EL_OUTPUT_HEAD, EL_OUTPUT_TAIL);
	text_keep_put(&k, s->console, s->console_len);
	c->res->console_bytes = k.total;
	c->res->console_dropped = text_keep_dropped(&k);
	c->res->console = text_keep_finish(&k, &len);
	c->res->console_len = c->res->console ? len : 0;
	if (c->spec->verbose && s->console_len) {
		size_t cap = s->console_len * 4 + 1;
		char *esc = malloc(cap);

		if (esc) {
			size_t n = text_escape_terminal(s->console, s->console_len, esc, cap);

			fwrite(esc, 1, n, stderr);
			free(esc);
		}
	}
}

static int decode(struct bochs_ctx *c, const struct bochs_exec_result *r)
{
	size_t len = 0;
	char err[300], why[200];
	char *text = io_read_file(c->path[P_COM1], BOCHS_COM1_MAX, &len, err, sizeof(err));
	struct frame_scan s;

	if (!text && r->timed_out)
		return fail(c, EL_RUN_TIMEOUT, "Bochs did not end within --timeout %g s and the "
			    "guest wrote nothing on COM1; see %s and %s", c->spec->timeout_s,
			    c->path[P_LOG], c->path[P_OUT]);
	if (!text)
		return fail(c, EL_RUN_VMM_ERROR, "Bochs ended (%s) and the guest wrote nothing on "
			    "COM1; see %s and %s", WIFEXITED(r->wait_status) ? "exit status"
			    : "signal", c->path[P_LOG], c->path[P_OUT]);
	if (frame_decode(text, len, &s)) {
		free(text);
		return fail(c, EL_RUN_VMM_ERROR, "%s", s.err);
	}
	free(text);
	console_into(c, &s);
	frame_result(&s, c->res);
	frame_scan_free(&s);
	/* Bochs's clock is its own instruction count: nothing of the region is a measurement. */
	c->res->run.region = (struct el_region){0};
	c->res->region_begun = c->res->region_ended = false;
	if (c->res->status == EL_RUN_OK)
		return 0;
	if (r->timed_out && c->res->status == EL_RUN_GUEST_CRASH)
		return fail(c, EL_RUN_TIMEOUT, "Bochs did not end within --timeout %g s (%s); see "
			    "%s", c->spec->timeout_s, c->res->detail, c->path[P_LOG]);
	log_panic(c->path[P_LOG], why, sizeof(why));
	{
		size_t o = strlen(c->res->detail);
		int n = snprintf(c->res->detail + o, sizeof(c->res->detail) - o, "%s; see %s", why,
				 c->path[P_LOG]);

		(void)n; /* a detail cut short still names the problem first */
	}
	return -1;
}

static int run_bochs(struct bochs_ctx *c)
{
	const char *argv[] = {"bochs", "-q", "-f", c->path[P_RC], "-rc", c->path[P_DBG], NULL};
	struct bochs_exec_result r;

	if (bochs_exec(argv, c->path[P_OUT], c->spec->timeout_s, &r))
		return fail(c, EL_RUN_UNSUPPORTED, "%s%s", r.err, r.not_found ? "; "
			    BOCHS_INSTALL : "");
	return decode(c, &r);
}

static void remove_tree(const char *dir)
{
	char path[400];

	for (unsigned i = 0; i < 3; i++) {
		static const char *const deep[] = {"iso/boot/grub/grub.cfg", "iso/boot/kernel",
						   "iso/boot/initrd"};

		snprintf(path, sizeof(path), "%s/%s", dir, deep[i]);
		unlink(path);
	}
	for (unsigned i = 0; i < 3; i++) {
		static const char *const dirs[] = {"iso/boot/grub", "iso/boot", "iso"};

		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		rmdir(path);
	}
	for (unsigned i = P_ISO; i < EL_ARRAY_SIZE(bochs_files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, bochs_files[i]);
		unlink(path);
	}
	rmdir(dir);
}

bool bochs_tools_find(char *bochs, char *mkrescue, size_t cap)
{
	bool b = qemu_find_exe("bochs", bochs, cap);
	bool m = qemu_find_exe("grub-mkrescue", mkrescue, cap);

	if (!b && cap)
		bochs[0] = '\0';
	if (!m && cap)
		mkrescue[0] = '\0';
	return b && m;
}

void bochs_run(const struct el_run_spec *spec, const char *model, struct el_run_result *res,
	       char *logdir, size_t logdir_len)
{
	struct bochs_ctx c = {.spec = spec, .model = model, .res = res};
	char exe[256], mkrescue[256];

	memset(res, 0, sizeof(*res));
	snprintf(res->exit_reason, sizeof(res->exit_reason), "bochs");
	if (logdir_len)
		logdir[0] = '\0';
	if (!bochs_tools_find(exe, mkrescue, sizeof(exe))) {
		fail(&c, EL_RUN_UNSUPPORTED, "--engine bochs needs bochs and grub-mkrescue in "
		     "PATH; " BOCHS_INSTALL);
		return;
	}
	if (ctx_dir(&c))
		return;
	if (!make_tree(&c) && !make_iso(&c) && !make_rc(&c) && !run_bochs(&c)) {
		remove_tree(c.dir);
		return;
	}
	snprintf(logdir, logdir_len, "%s", c.dir);
}
