/* usercheck, process: ids, uname, getcpu, getrandom, signals accepted, TLS, ioctl, sysinfo. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <entrylab/abi.h>

#include "lib/vdso.h"
#include "usercheck.h"

#define ARCH_GET_FS 0x1003

typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

static void on_usr1(int sig)
{
	(void)sig;
}

static void check_ids(void)
{
	long pid = getpid(), tid = uc_sys(SYS_gettid, 0, 0, 0), ppid = getppid();
	long stid = uc_sys(SYS_set_tid_address, (long)&errno, 0, 0); /* any int* will do */
	struct utsname u;
	bool ok;

	el_expect("proc.ids", pid > 0 && tid == pid && ppid >= 0 && stid == tid,
		  "getpid %ld, gettid %ld, getppid %ld, set_tid_address %ld", pid, tid, ppid, stid);
	ok = uname(&u) == 0 && u.sysname[0] && u.release[0] && strcmp(u.machine, "x86_64") == 0;
	el_expect("proc.uname", ok, "sysname '%s' release '%s' machine '%s'", u.sysname,
		  u.release, u.machine);
}

/* vDSO, libc and syscall agree on the CPU (retried: a host may migrate us). */
static void check_getcpu(void)
{
	getcpu_fn vfn = (getcpu_fn)el_vdso_sym("__vdso_getcpu");
	unsigned scpu = ~0u, snode = ~0u, vcpu = ~0u, vnode = ~0u;
	long sret = -1, vret = -1;
	int lcpu = -1;
	bool ok = false;

	for (int i = 0; i < 20 && !ok; i++) {
		sret = uc_sys(SYS_getcpu, (long)&scpu, (long)&snode, 0);
		lcpu = sched_getcpu();
		vret = vfn ? vfn(&vcpu, &vnode, NULL) : (vcpu = scpu, vnode = snode, sret);
		ok = sret == 0 && vret == 0 && lcpu >= 0 && (unsigned)lcpu == scpu &&
		     vcpu == scpu && vnode == snode;
	}
	el_expect("proc.getcpu", ok, "syscall %ld cpu %u node %u, vdso %ld cpu %u node %u, libc %d",
		  sret, scpu, snode, vret, vcpu, vnode, lcpu);
}

static void check_misc(void)
{
	unsigned char a[64] = { 0 }, b[64] = { 0 };
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigset_t set, cur;
	unsigned long fs = 0, self;
	bool ok;
	int fd;

	ok = getrandom(a, sizeof(a), 0) == sizeof(a) && getrandom(b, sizeof(b), 0) == sizeof(b) &&
	     memcmp(a, b, sizeof(a)) != 0;
	el_expect("proc.getrandom", ok, "getrandom: %s", strerror(errno));
	el_expect("proc.sched_yield", sched_yield() == 0, "sched_yield: %s", strerror(errno));

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	ok = sigaction(SIGUSR1, &sa, NULL) == 0 && sigaction(SIGUSR1, NULL, &old) == 0 &&
	     old.sa_handler == on_usr1 && sigprocmask(SIG_BLOCK, &set, NULL) == 0 &&
	     sigprocmask(SIG_SETMASK, NULL, &cur) == 0 && sigismember(&cur, SIGUSR1) == 1 &&
	     sigprocmask(SIG_UNBLOCK, &set, NULL) == 0;
	el_expect("proc.signals_accepted", ok, "rt_sigaction/rt_sigprocmask: %s", strerror(errno));

	/* musl keeps the thread pointer at %fs:0; the kernel's FS base must match. */
	__asm__ volatile("mov %%fs:0, %0" : "=r"(self));
	ok = uc_sys(SYS_arch_prctl, ARCH_GET_FS, (long)&fs, 0) == 0 && fs == self && fs != 0;
	el_expect("proc.arch_prctl_fs", ok, "ARCH_GET_FS %#lx, %%fs:0 %#lx", fs, self);

	fd = open("/dev/null", O_RDONLY);
	ok = fd >= 0 && uc_sys(SYS_ioctl, fd, TIOCGWINSZ, (long)a) == -ENOTTY;
	el_expect("proc.ioctl_enotty", ok, "TIOCGWINSZ on /dev/null is not ENOTTY");
	if (fd >= 0)
		close(fd);
}

/* What only the entrylab kernel does. */
static void check_entrylab(struct uc_env *env)
{
	static const char *const names[] = { "entrylab.region_query", "entrylab.console_is_tty",
					     "entrylab.self_ipi_einval" };
	unsigned char ws[8];
	long r;

	if (!env->entrylab) {
		for (unsigned i = 0; i < 3; i++)
			el_skip(names[i], "not the entrylab kernel (EL_SYS_REGION is ENOSYS)");
		return;
	}
	r = uc_sys(EL_SYS_REGION, EL_REGION_QUERY, 0, 0);
	el_expect(names[0], r == 0, "EL_REGION_QUERY returned %ld", r);
	/* The console is a terminal (guest-kernel/fs/tty.c), a serial one's 0 x 0 at boot. */
	memset(ws, 0xff, sizeof(ws));
	r = uc_sys(SYS_ioctl, 1, TIOCGWINSZ, (long)ws);
	el_expect(names[1], r == 0 && !ws[0] && !ws[1] && !ws[2] && !ws[3],
		  "TIOCGWINSZ on stdout returned %ld, rows/cols bytes %u %u %u %u", r, ws[0], ws[1],
		  ws[2], ws[3]);
	r = uc_sys(EL_SYS_SELF_IPI, 0, 0, 0);
	if (r == -ENOSYS)
		el_skip(names[2], "this kernel has no EL_SYS_SELF_IPI yet");
	else
		el_expect(names[2], r == -EINVAL, "EL_SYS_SELF_IPI(0) returned %ld", r);
}

/* sysinfo: RAM that adds up, this process among the tasks, uptime no further than the clock. */
static void check_sysinfo(void)
{
	struct sysinfo si;
	struct timespec mono;
	long ret = sysinfo(&si);
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	ok = ret == 0 && si.mem_unit >= 1 && si.totalram > 0 && si.freeram <= si.totalram &&
	     si.procs >= 1 && (long long)si.uptime <= (long long)mono.tv_sec + 1;
	el_expect("proc.sysinfo", ok, "ret %ld: totalram %lu freeram %lu unit %u procs %u "
		  "uptime %lld (monotonic %lld s)", ret, si.totalram, si.freeram, si.mem_unit,
		  (unsigned)si.procs, (long long)si.uptime, (long long)mono.tv_sec);
}

void uc_proc(struct uc_env *env)
{
	check_ids();
	check_getcpu();
	check_misc();
	check_sysinfo();
	check_entrylab(env);
}
