/*
 * Linux's user structs for the clock calls (x86-64), as the syscalls and the
 * vsyscall emulation write them.
 */
#ifndef EL_TIME_USER_TIME_H
#define EL_TIME_USER_TIME_H

#include <stddef.h>
#include <stdint.h>

struct user_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct user_timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};

struct user_timezone {
	int32_t tz_minuteswest;
	int32_t tz_dsttime;
};

/* time.c writes a timeval as two quadwords and a timezone as one. */
_Static_assert(sizeof(struct user_timeval) == 16 && offsetof(struct user_timeval, tv_usec) == 8,
	       "timeval: tv_sec, tv_usec");
_Static_assert(sizeof(struct user_timezone) == 8 &&
		       offsetof(struct user_timezone, tz_minuteswest) == 0 &&
		       offsetof(struct user_timezone, tz_dsttime) == 4,
	       "timezone: one quadword, minuteswest in the low half (little-endian)");

#endif
