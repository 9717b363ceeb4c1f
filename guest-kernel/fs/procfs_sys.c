/*
 * /proc's system files, to Linux's formats: meminfo (from the frame
 * allocator: there is no page cache, no swap), uptime and stat (idle time
 * from the scheduler; busy time is not split into user and system here and
 * counts as user), loadavg (no load average is kept: 0.00, as sysinfo(2)
 * says), cpuinfo (from CPUID), filesystems, version and
 * sys/kernel/{ostype,osrelease,pid_max}.  /proc/mounts is procfs_pid.c's.
 */
#include "arch/x86_64/cpu.h"
#include "fs/procfs_priv.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/uts.h"
#include "time/time.h"


static int gen_meminfo(struct pbuf *b, struct task *t, const struct inode *node)
{
	uint64_t kb = PAGE_SIZE >> 10, total = frame_stats.total * kb;
	uint64_t free = (frame_stats.total - frame_stats.in_use) * kb;

	(void)t, (void)node;
	pb_printf(b, "MemTotal:       %8lu kB\nMemFree:        %8lu kB\nMemAvailable:   %8lu kB\n",
		  total, free, free);
	pb_printf(b, "Buffers:        %8u kB\nCached:         %8u kB\nSwapCached:     %8u kB\n", 0u,
		  0u, 0u);
	pb_printf(b,
		  "SwapTotal:      %8u kB\nSwapFree:       %8u kB\nDirty:          %8u kB\n"
		  "Writeback:      %8u kB\n",
		  0u, 0u, 0u, 0u);
	return 0;
}

/* Seconds with two decimals, as /proc/uptime prints them. */
static void seconds(struct pbuf *b, uint64_t ns, char after)
{
	uint64_t sec = ns / NSEC_PER_SEC, hundredths = ns % NSEC_PER_SEC / (NSEC_PER_SEC / 100);

	pb_printf(b, "%lu.%02lu%c", sec, hundredths, after);
}

static int gen_uptime(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	seconds(b, time_monotonic_ns(), ' ');
	seconds(b, sched_idle_ns, '\n');
	return 0;
}

struct task_counts {
	unsigned alive, running, blocked;
};

static void count_tasks(struct task_counts *c)
{
	*c = (struct task_counts){0};
	for (unsigned i = 0; i < task_slots; i++) {
		enum task_state s = task_table[i].state;

		c->alive += s != TASK_UNUSED && s != TASK_DEAD && s != TASK_ZOMBIE;
		c->running += s == TASK_RUNNABLE;
		c->blocked += s == TASK_BLOCKED_NOINTR;
	}
}

static int gen_loadavg(struct pbuf *b, struct task *t, const struct inode *node)
{
	struct task_counts c;

	(void)t, (void)node;
	count_tasks(&c);
	pb_printf(b, "0.00 0.00 0.00 %u/%u %d\n", c.running, c.alive, task_last_pid());
	return 0;
}

static int gen_stat(struct pbuf *b, struct task *t, const struct inode *node)
{
	uint64_t now = time_monotonic_ns(), idle = sched_idle_ns / NSEC_PER_TICK;
	uint64_t busy = now / NSEC_PER_TICK > idle ? now / NSEC_PER_TICK - idle : 0;
	struct task_counts c;

	(void)t, (void)node;
	count_tasks(&c);
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	pb_printf(b, "cpu  %lu 0 0 %lu 0 0 0 0 0 0\ncpu0 %lu 0 0 %lu 0 0 0 0 0 0\n", busy, idle,
		  busy, idle);
	pb_printf(b, "btime %lu\nprocesses %lu\nprocs_running %u\nprocs_blocked %u\n",
		  (uint64_t)((time_realtime_ns() - now) / NSEC_PER_SEC), task_created, c.running, c.blocked);
	return 0;
}

/* CPUID feature bits by Linux's /proc/cpuinfo names, in Linux's order (cpufeatures.h). */
struct cpu_flag {
	uint32_t leaf;
	uint8_t reg; /* 0 EBX, 1 ECX, 2 EDX */
	uint8_t bit;
	const char *name;
};

