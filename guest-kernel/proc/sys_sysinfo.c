/*
 * sysinfo(2): what uptime, free and busybox's `uptime` read.  Linux's
 * x86-64 layout (struct sysinfo, 112 bytes); units of mem_unit = 1 byte.
 * No load average is kept (one CPU, no sampling of the run queue): loads
 * are 0, as Linux reports an idle machine.  No swap, no high memory.
 */
#include "mm/frame.h"
#include "proc/process.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define PAGE_BYTES 4096u

struct linux_sysinfo {
	int64_t uptime;      /* seconds since boot */
	uint64_t loads[3];   /* 1, 5, 15 minute load averages, << 16 */
	uint64_t totalram;   /* in mem_unit */
	uint64_t freeram;
	uint64_t sharedram;
	uint64_t bufferram;
	uint64_t totalswap;
	uint64_t freeswap;
	uint16_t procs;      /* tasks alive */
	uint16_t pad;
	uint32_t pad2;
	uint64_t totalhigh;
	uint64_t freehigh;
	uint32_t mem_unit;
	char reserved[4];
};
_Static_assert(sizeof(struct linux_sysinfo) == 112, "struct sysinfo layout (x86-64)");

SYSCALL_DEFINE1(sysinfo, uint64_t, info)
{
	struct linux_sysinfo si = {0};
	unsigned procs = 0;

	for (unsigned i = 0; i < task_slots; i++)
		procs += task_table[i].state != TASK_UNUSED && task_table[i].state != TASK_DEAD;
	si.uptime = (int64_t)(time_monotonic_ns() / 1000000000u);
	si.totalram = frame_stats.total * PAGE_BYTES;
	si.freeram = (frame_stats.total - frame_stats.in_use) * PAGE_BYTES;
	si.procs = (uint16_t)procs;
	si.mem_unit = 1;
	return copy_to_user(info, &si, sizeof(si));
}
