/*
 * The confinement without KVM (vmm/confine.h): /proc/self/status parsing,
 * the allow-list in a forked child (allowed calls work, a forbidden one
 * traps with its number), confine_apply()'s fd closing and drop, and the
 * nested runner passing the knobs on.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "confine.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "vm.h"

Test(confine, status_fields_parsed)
{
	static const char text[] =
		"Name:\tentrylab\nUmask:\t0022\nUid:\t65534\t65534\t65534\t65534\n"
		"Gid:\t65533\t65533\t65533\t65533\nCapInh:\t0000000000000000\n"
		"CapEff:\t0000000000000000\nCapBnd:\t000001ffffffffff\n"
		"NoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n";
	struct el_confine_info info = {0};

	confine_status_parse(text, &info);
	cr_expect_eq(info.uid, 65534);
	cr_expect_eq(info.gid, 65533);
	cr_expect_str_eq(info.cap_eff, "0000000000000000");
	cr_expect_str_eq(info.cap_bnd, "000001ffffffffff");
	cr_expect_eq(info.no_new_privs, 1);
	cr_expect_eq(info.seccomp_mode, 2, "Seccomp_filters must not be read as Seccomp");

	memset(&info, 0, sizeof(info));
	confine_status_parse("Name:\tx\n", &info);
	cr_expect_eq(info.seccomp_mode, -1, "a missing field is unknown, not 0");
	cr_expect_eq(info.uid, -1);
	cr_expect_str_eq(info.cap_eff, "");
}

Test(confine, syscall_names)
{
	char buf[32];

	cr_expect_str_eq(confine_syscall_name(SYS_socket, buf, sizeof(buf)), "socket");
	cr_expect_str_eq(confine_syscall_name(SYS_ioctl, buf, sizeof(buf)), "ioctl");
	cr_expect_str_eq(confine_syscall_name(-7, buf, sizeof(buf)), "?");
}

/* Runs fn in a child after the filter is on; returns its wait status, violation in *v. */
static int filtered_child(void (*fn)(void), struct el_confine_violation *v)
{
	struct el_confine_violation *shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
						   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ws = 0;
	pid_t pid;

	cr_assert(shared != MAP_FAILED);
	memset(shared, 0, sizeof(*shared));
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		unsigned n = 0;
		char err[256];

		confine_trap_install(shared);
		if (confine_seccomp_load(&n, false, err, sizeof(err)))
			_exit(3);
		fn();
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	*v = *shared;
	munmap(shared, sizeof(*shared));
	return ws;
}

/* What the loop does: output, time, memory (malloc, realloc, free), a timer-free sleep-less run. */
static void allowed_calls(void)
{
	struct timespec ts;
	char *p = malloc(8 << 20);

	if (!p || clock_gettime(CLOCK_MONOTONIC, &ts))
		_exit(4);
	memset(p, 1, 8 << 20);
	p = realloc(p, 32 << 20);
	if (!p)
		_exit(5);
	free(p);
	if (write(2, "", 0) < 0 || getpid() <= 0)
		_exit(6);
	{ /* main's hostout and run.c after the loop: poll, F_GETFL/F_SETFL, getrusage */
		struct pollfd pf = {.fd = 2, .events = POLLOUT};
		struct rusage ru;
		int fl = fcntl(2, F_GETFL);

		if (poll(&pf, 1, 0) < 0 || fl < 0 || fcntl(2, F_SETFL, fl) ||
		    getrusage(RUSAGE_SELF, &ru))
			_exit(8);
	}
}

static void forbidden_socket(void)
{
	socket(AF_INET, SOCK_STREAM, 0);
	_exit(7); /* not reached: the trap exits with 125 */
}

static void forbidden_open(void)
{
	open("/etc/passwd", O_RDONLY);
	_exit(7);
}

Test(confine, allowed_calls_pass_the_filter)
{
	struct el_confine_violation v;
	int ws = filtered_child(allowed_calls, &v);

	cr_expect(!v.hit, "trapped syscall %d", v.nr);
	cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "wait status 0x%x", ws);
}