static const struct cpu_flag cpu_flags[] = {
	{1, 2, 0, "fpu"},
	{1, 2, 1, "vme"},
	{1, 2, 2, "de"},
	{1, 2, 3, "pse"},
	{1, 2, 4, "tsc"},
	{1, 2, 5, "msr"},
	{1, 2, 6, "pae"},
	{1, 2, 7, "mce"},
	{1, 2, 8, "cx8"},
	{1, 2, 9, "apic"},
	{1, 2, 11, "sep"},
	{1, 2, 12, "mtrr"},
	{1, 2, 13, "pge"},
	{1, 2, 14, "mca"},
	{1, 2, 15, "cmov"},
	{1, 2, 16, "pat"},
	{1, 2, 17, "pse36"},
	{1, 2, 19, "clflush"},
	{1, 2, 21, "dts"},
	{1, 2, 22, "acpi"},
	{1, 2, 23, "mmx"},
	{1, 2, 24, "fxsr"},
	{1, 2, 25, "sse"},
	{1, 2, 26, "sse2"},
	{1, 2, 27, "ss"},
	{1, 2, 28, "ht"},
	{1, 2, 29, "tm"},
	{1, 2, 31, "pbe"},
	{0x80000001, 2, 11, "syscall"},
	{0x80000001, 2, 20, "nx"},
	{0x80000001, 2, 22, "mmxext"},
	{0x80000001, 2, 25, "fxsr_opt"},
	{0x80000001, 2, 26, "pdpe1gb"},
	{0x80000001, 2, 27, "rdtscp"},
	{0x80000001, 2, 29, "lm"},
	{1, 1, 0, "pni"},
	{1, 1, 1, "pclmulqdq"},
	{1, 1, 2, "dtes64"},
	{1, 1, 3, "monitor"},
	{1, 1, 4, "ds_cpl"},
	{1, 1, 5, "vmx"},
	{1, 1, 6, "smx"},
	{1, 1, 7, "est"},
	{1, 1, 8, "tm2"},
	{1, 1, 9, "ssse3"},
	{1, 1, 11, "sdbg"},
	{1, 1, 12, "fma"},
	{1, 1, 13, "cx16"},
	{1, 1, 14, "xtpr"},
	{1, 1, 15, "pdcm"},
	{1, 1, 17, "pcid"},
	{1, 1, 18, "dca"},
	{1, 1, 19, "sse4_1"},
	{1, 1, 20, "sse4_2"},
	{1, 1, 21, "x2apic"},
	{1, 1, 22, "movbe"},
	{1, 1, 23, "popcnt"},
	{1, 1, 24, "tsc_deadline_timer"},
	{1, 1, 25, "aes"},
	{1, 1, 26, "xsave"},
	{1, 1, 28, "avx"},
	{1, 1, 29, "f16c"},
	{1, 1, 30, "rdrand"},
	{1, 1, 31, "hypervisor"},
	{0x80000001, 1, 0, "lahf_lm"},
	{0x80000001, 1, 1, "cmp_legacy"},
	{0x80000001, 1, 2, "svm"},
	{0x80000001, 1, 3, "extapic"},
	{0x80000001, 1, 4, "cr8_legacy"},
	{0x80000001, 1, 5, "abm"},
	{0x80000001, 1, 6, "sse4a"},
	{0x80000001, 1, 7, "misalignsse"},
	{0x80000001, 1, 8, "3dnowprefetch"},
	{0x80000001, 1, 9, "osvw"},
	{0x80000001, 1, 11, "xop"},
	{0x80000001, 1, 16, "fma4"},
	{7, 0, 0, "fsgsbase"},
	{7, 0, 3, "bmi1"},
	{7, 0, 4, "hle"},
	{7, 0, 5, "avx2"},
	{7, 0, 7, "smep"},
	{7, 0, 8, "bmi2"},
	{7, 0, 9, "erms"},
	{7, 0, 10, "invpcid"},
	{7, 0, 11, "rtm"},
	{7, 0, 16, "avx512f"},
	{7, 0, 17, "avx512dq"},
	{7, 0, 18, "rdseed"},
	{7, 0, 19, "adx"},
	{7, 0, 20, "smap"},
	{7, 0, 23, "clflushopt"},
	{7, 0, 24, "clwb"},
	{7, 0, 29, "sha_ni"},
	{7, 1, 1, "avx512vbmi"},
	{7, 1, 2, "umip"},
	{7, 1, 3, "pku"},
	{7, 1, 4, "ospke"},
	{7, 1, 22, "rdpid"},
	{7, 2, 4, "fsrm"},
};

static uint32_t cpuid_reg(uint32_t leaf, unsigned reg)
{
	uint32_t max = cpuid(leaf & 0x80000000u, 0).eax;
	struct cpuid_regs r;

	if (leaf > max)
		return 0;
	r = cpuid(leaf, 0);
	return reg == 0 ? r.ebx : reg == 1 ? r.ecx : r.edx;
}

