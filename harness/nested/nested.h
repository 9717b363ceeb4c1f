/*
 * The nested runner: on a host without a usable /dev/kvm, entrylab re-runs
 * the same command inside a small Linux VM (QEMU TCG, -cpu max, nested SVM)
 * whose initramfs holds a static entrylab; records, stdout, stderr and the
 * exit status come back to the host.
 */
#ifndef EL_NESTED_H
#define EL_NESTED_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct record_out;

/* --nested, --no-nested, or neither (use it when /dev/kvm is not usable). */
enum el_nested_mode { EL_NESTED_AUTO, EL_NESTED_FORCE, EL_NESTED_FORBID };

/*
 * Whether the runner can start here: the QEMU it would run
 * ($ENTRYLAB_QEMU, else qemu-system-x86_64) found in PATH, and the VM's
 * files (base.cpio, kernel) readable in $ENTRYLAB_NESTED_DIR, else the
 * build's nested/ directory.  Native or nested is the engine probe's
 * decision (harness/engine/engine.h), not this header's.
 */
#define NESTED_PATH_MAX 4096
struct nested_ready {
	char qemu[256];                   /* the QEMU binary as named (ENTRYLAB_QEMU or the default) */
	char qemu_path[NESTED_PATH_MAX];  /* where PATH finds it; "" when it does not */
	char dir[NESTED_PATH_MAX - 16];   /* the files' directory; "" when this build has none */
	char base[NESTED_PATH_MAX], kernel[NESTED_PATH_MAX]; /* dir/base.cpio, dir/kernel */
	bool files;                       /* both readable */
	char why[NESTED_PATH_MAX + 400];  /* when !files: what is missing and the fix */
};
void nested_ready_get(struct nested_ready *r);

/* True when running as the inner entrylab inside the nested VM. */
bool nested_is_inner(void);

/*
 * Inside the nested VM: the file the inner entrylab must append its records
 * to, instead of -o or the default under results/ (a regular file the VM's
 * init ships back to the host's output file while the command runs).
 * NULL when not inner.
 */
const char *nested_inner_output(void);

/* Tests only: raise the signal ENTRYLAB_TEST_INNER_CRASH names (inner only). */
void nested_inner_test_crash(void);

/*
 * `entrylab __nested-agent`: PID 1 of the nested runner's VM, started by its
 * init (harness/nested/nested_agent.c); refuses to run anywhere else.
 */
int nested_agent_main(void);

/* `entrylab runner`: the warm runners to out, or (stop) the idle ones stopped; an exit status. */
int nested_runner_list(bool stop, FILE *out);

/*
 * What the nested runner runs: the command, parsed by the caller, and what
 * the runner needs to know of it.  argv is main()'s, forwarded as given
 * (argv[1] is the subcommand); the inner command sees the host's cwd, so
 * relative paths still work.
 */
struct nested_request {
	int argc;
	char **argv;
	struct record_out *output; /* host file (open) the inner records are appended to as they
				      come back; NULL: none.  A failed write sets output->failed
				      and makes nested_run return EL_EXIT_VMM */
	const char *const *files;  /* host files the command needs (--exec, --kernel), NULL-ended;
				      they appear inside at the same paths */
	const char *why;           /* why the command runs nested (the engine probe's reason),
				      in the one notice on stderr; NULL: no reason given */
	bool verbose;              /* -v: the VM's console and timings on stderr */
	bool cold;                 /* --no-warm: a VM for this command alone, not a warm runner */
	double timeout_s;          /* the command's per-boot --timeout; 0 = none */
	unsigned boots;            /* boots the command does (repeats x variants), for the deadline */
	bool expects_record;       /* a record per boot started (run): a guest status with none is
				      a VMM error */
	/* called with each record line once it is on disk in output (no newline) */
	void (*on_record)(void *ctx, const char *line, size_t len);
	void *ctx;
	/* nonzero (set by a signal handler): stop the VM now; nested_run returns 128 + *stop */
	const volatile sig_atomic_t *stop;
};

/*
 * Runs the request's command in the nested VM and returns the inner
 * process's exit status (or an EL_EXIT_* code if the runner itself failed,
 * with a message naming the problem and the fix).
 */
int nested_run(const struct nested_request *r);

#endif