Test(confine, forbidden_calls_trap_with_their_number)
{
	struct el_confine_violation v;
	int ws = filtered_child(forbidden_socket, &v);

	cr_expect(v.hit);
	cr_expect_eq(v.nr, SYS_socket);
	cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 125, "wait status 0x%x", ws);

	ws = filtered_child(forbidden_open, &v);
	cr_expect(v.hit, "open(2) after set-up must trap");
	cr_expect_eq(v.nr, SYS_openat);
	cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 125, "wait status 0x%x", ws);
}

/*
 * confine_apply() in a child: every fd but 0-2, the "KVM" fds and the pipe
 * closed; while it waits on the pipe, its /proc/PID/status shows the filter.
 */
Test(confine, apply_closes_fds_and_drops)
{
	struct el_confine_info *info = mmap(NULL, sizeof(*info), PROT_READ | PROT_WRITE,
					    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ws = 0, p[2];
	char status_path[64], *status;
	pid_t pid;

	cr_assert(info != MAP_FAILED && !pipe(p));
	memset(info, 0, sizeof(*info));
	pid = fork();
	if (pid == 0) {
		struct el_vm vm = {.kvm_fd = open("/dev/null", O_RDONLY), .vm_fd = -1, .vcpu_fd = -1};
		int extra = open("/dev/null", O_RDONLY);
		char err[256];

		bool closed;

		close(p[1]);
		if (extra < 0 || confine_apply(&vm, p[0], info, err, sizeof(err)))
			_exit(3);
		closed = read(extra, err, 1) < 0; /* EBADF: closed (fcntl is not allowed) */
		(void)!read(p[0], err, 1);        /* until the parent has looked */
		_exit(closed ? 0 : 4);
	}
	close(p[0]);
	for (int i = 0; i < 500 && !info->applied; i++)
		usleep(10000);
	snprintf(status_path, sizeof(status_path), "/proc/%d/status", (int)pid);
	status = calloc(1, 8192);
	{
		FILE *f = fopen(status_path, "r");

		if (f) {
			(void)!fread(status, 1, 8191, f);
			fclose(f);
		}
	}
	cr_expect(status && strstr(status, "\nSeccomp:\t2\n"), "the running child's %s: %s",
		  status_path, status ? status : "unreadable");
	cr_expect(status && strstr(status, "\nNoNewPrivs:\t1\n"));
	if (status && strstr(status, "\nSeccomp:"))
		cr_log_info("%s: %.40s", status_path, strstr(status, "\nSeccomp:") + 1);
	free(status);
	(void)!write(p[1], "x", 1);
	close(p[1]);
	waitpid(pid, &ws, 0);
	cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "wait status 0x%x", ws);
	cr_expect(info->applied);
	cr_expect_eq(info->seccomp_mode, 2);
	cr_expect_eq(info->no_new_privs, 1);
	cr_expect_str_eq(info->cap_eff, "0000000000000000");
	if (geteuid() == 0)
		cr_expect_neq(info->uid, 0, "root was not dropped");
	cr_expect_leq(info->nr_fds, 5, "at most 0, 1, 2, kvm, pipe: %u fds", info->nr_fds);
	munmap(info, sizeof(*info));
}

/* The knobs reach the inner entrylab through the nested runner's request. */
Test(confine, nested_request_exports_the_knobs)
{
	static struct nested_cmd cmd;
	char *argv[] = {"entrylab", "run"}, err[300];
	struct nested_request r = {.argc = 2, .argv = argv};
	struct nested_runner rn = {.warm = true};
	struct nested_buf b = {0};
	bool found, seen = false;
	size_t need;

	setenv("ENTRYLAB_TEST_SECCOMP_VIOLATE", "1", 1);
	cr_assert_eq(nested_request_encode(&b, 1, &r, &rn), 0);
	unsetenv("ENTRYLAB_TEST_SECCOMP_VIOLATE");
	nested_req_find(b.p, b.len, &cmd, &found, &need, err, sizeof(err));
	cr_assert(found && !err[0], "%s", err);
	for (unsigned i = 0; i < cmd.nenv; i++) {
		seen |= !strcmp(cmd.env[i], "ENTRYLAB_TEST_SECCOMP_VIOLATE=1");
		cr_expect(!strstr(cmd.env[i], "ENTRYLAB_NO_SECCOMP"), "unset knobs stay out: %s",
			  cmd.env[i]);
	}
	cr_expect(seen, "the knob was not sent");
	nested_buf_free(&b);
}
