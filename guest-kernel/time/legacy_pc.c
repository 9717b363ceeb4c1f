/*
 * The legacy PC timers, for a guest that is not under entrylab's VMM:
 * QEMU -kernel (the cross-check and gdb path) and the TCG trace path.  The
 * PIT (channel 2, gated through port 0x61) calibrates the TSC; the CMOS RTC
 * gives the wall clock.  entrylab's VMM has neither device (any other port
 * ends the run), and it always passes el.tsc_khz and el.epoch_ns, so these
 * are touched only when the hypervisor is not KVM.
 */
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/io.h"
#include "lib/string.h"
#include "time_math.h"
#include "time/time_priv.h"

#define PIT_HZ 1193182u
#define PIT_CAL_MS 50u
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define PIT_MODE_CH2_LOHI_ONESHOT 0xb0 /* channel 2, lobyte/hibyte, mode 0, binary */
#define PORT_61 0x61                    /* bit 0: channel 2 gate, 1: speaker, 5: OUT2 */
#define PIT_GIVE_UP_TICKS (1ull << 36)  /* ~20 s at 3 GHz: the PIT does not count */

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define CMOS_STATUS_A 0x0a /* bit 7: update in progress */
#define CMOS_STATUS_B 0x0b /* bit 2: binary (else BCD), bit 1: 24-hour */
#define CMOS_CENTURY 0x32

bool legacy_pc_usable(void)
{
	return strcmp(boot_cpu.hv_vendor, "KVMKVMKVM") != 0;
}

uint64_t pit_tsc_khz(void)
{
	uint16_t latch = PIT_HZ * PIT_CAL_MS / 1000;
	uint8_t p61 = inb(PORT_61);
	uint64_t t0, t;

	outb(PORT_61, (p61 & ~0x02) | 0x01); /* gate on, speaker off */
	outb(PIT_MODE, PIT_MODE_CH2_LOHI_ONESHOT);
	outb(PIT_CH2, latch & 0xff);
	outb(PIT_CH2, latch >> 8);
	t0 = vclock_rdtsc_lfence();
	do
		t = vclock_rdtsc_lfence();
	while (!(inb(PORT_61) & 0x20) && t - t0 < PIT_GIVE_UP_TICKS);
	outb(PORT_61, p61);
	if (t - t0 >= PIT_GIVE_UP_TICKS)
		return 0;
	return (t - t0) / PIT_CAL_MS;
}

static uint8_t cmos(uint8_t reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

struct rtc_regs {
	uint8_t sec, min, hour, day, mon, year, century;
};

static struct rtc_regs rtc_read_once(void)
{
	while (cmos(CMOS_STATUS_A) & 0x80)
		;
	return (struct rtc_regs){cmos(0), cmos(2), cmos(4), cmos(7), cmos(8), cmos(9),
				 cmos(CMOS_CENTURY)};
}

bool cmos_unix_seconds(uint64_t *out)
{
	struct rtc_regs a, b;
	uint8_t status = cmos(CMOS_STATUS_B);
	bool bcd = !(status & 0x04), pm;
	unsigned century, hour;

	/* Two equal reads: no update (once a second) happened in between. */
	do {
		a = rtc_read_once();
		b = rtc_read_once();
	} while (memcmp(&a, &b, sizeof(a)));
	pm = !(status & 0x02) && (a.hour & 0x80);
	hour = rtc_field(a.hour & 0x7f, bcd);
	if (!(status & 0x02))
		hour = hour % 12 + (pm ? 12 : 0);
	century = rtc_field(a.century, bcd);
	if (century < 19 || century > 21)
		century = 20;
	return unix_from_civil(century * 100 + rtc_field(a.year, bcd), rtc_field(a.mon, bcd),
			       rtc_field(a.day, bcd), hour, rtc_field(a.min, bcd),
			       rtc_field(a.sec, bcd), out);
}
