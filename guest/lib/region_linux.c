/*
 * Region markers on Linux: the markers' slow path does the region itself
 * through the page and the perf group of include/entrylab/linux_init.h.
 * The program only writes the page; entrylab's /init checks what it reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>

#include "parse_num.h"
#include "region.h"
#include "region_linux.h"

#define FD_MAX (1u << 20) /* above any RLIMIT_NOFILE Linux allows */

static struct el_linux_region *page;
static int perf_fd = -1;

static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* The whole group at once; a raw SYSCALL, no wrapper between the counters and the loop. */
static inline int perf_group_ioctl(unsigned long request)
{
	return el_syscall3(SYS_ioctl, perf_fd, (long)request, PERF_IOC_FLAG_GROUP) != 0;
}

/* A descriptor number from the environment; -1 if absent, -2 if malformed. */
static int env_fd(const char *name)
{
	const char *s = getenv(name);
	uint64_t v;

	if (!s)
		return -1;
	if (el_parse_u64(s, 0, FD_MAX, &v)) {
		fprintf(stderr, "region markers: %s='%s' is not a descriptor number; entrylab's "
			"/init sets it (include/entrylab/linux_init.h)\n", name, s);
		return -2;
	}
	return (int)v;
}

int el_region_linux_attach(void)
{
	int fd;
	void *p;

	if (page)
		return 0;
	fd = env_fd(EL_LINUX_ENV_REGION);
	if (fd < 0)
		return -1;
	p = mmap(NULL, EL_LINUX_REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("region markers: cannot map the region page named by " EL_LINUX_ENV_REGION
		       "; running unmarked");
		return -1;
	}
	page = p;
	fd = env_fd(EL_LINUX_ENV_PERF);
	perf_fd = fd >= 0 ? fd : -1;
	return 0;
}

/* Before main: no mmap lies between a BEGIN marker and the loop. */
__attribute__((constructor)) static void attach_before_main(void)
{
	if (getenv(EL_LINUX_ENV_REGION))
		el_region_linux_attach();
}

bool el_region_linux_attached(void)
{
	return page != NULL;
}

int el_region_linux_begin(uint64_t iterations)
{
	struct el_linux_region *r = page;

	if (!r)
		return -1;
	if (perf_fd >= 0 &&
	    (perf_group_ioctl(PERF_EVENT_IOC_RESET) || perf_group_ioctl(PERF_EVENT_IOC_ENABLE)))
		r->errors++;
	r->magic = EL_LINUX_REGION_MAGIC;
	r->iterations = iterations;
	r->begins++;
	r->tsc_begin = rdtsc_ordered();
	return 0;
}

int el_region_linux_end(void)
{
	struct el_linux_region *r = page;
	uint64_t tsc;

	if (!r)
		return -1;
	tsc = rdtsc_ordered();
	if (perf_fd >= 0 && perf_group_ioctl(PERF_EVENT_IOC_DISABLE))
		r->errors++;
	r->magic = EL_LINUX_REGION_MAGIC;
	r->tsc_end = tsc;
	r->ends++;
	return 0;
}
