/*
 * The VMM's Linux mode without a vCPU (vmm/linux_mode.c, dev/legacy.c,
 * dev/rtc.c, the Linux port table of exit_io.c): COM1's stream split into
 * console and /init's frames, the run's end decided by the frames and the
 * exit port together, resets, the legacy probes answered and counted, the
 * CMOS clock, and our kernel's mode left as it was.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "entrylab/linux_init.h"
#include "exit.h"
#include "kvm.h"

static struct kvm_run run;
static struct el_vm vm;
static struct el_run_result res;
static struct el_run_spec spec;
static struct el_loop loop;
static struct el_linux_mode lx;
static char err[256];

static void fake_loop(void)
{
	memset(&run, 0, sizeof(run));
	memset(&res, 0, sizeof(res));
	vm = (struct el_vm){.kvm_fd = -1, .vm_fd = -1, .vcpu_fd = -1, .run = &run,
			    .run_size = sizeof(run)};
	spec = (struct el_run_spec){.guest = EL_GUEST_LINUX, .append = ""};
	loop = (struct el_loop){.vm = &vm, .spec = &spec, .res = &res};
	clock_gettime(CLOCK_MONOTONIC, &loop.t0);
	cr_assert_eq(linux_mode_init(&lx, &loop, err, sizeof(err)), 0, "%s", err);
}

static void done(void)
{
	linux_mode_free(&lx);
	console_free(&loop.con);
	free(res.console);
}

TestSuite(linux_mode, .init = fake_loop, .fini = done);

static void com1(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		linux_com1_tx(&loop, s[i]);
}

static void com1_str(const char *s)
{
	com1(s, strlen(s));
}

/* One frame line as serial_frame.h has it. */
static void frame(const char *kind, const void *payload, size_t n)
{
	static char line[2 * EL_FRAME_TEXT_MAX + 128];
	const unsigned char *p = payload;
	int o = snprintf(line, sizeof(line), "\n" EL_FRAME_TAG "%s %zu ", kind, n);

	for (size_t i = 0; i < n; i++)
		o += snprintf(line + o, sizeof(line) - (size_t)o, "%02x", p[i]);
	o += snprintf(line + o, sizeof(line) - (size_t)o, " %08x\n", frame_crc(p, n));
	com1(line, (size_t)o);
}

static struct el_report report(uint32_t kind)
{
	struct el_report r = {.magic = EL_REPORT_MAGIC, .abi_version = EL_ABI_VERSION,
			      .size = sizeof(r), .kind = kind};

	memset(r.config, EL_CONFIG_UNSET, sizeof(r.config));
	memset(r.requested, EL_CONFIG_UNSET, sizeof(r.requested));
	r.config[EL_CFG_PTI] = EL_ON;
	if (kind == EL_REPORT_RUN) {
		r.flags = EL_REPORT_EXITED;
		r.exit_status = 3;
	}
	return r;
}

static void init_frames(uint32_t exit_value, bool with_exit)
{
	static const char info[] = "release=6.1.0-57-amd64\ncmdline=console=ttyS0 pti=on\n"
				   "meltdown=Mitigation: PTI\nclocksource=kvm-clock\n"
				   "vsyscall=xonly\n";
	struct el_report boot = report(EL_REPORT_BOOT), run_r = report(EL_REPORT_RUN);

	com1_str("[    0.000000] Linux version 6.1.0-57-amd64\r\n");
	frame(EL_FRAME_KIND_INFO, info, sizeof(info) - 1);
	frame(EL_FRAME_KIND_BOOT, &boot, sizeof(boot));
	com1_str("the program's own output\r\n");
	frame(EL_FRAME_KIND_RUN, &run_r, sizeof(run_r));
	if (with_exit)
		frame(EL_FRAME_KIND_EXIT, &exit_value, 4);
}

/* An OUT or IN as KVM hands it over, through the Linux port table. */
static void port(uint16_t p, bool out, uint8_t size, uint32_t value)
{
	run.exit_reason = KVM_EXIT_IO;
	memset(&run.io, 0, sizeof(run.io));
	run.io.direction = out ? KVM_EXIT_IO_OUT : KVM_EXIT_IO_IN;
	run.io.size = size;
	run.io.port = p;
	run.io.count = 1;
	run.io.data_offset = sizeof(run) - 16; /* past the exit's own fields, as in the run page */
	memcpy((char *)&run + run.io.data_offset, &value, size);
	exit_dispatch(&loop);
}

static uint8_t port_in(uint16_t p)
{
	port(p, false, 1, 0);
	return *((uint8_t *)&run + run.io.data_offset);
}

static void finish(void)
{
	linux_mode_finish(&loop);
	console_finish(&loop);
}