static int gen_cpuinfo(struct pbuf *b, struct task *t, const struct inode *node)
{
	struct cpuid_regs v = cpuid(0, 0), sig = cpuid(1, 0);
	uint32_t family = (sig.eax >> 8) & 0xf, model = (sig.eax >> 4) & 0xf;
	uint32_t name[13] = {0};
	uint64_t khz = time_tsc_khz();
	const char *brand;

	(void)t, (void)node;
	if (family == 0xf)
		family += (sig.eax >> 20) & 0xff;
	if (family >= 6)
		model |= ((sig.eax >> 16) & 0xf) << 4;
	if (cpuid(0x80000000u, 0).eax >= 0x80000004u)
		for (uint32_t i = 0; i < 3; i++) {
			struct cpuid_regs r = cpuid(0x80000002u + i, 0);

			memcpy(&name[i * 4], &r, sizeof(r));
		}
	for (brand = (const char *)name; *brand == ' ';)
		brand++;
	pb_printf(b, "processor\t: 0\nvendor_id\t: %.4s%.4s%.4s\ncpu family\t: %u\nmodel\t\t: %u\n",
		  (const char *)&v.ebx, (const char *)&v.edx, (const char *)&v.ecx, family, model);
	pb_printf(b, "model name\t: %s\nstepping\t: %u\n", *brand ? brand : "unknown",
		  sig.eax & 0xf);
	if (khz)
		pb_printf(b, "cpu MHz\t\t: %lu.%03lu\n", khz / 1000, khz % 1000);
	pb_printf(b,
		  "physical id\t: 0\nsiblings\t: 1\ncore id\t\t: 0\ncpu cores\t: 1\n"
		  "apicid\t\t: %u\ninitial apicid\t: %u\nfpu\t\t: yes\nfpu_exception\t: yes\n"
		  "cpuid level\t: %u\nwp\t\t: yes\nflags\t\t:",
		  sig.ebx >> 24, sig.ebx >> 24, v.eax);
	for (unsigned i = 0; i < ARRAY_SIZE(cpu_flags); i++) {
		const struct cpu_flag *f = &cpu_flags[i];

		if (cpuid_reg(f->leaf, f->reg) & (1u << f->bit))
			pb_printf(b, " %s", f->name);
	}
	pb_printf(b, "\n");
	if (khz)
		pb_printf(b, "bogomips\t: %lu.%02lu\n", khz * 2 / 1000, khz * 2 % 1000 / 10);
	pb_printf(b, "clflush size\t: %u\ncache_alignment\t: 64\n", ((sig.ebx >> 8) & 0xff) * 8);
	if (cpuid(0x80000000u, 0).eax >= 0x80000008u) {
		uint32_t a = cpuid(0x80000008u, 0).eax;

		pb_printf(b, "address sizes\t: %u bits physical, %u bits virtual\n", a & 0xff,
			  (a >> 8) & 0xff);
	}
	pb_printf(b, "power management:\n\n");
	return 0;
}

static int gen_filesystems(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	pb_printf(b, "nodev\trootfs\nnodev\ttmpfs\nnodev\tdevtmpfs\nnodev\tproc\nnodev\tpipefs\n");
	return 0;
}

static int gen_version(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	pb_printf(b, "%s version %s (entrylab@entrylab) (entrylab guest kernel) %s\n", UTS_SYSNAME,
		  UTS_RELEASE, UTS_VERSION);
	return 0;
}

static int gen_ostype(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	pb_printf(b, "%s\n", UTS_SYSNAME);
	return 0;
}

static int gen_osrelease(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	pb_printf(b, "%s\n", UTS_RELEASE);
	return 0;
}

static int gen_pid_max(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)t, (void)node;
	pb_printf(b, "%d\n", PID_MAX);
	return 0;
}

PROC_SNAPSHOT(static, meminfo_ops, gen_meminfo);
PROC_SNAPSHOT(static, uptime_ops, gen_uptime);
PROC_SNAPSHOT(static, loadavg_ops, gen_loadavg);
PROC_SNAPSHOT(static, stat_ops, gen_stat);
PROC_SNAPSHOT(static, cpuinfo_ops, gen_cpuinfo);
PROC_SNAPSHOT(static, filesystems_ops, gen_filesystems);
PROC_SNAPSHOT(static, version_ops, gen_version);
PROC_SNAPSHOT(static, ostype_ops, gen_ostype);
PROC_SNAPSHOT(static, osrelease_ops, gen_osrelease);
PROC_SNAPSHOT(static, pid_max_ops, gen_pid_max);

static struct inode *need(struct inode *n)
{
	if (!n)
		panic("procfs: out of memory");
	return n;
}

static void file(struct inode *dir, const char *name, const struct file_ops *ops)
{
	need(proc_create(dir, name, strlen(name), S_IFREG | 0444, ops));
}

void procfs_sys_init(struct inode *proc)
{
	struct inode *sys = need(proc_create(proc, "sys", 3, S_IFDIR | 0555, 0));
	struct inode *kernel = need(proc_create(sys, "kernel", 6, S_IFDIR | 0555, 0));

	file(kernel, "ostype", &ostype_ops);
	file(kernel, "osrelease", &osrelease_ops);
	file(kernel, "pid_max", &pid_max_ops);
	file(proc, "version", &version_ops);
	file(proc, "filesystems", &filesystems_ops);
	file(proc, "mounts", &proc_mounts_ops);
	file(proc, "cpuinfo", &cpuinfo_ops);
	file(proc, "stat", &stat_ops);
	file(proc, "loadavg", &loadavg_ops);
	file(proc, "uptime", &uptime_ops);
	file(proc, "meminfo", &meminfo_ops);
}
