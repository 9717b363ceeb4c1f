/*
 * Confinement of the VMM (vmm/README.md, "Confinement"): what one run does between
 * set-up and the first KVM_RUN, and what it reports.
 *
 * el_vm_run() (jail.c) forks a child per run; the child sets the VM up
 * (run.c), then confine_apply() closes every fd it does not need, drops
 * root and every capability, sets no_new_privs and installs the seccomp
 * allow-list (confine_rules.c).  A forbidden syscall traps (SIGSYS); the
 * handler notes the syscall number for the parent and the child exits,
 * and the parent reports a vmm-error naming the syscall.  vmm/README.md
 * ("Confinement") explains the order and why.
 */
#ifndef EL_CONFINE_H
#define EL_CONFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct el_vm;
struct el_run_spec;
struct el_run_result;

#define EL_CONFINE_MAX_FDS 16

/* What the child saw after confinement (its /proc/self/status), for the record. */
struct el_confine_info {
	bool applied;                /* confine_apply() ran to the end */
	char seccomp[16];            /* "filter", "disabled" (ENTRYLAB_NO_SECCOMP), "" unknown */
	int seccomp_mode;            /* /proc/self/status Seccomp: (2 = filter), -1 unknown */
	unsigned syscalls_allowed;   /* syscalls on the allow-list */
	long uid, gid;               /* real uid/gid after the drop; -1 unknown */
	char cap_eff[20];            /* CapEff: hex as /proc/self/status prints it */
	char cap_bnd[20];            /* CapBnd: */
	int no_new_privs;            /* NoNewPrivs:, -1 unknown */
	int fds[EL_CONFINE_MAX_FDS]; /* open fds after the close, ascending */
	unsigned nr_fds;
	char output[64]; /* the child's output backend (hostout_backend()) */
};

/*
 * The child's side, just before the first KVM_RUN: close, drop, filter.
 * keep_fd is the result pipe (or -1).  0, or -1 with err naming what
 * failed and how to get past it.
 */
int confine_apply(const struct el_vm *vm, int keep_fd, struct el_confine_info *info, char *err,
		  size_t errlen);

/*
 * The allow-list (confine_rules.c): installs it; 0 or -1 with err.
 * linux_mode: also KVM_IRQ_LINE (COM1's interrupt, vm.h EL_VM_LINUX).
 */
int confine_seccomp_load(unsigned *nr_allowed, bool linux_mode, char *err, size_t errlen);

/* The SIGSYS trap: set by the handler in the child, read by the parent (shared page). */
struct el_confine_violation {
	volatile int hit;
	volatile int nr;        /* si_syscall */
	volatile unsigned arch; /* si_arch */
};
void confine_trap_install(struct el_confine_violation *shared);

/* Fills seccomp_mode, no_new_privs, uid, gid, cap_eff, cap_bnd from /proc/self/status text. */
void confine_status_parse(const char *text, struct el_confine_info *info);

/*
 * Environment variables that steer the confinement (NULL-terminated):
 * ENTRYLAB_NO_SECCOMP (debugging: no filter), ENTRYLAB_TEST_SECCOMP_VIOLATE
 * and ENTRYLAB_TEST_VMM_SEGV (test-only: a forbidden syscall, a crash of the
 * VMM process after confinement).  The nested runner exports them.
 */
extern const char *const confine_env_names[];

/* "socket" for a syscall number of this architecture; "?" if unknown. */
const char *confine_syscall_name(int nr, char *buf, size_t len);

/*
 * The run itself, in the child (run.c): set-up, confine_apply() with
 * keep_fd kept open, the exit loop.  el_vm_run() (jail.c) forks and calls it.
 */
void vm_run_here(const struct el_run_spec *spec, struct el_run_result *res, int keep_fd);

#endif