Test(linux_mode, frames_and_the_exit_port_agree)
{
	init_frames(3, true);
	port(EL_PORT_EXIT, true, 4, 3);
	cr_expect(loop.stop, "the exit port ends the run");
	finish();
	cr_expect_eq(res.status, EL_RUN_OK, "%s", res.detail);
	cr_expect_eq(res.exit_status, 3);
	cr_expect(res.have_linux && res.have_boot && res.have_run);
	cr_expect_str_eq(res.linux_info.release, "6.1.0-57-amd64");
	cr_expect_str_eq(res.linux_info.clocksource, "kvm-clock");
	cr_expect_eq(res.boot.config[EL_CFG_PTI], EL_ON);
	cr_expect_gt(res.boot_ms, 0, "boot_ms: when the BOOT frame ended");
	cr_expect_eq(res.io_exits[1], 1, "the exit port counted as ever");
	/* the console is Linux's and the program's text, no frame, no frame's newline */
	cr_expect_str_eq(res.console, "[    0.000000] Linux version 6.1.0-57-amd64\r\n"
				      "the program's own output\r\n");
}

Test(linux_mode, the_port_and_the_exit_frame_must_agree)
{
	init_frames(3, true);
	port(EL_PORT_EXIT, true, 4, 0);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_expect(strstr(res.detail, "must agree"), "%s", res.detail);
}

Test(linux_mode, no_exit_frame_before_the_port)
{
	init_frames(0, false);
	port(EL_PORT_EXIT, true, 4, 0);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_expect(strstr(res.detail, "no EXIT frame"), "%s", res.detail);
}

Test(linux_mode, an_exit_without_info_or_boot_is_refused)
{
	uint32_t zero = 0;

	frame(EL_FRAME_KIND_EXIT, &zero, 4);
	port(EL_PORT_EXIT, true, 4, 0);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_expect(strstr(res.detail, "INFO"), "%s", res.detail);
}

Test(linux_mode, init_giving_up_says_why)
{
	uint32_t v = EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE;

	init_frames(0, false);
	com1_str("entrylab init: cannot mount /proc\r\n");
	frame(EL_FRAME_KIND_EXIT, &v, 4);
	port(EL_PORT_EXIT, true, 4, v);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_expect(strstr(res.detail, "/init gave up") &&
		  strstr(res.detail, "cannot mount /proc"), "%s", res.detail);
}

Test(linux_mode, a_corrupt_frame_is_bad_io)
{
	char bad[] = "\n" EL_FRAME_TAG "EXIT 4 00000000 00000000\n";

	init_frames(0, false);
	com1_str(bad);
	port(EL_PORT_EXIT, true, 4, 0);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_expect(strstr(res.detail, "CRC"), "%s", res.detail);
}

Test(linux_mode, keyboard_controller_reset_after_a_panic)
{
	init_frames(0, false);
	com1_str("[    3.1] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0\r\n");
	port(0x64, true, 1, 0xfe);
	cr_expect(loop.stop);
	finish();
	cr_expect_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_expect(strstr(res.detail, "Linux reset the machine through the keyboard controller"),
		  "%s", res.detail);
	cr_expect(strstr(res.detail, "Attempted to kill init"), "%s", res.detail);
	cr_expect(res.have_linux && res.have_boot, "what /init said before still counts");
}

Test(linux_mode, cf9_and_triple_fault_resets)
{
	port(0xcf9, true, 1, 0x02); /* not a reset: SYS_RST alone */
	cr_expect_not(loop.stop);
	port(0xcf9, true, 1, 0x06);
	cr_expect_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_expect(strstr(res.detail, "port 0xcf9 (<- 0x06)"), "%s", res.detail);
	fake_loop();
	run.exit_reason = KVM_EXIT_SHUTDOWN;
	exit_dispatch(&loop);
	cr_expect_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_expect(strstr(res.detail, "triple fault"), "%s", res.detail);
	linux_mode_free(&lx);
}

Test(linux_mode, a_timeout_before_init_says_so)
{
	com1_str("[    0.1] booting\r\n");
	loop_stop(&loop, EL_RUN_TIMEOUT, "guest still running after 5 s");
	finish();
	cr_expect_eq(res.status, EL_RUN_TIMEOUT);
	cr_expect(strstr(res.detail, "no BOOT frame"), "%s", res.detail);
}

Test(linux_mode, legacy_ports_read_all_ones_and_are_counted)
{
	cr_expect_eq(port_in(0x2f8 + 1), 0xff, "the second UART is not there");
	cr_expect_eq(port_in(0x2f8 + 1), 0xff);
	port(0xcf8, true, 4, 0x80000000);
	cr_expect_eq(port_in(0x60), 0xff);
	port(0x80, true, 1, 0x12); /* POST: its own device, as for our kernel */
	cr_expect_not(loop.stop, "%s", res.detail);
	cr_expect_eq(res.legacy.reads, 3);
	cr_expect_eq(res.legacy.writes, 1);
	cr_expect_eq(res.legacy.nr_ports, 3);
	cr_expect(res.legacy.ports[0].port == 0x2f9 && res.legacy.ports[0].reads == 2);
	cr_expect_eq(res.io_exits[3], 1, "post");
}

