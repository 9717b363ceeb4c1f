/*
 * The seccomp allow-list of a confined run (confine.h): the syscalls the
 * KVM_RUN loop and the end of the run make, and nothing else.  Default
 * action SCMP_ACT_TRAP: the kernel refuses the call and sends SIGSYS, whose
 * handler (confine.c) reports the syscall number and exits.
 *
 * Found by reading the loop (exit_loop.c, dev/, hostout.c's write(2) path,
 * regs_dump.c, vm_destroy(), console_finish()) and by running the KVM
 * tests with the filter on: a missing entry shows up as a vmm-error naming
 * the syscall.  io_uring is deliberately absent: its operations bypass
 * seccomp, so a confined run writes with write(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "array_size.h"
#include "confine.h"

/* clang-format off */
/* Any arguments. */
static const char *const confine_plain[] = {
	/* output: the program's stdout/stderr, -v console, messages; the result pipe */
	"write", "writev",
	/* reading /proc/self/status back after the filter is on (confine.c) */
	"pread64", "read", "lseek", "fstat", "newfstatat",
	"close",
	/* memory: malloc/realloc of the console, free */
	"brk", "munmap", "mremap", "madvise",
	/* time: loop_ms(), the --timeout timer's end */
	"clock_gettime", "clock_getres", "gettimeofday", "timer_settime", "timer_gettime",
	"timer_delete",
	/* signals: the --timeout handler and the SIGSYS trap return */
	"rt_sigreturn", "rt_sigprocmask", "restart_syscall",
	"sigaltstack", /* the sanitizers' runtime (unit_tests_asan) */
	/* libc internals: stdio locks, allocator, identity */
	"futex", "getpid", "gettid", "sched_yield", "getrandom",
	/* run.c restores the affinity after --pin */
	"sched_getaffinity", "sched_setaffinity",
	/* main's hostout (bounded output): poll for a stalled reader up to the deadline;
	 * run.c: the peak RSS for the record */
	"poll", "ppoll", "getrusage",
	"exit", "exit_group",
};
/* clang-format on */

/* The vCPU's ioctls in the loop and after it (regs_dump.c: getters only); every other ioctl traps. */
static const unsigned long confine_ioctls[] = {
	KVM_RUN,
	KVM_GET_REGS,
	KVM_GET_SREGS,
	KVM_GET_MP_STATE,
	KVM_GET_VCPU_EVENTS,
	KVM_GET_LAPIC,
};

/* Linux mode only: COM1's interrupt line (linux_mode.c), on the VM fd. */
static const unsigned long confine_ioctls_linux[] = {
	KVM_IRQ_LINE,
};

static const int confine_fcntls[] = {F_GETFL, F_SETFL};

static int rule_name(scmp_filter_ctx ctx, const char *name, unsigned argc,
		     const struct scmp_arg_cmp *args, char *err, size_t errlen)
{
	int nr = seccomp_syscall_resolve_name(name);
	int rc;

	if (nr == __NR_SCMP_ERROR) {
		snprintf(err, errlen,
			 "seccomp: syscall %s unknown to libseccomp: update "
			 "vmm/confine_rules.c",
			 name);
		return -1;
	}
	rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, argc, args);
	if (rc < 0) {
		snprintf(err, errlen, "seccomp: cannot allow %s: %s", name, strerror(-rc));
		return -1;
	}
	return 0;
}

/* mmap and mprotect without PROT_EXEC: no new code after set-up. */
static int rules_memory(scmp_filter_ctx ctx, unsigned *n, char *err, size_t errlen)
{
	struct scmp_arg_cmp noexec = SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);

	if (rule_name(ctx, "mmap", 1, &noexec, err, errlen) ||
	    rule_name(ctx, "mprotect", 1, &noexec, err, errlen))
		return -1;
	*n += 2;
	return 0;
}

static int rules_ioctls(scmp_filter_ctx ctx, const unsigned long *reqs, size_t n, char *err,
			size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		struct scmp_arg_cmp req = SCMP_A1(SCMP_CMP_EQ, reqs[i]);

		if (rule_name(ctx, "ioctl", 1, &req, err, errlen))
			return -1;
	}
	return 0;
}

/* ioctl by request number; tgkill only to this process (abort()). */
static int rules_restricted(scmp_filter_ctx ctx, bool linux_mode, unsigned *n, char *err,
			    size_t errlen)
{
	struct scmp_arg_cmp self = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid());

	if (rules_ioctls(ctx, confine_ioctls, EL_ARRAY_SIZE(confine_ioctls), err, errlen) ||
	    (linux_mode && rules_ioctls(ctx, confine_ioctls_linux,
					EL_ARRAY_SIZE(confine_ioctls_linux), err, errlen)))
		return -1;
	if (rule_name(ctx, "tgkill", 1, &self, err, errlen))
		return -1;
	/* hostout makes a stalled stdout O_NONBLOCK: F_GETFL/F_SETFL only */
	for (size_t i = 0; i < EL_ARRAY_SIZE(confine_fcntls); i++) {
		struct scmp_arg_cmp cmd = SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)confine_fcntls[i]);

		if (rule_name(ctx, "fcntl", 1, &cmd, err, errlen))
			return -1;
	}
	*n += 3;
	return 0;
}

int confine_seccomp_load(unsigned *nr_allowed, bool linux_mode, char *err, size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	unsigned n = 0;
	int rc;

	if (!ctx) {
		snprintf(err, errlen,
			 "seccomp_init failed: the kernel needs CONFIG_SECCOMP_FILTER "
			 "(or set ENTRYLAB_NO_SECCOMP=1 to run unconfined, for debugging)");
		return -1;
	}
	for (size_t i = 0; i < EL_ARRAY_SIZE(confine_plain); i++, n++)
		if (rule_name(ctx, confine_plain[i], 0, NULL, err, errlen))
			goto fail;
	if (rules_memory(ctx, &n, err, errlen) || rules_restricted(ctx, linux_mode, &n, err, errlen))
		goto fail;
	rc = seccomp_load(ctx);
	if (rc < 0) {
		snprintf(err, errlen,
			 "seccomp_load: %s: the kernel refused the filter (set "
			 "ENTRYLAB_NO_SECCOMP=1 to run unconfined, for debugging)",
			 strerror(-rc));
		goto fail;
	}
	seccomp_release(ctx);
	*nr_allowed = n;
	return 0;
fail:
	seccomp_release(ctx);
	return -1;
}

const char *confine_syscall_name(int nr, char *buf, size_t len)
{
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

	snprintf(buf, len, "%s", name ? name : "?");
	free(name);
	return buf;
}
