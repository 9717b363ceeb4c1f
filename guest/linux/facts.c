/* Reading the facts: /proc, /sys, uname, CPUID; facts_parse.c says what they mean. */
#include "facts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <entrylab/features.h>

#include "cpuid.h"
#include "facts_parse.h"
#include "ksyms.h"

#define MELTDOWN_PATH "/sys/devices/system/cpu/vulnerabilities/meltdown"
#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"

static char text[64 * 1024]; /* one file at a time: cpuinfo of one CPU, maps */

/* The whole file into buf (NUL-terminated, cut at cap - 1); its length, or -1 (errno). */
static ssize_t read_text(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (len < cap - 1 && (n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0)
		return -1;
	buf[len] = '\0';
	return (ssize_t)len;
}

/* A one-line file (sysfs), without its newline; "" if it cannot be read. */
static void read_line(const char *path, char *buf, size_t cap)
{
	if (read_text(path, buf, cap) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int read_cmdline(struct linit_facts *f, char *err, size_t errlen)
{
	if (read_text("/proc/cmdline", f->cmdline, sizeof(f->cmdline)) < 0) {
		snprintf(err, errlen, "reading /proc/cmdline: %s (is /proc mounted?)",
			 strerror(errno));
		return -1;
	}
	f->cmdline[strcspn(f->cmdline, "\n")] = '\0';
	return 0;
}

/* cpuid, flags and what Linux made of them: pti, pcid, invpcid, pge. */
static int read_cpu(struct linit_facts *f, char *err, size_t errlen)
{
	ssize_t n = read_text("/proc/cpuinfo", text, sizeof(text));

	f->cpuid = linit_cpuid_features(linit_cpuid_insn, NULL);
	if (n < 0 || linit_cpuinfo_flags(text, (size_t)n, f->flags, sizeof(f->flags))) {
		snprintf(err, errlen, "no flags line in /proc/cpuinfo (%s)",
			 n < 0 ? strerror(errno) : "the file has none");
		return -1;
	}
	f->config[EL_CFG_PTI] = linit_pti(f->flags, f->meltdown);
	f->config[EL_CFG_PCID] =
		linit_flag_config(f->flags, "pcid", f->cpuid & (1ull << EL_FEAT_PCID));
	f->config[EL_CFG_INVPCID] =
		linit_flag_config(f->flags, "invpcid", f->cpuid & (1ull << EL_FEAT_INVPCID));
	f->config[EL_CFG_PGE] =
		linit_flag_config(f->flags, "pge", f->cpuid & (1ull << EL_FEAT_PGE));
	return 0;
}

static int read_maps(struct linit_facts *f, char *err, size_t errlen)
{
	ssize_t n = read_text("/proc/self/maps", text, sizeof(text));

	if (n < 0) {
		snprintf(err, errlen, "reading /proc/self/maps: %s", strerror(errno));
		return -1;
	}
	f->config[EL_CFG_VSYSCALL] = linit_vsyscall_mode(text, (size_t)n);
	f->config[EL_CFG_VDSO] = linit_vdso_mode(text, (size_t)n);
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double linit_clocksource_settle(void)
{
	const struct timespec tick = {0, 10 * 1000 * 1000};
	double t0 = mono_s(), t = t0;
	char cs[64];

	for (;;) {
		read_line(CLOCKSOURCE_PATH, cs, sizeof(cs));
		if (strcmp(cs, "tsc-early") || t - t0 > LINIT_SETTLE_MAX_S)
			return t - t0;
		nanosleep(&tick, NULL);
		t = mono_s();
	}
}

int linit_facts_read(struct linit_facts *f, char *err, size_t errlen)
{
	struct utsname u;

	memset(f, 0, sizeof(*f));
	memset(f->config, EL_CONFIG_UNSET, sizeof(f->config));
	if (uname(&u) == 0)
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	read_line(MELTDOWN_PATH, f->meltdown, sizeof(f->meltdown));
	read_line(CLOCKSOURCE_PATH, f->clocksource, sizeof(f->clocksource));
	if (read_cmdline(f, err, errlen) || read_cpu(f, err, errlen) || read_maps(f, err, errlen))
		return -1;
	linit_ktext(f->ktext, sizeof(f->ktext));
	return 0;
}
