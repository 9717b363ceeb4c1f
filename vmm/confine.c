/*
 * confine_apply(): the child's last step before the first KVM_RUN (see
 * confine.h).  In this order, each step needing what the previous kept:
 *   1. close every fd but 0-2, the KVM fds and the result pipe;
 *   2. list what is left (/proc/self/fd, unreadable once we are nobody);
 *   3. open /proc/self/status, to read the confinement back at the end;
 *   4. as root: drop the bounding set, then setgroups/setgid/setuid to
 *      SUDO_UID/SUDO_GID or nobody; in any case capset() to empty and
 *      no_new_privs;
 *   5. the seccomp allow-list (confine_rules.c), unless ENTRYLAB_NO_SECCOMP;
 *   6. read /proc/self/status back into the record's vmm.jail.
 * The SIGSYS trap is installed earlier (confine_trap_install, by jail.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array_size.h"
#include "confine.h"
#include "hostout.h"
#include "vm.h"

#define EL_CONFINE_NOBODY 65534 /* nobody/nogroup, when not started through sudo */

/* Not a constant: the compiler must not see the test hook's store to NULL. */
static volatile int *volatile confine_null;

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Closes every fd not in keep[] (sorted here); close_range(2) over the gaps. */
static int confine_close_fds(int *keep, unsigned n, char *err, size_t errlen)
{
	unsigned lo = 0;

	qsort(keep, n, sizeof(*keep), cmp_int);
	for (unsigned i = 0; i <= n; i++) {
		unsigned hi = i < n ? (unsigned)keep[i] : ~0u;

		if (i < n && keep[i] < 0)
			continue;
		if (hi > lo && close_range(lo, hi - 1, 0)) {
			snprintf(err, errlen,
				 "close_range(%u, %u): %s: the kernel needs Linux 5.9 "
				 "or later",
				 lo, hi - 1, strerror(errno));
			return -1;
		}
		if (i < n)
			lo = hi + 1;
	}
	return 0;
}

static void confine_list_fds(struct el_confine_info *info)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	info->nr_fds = 0;
	if (!d)
		return;
	while ((e = readdir(d)) && info->nr_fds < EL_CONFINE_MAX_FDS) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (end != e->d_name && !*end && fd != dirfd(d))
			info->fds[info->nr_fds++] = (int)fd;
	}
	closedir(d);
	qsort(info->fds, info->nr_fds, sizeof(info->fds[0]), cmp_int);
}

/* SUDO_UID/SUDO_GID when numeric and not root, else nobody. */
static unsigned long confine_target_id(const char *env)
{
	const char *v = getenv(env);
	char *end;
	unsigned long id;

	if (!v || !*v)
		return EL_CONFINE_NOBODY;
	id = strtoul(v, &end, 10);
	return *end || !id ? EL_CONFINE_NOBODY : id;
}

static int confine_drop_root(char *err, size_t errlen)
{
	unsigned long uid = confine_target_id("SUDO_UID"), gid = confine_target_id("SUDO_GID");

	for (int cap = 0; prctl(PR_CAPBSET_READ, cap) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap)) {
			snprintf(err, errlen, "prctl(PR_CAPBSET_DROP, %d): %s", cap,
				 strerror(errno));
			return -1;
		}
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		snprintf(err, errlen,
			 "cannot drop root to uid %lu gid %lu: %s (run entrylab as a "
			 "user in the kvm group instead of root)",
			 uid, gid, strerror(errno));
		return -1;
	}
	return 0;
}

/* Root or not: no capabilities left, and no way to gain any (no_new_privs). */
static int confine_drop(char *err, size_t errlen)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};

	if ((getuid() == 0 || geteuid() == 0) && confine_drop_root(err, errlen))
		return -1;
	if (syscall(SYS_capset, &hdr, data)) {
		snprintf(err, errlen, "capset to no capabilities: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(err, errlen, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The status fd was opened before the drop; pread regenerates it now. */
static void confine_read_back(int fd, struct el_confine_info *info)
{
	char text[4096];
	ssize_t n = fd >= 0 ? pread(fd, text, sizeof(text) - 1, 0) : -1;

	text[n > 0 ? n : 0] = 0;
	confine_status_parse(text, info);
}

int confine_apply(const struct el_vm *vm, int keep_fd, struct el_confine_info *info, char *err,
		  size_t errlen)
{
	int keep[] = {0, 1, 2, vm->kvm_fd, vm->vm_fd, vm->vcpu_fd, keep_fd};
	bool filter = !getenv("ENTRYLAB_NO_SECCOMP");
	bool violate = getenv("ENTRYLAB_TEST_SECCOMP_VIOLATE") != NULL;
	bool segv = getenv("ENTRYLAB_TEST_VMM_SEGV") != NULL;
	int status_fd;

	if (confine_close_fds(keep, EL_ARRAY_SIZE(keep), err, errlen))
		return -1;
	confine_list_fds(info);
	status_fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (confine_drop(err, errlen))
		goto fail;
	snprintf(info->seccomp, sizeof(info->seccomp), "%s", filter ? "filter" : "disabled");
	snprintf(info->output, sizeof(info->output), "%s", hostout_backend());
	if (filter && confine_seccomp_load(&info->syscalls_allowed, vm->flags & EL_VM_LINUX, err, errlen))
		goto fail;
	confine_read_back(status_fd, info);
	if (status_fd >= 0)
		close(status_fd);
	info->applied = true;
	/* Test-only (tests/kvm): a syscall the allow-list lacks, to show the trap. */
	if (violate)
		syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
	/* Test-only: the VMM process crashing, for the parent to name the signal. */
	if (segv)
		*(volatile int *)confine_null = 0;
	return 0;
fail:
	if (status_fd >= 0)
		close(status_fd);
	return -1;
}

static struct el_confine_violation *trap_shared;

/* Async-signal-safe: a store, a write(2) with the number in decimal, exit. */
static void confine_sigsys(int sig, siginfo_t *si, void *uc)
{
	static const char head[] = "entrylab: the VMM was killed by its seccomp filter (syscall ";
	char num[16];
	int n = sizeof(num), nr = si->si_syscall;

	(void)sig;
	(void)uc;
	if (trap_shared) {
		trap_shared->nr = nr;
		trap_shared->arch = si->si_arch;
		trap_shared->hit = 1;
	}
	num[--n] = '\n';
	num[--n] = ')';
	do {
		num[--n] = (char)('0' + (nr < 0 ? 0 : nr) % 10);
		nr /= 10;
	} while (nr > 0 && n > 0);
	(void)!write(2, head, sizeof(head) - 1);
	(void)!write(2, num + n, sizeof(num) - (size_t)n);
	syscall(SYS_exit_group, 125);
}

void confine_trap_install(struct el_confine_violation *shared)
{
	struct sigaction sa = {.sa_sigaction = confine_sigsys, .sa_flags = SA_SIGINFO};
	sigset_t set;

	trap_shared = shared;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSYS, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}