Test(linux_mode, legacy_ports_past_the_table_still_count)
{
	for (unsigned p = 0x400; p < 0x400 + EL_LEGACY_PORTS + 10; p++)
		(void)port_in((uint16_t)p);
	cr_expect_eq(res.legacy.reads, EL_LEGACY_PORTS + 10);
	cr_expect_eq(res.legacy.nr_ports, EL_LEGACY_PORTS);
}

Test(linux_mode, unknown_mmio_reads_all_ones)
{
	run.exit_reason = KVM_EXIT_MMIO;
	memset(&run.mmio, 0, sizeof(run.mmio));
	run.mmio.phys_addr = 0xfed00000;
	run.mmio.len = 4;
	exit_dispatch(&loop);
	cr_expect_eq(run.mmio.data[0], 0xff);
	cr_expect_eq(run.mmio.data[3], 0xff);
	run.mmio.phys_addr = 0xfed00010;
	run.mmio.len = 8;
	run.mmio.is_write = 1;
	exit_dispatch(&loop);
	cr_expect_not(loop.stop);
	cr_expect_eq(res.legacy.mmio_reads, 1);
	cr_expect_eq(res.legacy.mmio_writes, 1);
	cr_expect_eq(res.legacy.mmio_first, 0xfed00000);
}

Test(linux_mode, cmos_clock)
{
	port(0x70, true, 1, 0x0a);
	cr_expect_eq(port_in(0x71), 0x26, "register A: UIP clear");
	port(0x70, true, 1, 0x8d); /* NMI mask bit set, register D */
	cr_expect_eq(port_in(0x71), 0x80, "register D: valid");
	cr_expect_eq(res.legacy.reads + res.legacy.writes, 0, "a device, not a probe");
	/* 2026-12-06 12:34:56 UTC, a Sunday; 2000-02-29 23:59:59, a Tuesday */
	cr_expect_eq(rtc_cmos_read(0x00, 1796560496), 0x56);
	cr_expect_eq(rtc_cmos_read(0x02, 1796560496), 0x34);
	cr_expect_eq(rtc_cmos_read(0x04, 1796560496), 0x12);
	cr_expect_eq(rtc_cmos_read(0x06, 1796560496), 0x01);
	cr_expect_eq(rtc_cmos_read(0x07, 1796560496), 0x06);
	cr_expect_eq(rtc_cmos_read(0x08, 1796560496), 0x12);
	cr_expect_eq(rtc_cmos_read(0x09, 1796560496), 0x26);
	cr_expect_eq(rtc_cmos_read(0x32, 1796560496), 0x20);
	cr_expect_eq(rtc_cmos_read(0x07, 951868799), 0x29);
	cr_expect_eq(rtc_cmos_read(0x08, 951868799), 0x02);
	cr_expect_eq(rtc_cmos_read(0x06, 951868799), 0x03);
	cr_expect_eq(rtc_cmos_read(0x09, 4102358400), 0x99);
	cr_expect_eq(rtc_cmos_read(0x40, 4102358400), 0x00, "CMOS memory");
}

Test(linux_mode, com1_probe_then_console)
{
	port(EL_PORT_COM1 + 7, true, 1, 0x5a);
	cr_expect_eq(port_in(EL_PORT_COM1 + 7), 0x5a);
	port(EL_PORT_COM1 + 2, true, 1, 0x01);
	cr_expect_eq(port_in(EL_PORT_COM1 + 2), 0xc1);
	port(EL_PORT_COM1 + 4, true, 1, 0x10); /* loopback: size_fifo's bytes */
	port(EL_PORT_COM1, true, 1, 'L');
	port(EL_PORT_COM1 + 4, true, 1, 0x0b);
	port(EL_PORT_COM1, true, 1, 'k');
	cr_expect_not(loop.stop, "%s", res.detail);
	finish();
	cr_expect_str_eq(res.console, "k");
	cr_expect_eq(res.io_exits[0], 8);
}

/* Our kernel's mode is unchanged: no legacy ports there, no CMOS clock. */
Test(linux_mode, our_kernel_keeps_unknown_ports_bad)
{
	linux_mode_free(&lx);
	loop.lx = NULL;
	spec.guest = EL_GUEST_ENTRYLAB;
	port(0x70, true, 1, 0x0a);
	cr_expect_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_expect(strstr(res.detail, "unknown I/O port 0x70"), "%s", res.detail);
	lx = (struct el_linux_mode){0};
}
