/*
 * Linux mode: the PC's CMOS clock (MC146818) at ports 0x70 (index) and 0x71
 * (data), read-only: the host's UTC time in BCD, 24-hour mode, never
 * updating (UIP clear), the battery good, no interrupts; the rest of CMOS
 * reads 0 and every write is dropped.
 *
 * Why a device and not a legacy probe answered all ones: with UIP set for
 * ever, Linux's rtc_cmos probe polls the clock until it gives up, about
 * 40,000 port exits (measured: 6.9 s of a boot through the nested runner).
 * With this it reads the time once and registers its RTC.  Linux takes its
 * wall clock from kvm-clock anyway.
 */
#include <string.h>
#include <time.h>

#include "exit.h"

#define RTC_INDEX_MASK 0x7fu /* bit 7 of the index write masks NMIs on a PC */

enum {
	RTC_SECONDS = 0x00, RTC_MINUTES = 0x02, RTC_HOURS = 0x04, RTC_WEEKDAY = 0x06,
	RTC_DAY = 0x07, RTC_MONTH = 0x08, RTC_YEAR = 0x09,
	RTC_REG_A = 0x0a, RTC_REG_B = 0x0b, RTC_REG_C = 0x0c, RTC_REG_D = 0x0d,
	RTC_CENTURY = 0x32,
};

#define RTC_A_IDLE 0x26u  /* 32.768 kHz time base, 1024 Hz rate, UIP clear */
#define RTC_B_24H 0x02u   /* 24-hour, BCD, no interrupts, no daylight saving */
#define RTC_D_VALID 0x80u /* VRT: the battery is good, the time valid */

static uint8_t bcd(unsigned v)
{
	return (uint8_t)((v / 10) << 4 | v % 10);
}

/*
 * The UTC calendar of a Unix time, by arithmetic: gmtime_r() may open the
 * time zone files, which the confined VMM cannot (seccomp).  Days to a
 * civil date with March-based years (the leap day last), 400-year eras.
 */
struct rtc_date {
	unsigned year, month, day, weekday, hour, min, sec;
};

static struct rtc_date rtc_date(uint64_t t)
{
	uint64_t days = t / 86400, secs = t % 86400;
	uint64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
	uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	unsigned month = (unsigned)(mp < 10 ? mp + 3 : mp - 9);

	return (struct rtc_date){
		.year = (unsigned)(yoe + era * 400 + (month <= 2)),
		.month = month,
		.day = (unsigned)(doy - (153 * mp + 2) / 5 + 1),
		.weekday = (unsigned)((days + 4) % 7), /* 1970-01-01 was a Thursday (4) */
		.hour = (unsigned)(secs / 3600),
		.min = (unsigned)(secs / 60 % 60),
		.sec = (unsigned)(secs % 60),
	};
}

uint8_t rtc_cmos_read(uint8_t index, time_t now)
{
	struct rtc_date d = rtc_date(now > 0 ? (uint64_t)now : 0);

	switch (index & RTC_INDEX_MASK) {
	case RTC_SECONDS: return bcd(d.sec);
	case RTC_MINUTES: return bcd(d.min);
	case RTC_HOURS: return bcd(d.hour);
	case RTC_WEEKDAY: return bcd(d.weekday + 1);
	case RTC_DAY: return bcd(d.day);
	case RTC_MONTH: return bcd(d.month);
	case RTC_YEAR: return bcd(d.year % 100);
	case RTC_CENTURY: return bcd(d.year / 100 % 100);
	case RTC_REG_A: return RTC_A_IDLE;
	case RTC_REG_B: return RTC_B_24H;
	case RTC_REG_C: return 0;
	case RTC_REG_D: return RTC_D_VALID;
	default: return 0; /* CMOS memory: nothing stored */
	}
}

void dev_rtc_io(struct el_loop *l, const struct el_io *io)
{
	struct timespec ts;

	if (io->port == EL_PORT_RTC_INDEX) {
		if (io->out && io->count)
			l->lx->rtc_index = io->data[(size_t)(io->count - 1) * io->size];
		else if (!io->out)
			memset(io->data, 0xff, (size_t)io->size * io->count); /* write-only */
		return;
	}
	if (io->out)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	memset(io->data, rtc_cmos_read(l->lx->rtc_index, ts.tv_sec), (size_t)io->size * io->count);
}
