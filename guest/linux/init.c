/*
 * entrylab's /init for a Linux guest (README.md; the contract:
 * include/entrylab/linux_init.h).  In order: mount /proc and /sys, take
 * the ports, read the conf and argv, tell the host what Linux is (INFO,
 * BOOT), calibrate the markers, run the program, report it (RUN), send
 * the kernel's text symbols if asked (KSYMS), and end the VM (EXIT, exit
 * port).  Any failure is said on COM1 and ends the VM with
 * EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE; /init never returns (Linux would panic).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include <entrylab/linux_init.h>
#include <entrylab/serial_frame.h>

#include "argv.h"
#include "com1.h"
#include "conf.h"
#include "facts.h"
#include "frames.h"
#include "ksyms.h"
#include "markers.h"
#include "report.h"
#include "run.h"

#define CONF_MAX 4096
#define ARGV_MAX (64 * 1024)

static char err[512];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How long Linux took to get here (the console says it; no frame carries it). */
static void say_uptime(void)
{
	char buf[64] = "";
	int fd = open("/proc/uptime", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0) {
		buf[n] = '\0';
		fprintf(stderr, "entrylab /init: started %.*s s after Linux did\n",
			(int)strcspn(buf, " "), buf);
	}
}

static void mount_fs(const char *type, const char *dir)
{
	if (mount(type, dir, type, MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) && errno != EBUSY)
		linit_fail("mounting %s on %s: %s (the kernel lacks it, or the initrd has no %s)",
			   type, dir, strerror(errno), dir);
}

/* A file of the initrd, whole; its length.  Missing and too long are failures. */
static size_t read_initrd_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		linit_fail("%s: %s; the host writes it into the initrd (linux_init.h)", path,
			   strerror(errno));
	while ((n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	if (n < 0)
		linit_fail("reading %s: %s", path, strerror(errno));
	if (len == cap)
		linit_fail("%s is larger than the %zu bytes /init takes", path, cap - 1);
	close(fd);
	return len;
}

static void send_info_boot(const struct linit_facts *f, struct el_report *boot)
{
	static char info[EL_FRAME_TEXT_MAX];
	size_t n = linit_info_format(f, info, sizeof(info));

	linit_report_boot(boot, f);
	linit_console_drain();
	if (linit_frame(EL_FRAME_KIND_INFO, info, n) ||
	    linit_frame(EL_FRAME_KIND_BOOT, boot, sizeof(*boot)))
		linit_fail("a frame did not fit EL_FRAME_LINE_MAX");
}

static void send_run(const struct el_report *boot, const struct linit_run *run,
		     const struct el_counter *markers, unsigned nr)
{
	static struct el_report r;
	struct el_region g;
	const char *why = linit_region_of(run->scope, &run->page, &run->whole, &g);

	if (why)
		fprintf(stderr, "entrylab /init: no measured region: %s\n", why);
	else if (run->scope == EL_REGION_SCOPE_MARKED && run->page.errors)
		fprintf(stderr, "entrylab /init: %u perf ioctls of the markers failed: the "
			"counters are not counted\n", run->page.errors);
	linit_report_run(&r, boot, run->scope, &run->page, &run->whole, run->c, markers, nr,
			 run->status);
	linit_console_drain();
	if (linit_frame(EL_FRAME_KIND_RUN, &r, sizeof(r)))
		linit_fail("a frame did not fit EL_FRAME_LINE_MAX");
}

static void send_ksyms(void)
{
	struct linit_ksyms_stats st;
	double t0 = now_s();

	linit_console_drain();
	if (linit_ksyms_send(&st, err, sizeof(err)))
		linit_fail("%s", err);
	fprintf(stderr, "entrylab /init: ksyms: %lu text symbols in %lu frames (%llu bytes) in "
		"%.2f s\n", st.symbols, st.frames, st.bytes, now_s() - t0);
}

int main(void)
{
	static char conf_text[CONF_MAX], argv_text[ARGV_MAX];
	static struct linit_facts facts;
	static struct el_report boot;
	static struct linit_run run;
	static struct el_counter markers[EL_MAX_COUNTERS];
	char *argv[LINIT_ARGS_MAX];
	struct linit_conf conf;
	double settled;
	size_t n;

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	say_uptime();
	if (linit_com1_open())
		linit_fail("ioperm for COM1 (0x3f8) and the exit port (0xf4): %s; /init must run "
			   "as root on x86-64", strerror(errno));

	n = read_initrd_file(EL_LINUX_CONF, conf_text, sizeof(conf_text));
	if (linit_conf_parse(conf_text, n, &conf, err, sizeof(err)))
		linit_fail("%s: %s", EL_LINUX_CONF, err);
	n = read_initrd_file(EL_LINUX_ARGV, argv_text, sizeof(argv_text));
	if (linit_argv_split(argv_text, n, conf.argv0[0] ? conf.argv0 : EL_LINUX_PROGRAM, argv,
			     LINIT_ARGS_MAX, err, sizeof(err)) < 0)
		linit_fail("%s: %s", EL_LINUX_ARGV, err);

	settled = linit_clocksource_settle();
	if (settled > 0)
		fprintf(stderr, "entrylab /init: waited %.2f s for Linux to leave clocksource "
			"tsc-early\n", settled);
	if (linit_facts_read(&facts, err, sizeof(err)))
		linit_fail("%s", err);
	send_info_boot(&facts, &boot);

	/* No program in the initrd: a boot only, as `entrylab run` without one. */
	if (access(EL_LINUX_PROGRAM, F_OK) && errno == ENOENT) {
		if (conf.ksyms)
			send_ksyms();
		linit_exit(0);
	}
	if (linit_markers_calibrate(&conf, markers, err, sizeof(err)) ||
	    linit_run_program(&conf, argv, &run, err, sizeof(err)))
		linit_fail("%s", err);
	send_run(&boot, &run, markers, conf.nr_events);

	if (conf.ksyms)
		send_ksyms();
	linit_exit((uint32_t)run.status);
}
