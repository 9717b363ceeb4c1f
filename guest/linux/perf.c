/* perf_event_open for the counters: one group per measured task, or a whole program's. */
#include "perf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_attr.h"

static int perf_event_open(struct perf_event_attr *a, pid_t pid, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* EINVAL in the group: does the event open alone?  Then the group had no counter left. */
static int status_einval(struct perf_event_attr *a, pid_t pid)
{
	int fd = perf_event_open(a, pid, -1);

	if (fd < 0)
		return EL_COUNTER_NOT_SUPPORTED;
	close(fd);
	return EL_COUNTER_NOT_COUNTED;
}

/* A group on pid, or (whole) each counter alone, inherited and enabled by pid's execve. */
static int perf_open(struct linit_perf *p, const uint64_t *cfg, unsigned nr, pid_t pid,
		     int whole, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->nr = nr;
	p->whole = whole;
	for (unsigned i = 0; i < nr; i++) {
		struct perf_event_attr a;
		int fd, st;

		p->c[i].config = cfg[i];
		p->c[i].status = EL_COUNTER_NOT_SUPPORTED;
		p->member[i] = -1;
		if (whole ? linit_perf_attr_whole(cfg[i], &a) : linit_perf_attr(cfg[i], &a))
			continue;
		fd = perf_event_open(&a, pid, p->members && !whole ? p->fd[0] : -1);
		if (fd >= 0) {
			p->c[i].status = EL_COUNTER_NOT_COUNTED; /* until a read says more */
			p->member[i] = (int)p->members;
			p->fd[p->members++] = fd;
			continue;
		}
		st = linit_perf_errno_status(errno);
		if (st < 0) {
			snprintf(err, errlen, "perf_event_open of event %u (CFG 0x%llx): %s; /init "
				 "runs as root, so the kernel refuses perf itself "
				 "(perf_event_paranoid, a lockdown, or out of descriptors)",
				 i, (unsigned long long)cfg[i], strerror(errno));
			linit_perf_close(p);
			return -1;
		}
		if (errno == EINVAL && p->members && !whole)
			st = status_einval(&a, pid);
		p->c[i].status = (uint32_t)st;
	}
	return 0;
}

int linit_perf_open(struct linit_perf *p, const uint64_t *cfg, unsigned nr, pid_t pid,
		    char *err, size_t errlen)
{
	return perf_open(p, cfg, nr, pid, 0, err, errlen);
}

int linit_perf_open_whole(struct linit_perf *p, const uint64_t *cfg, unsigned nr, pid_t pid,
			  char *err, size_t errlen)
{
	return perf_open(p, cfg, nr, pid, 1, err, errlen);
}

int linit_perf_leader(const struct linit_perf *p)
{
	return p->members && !p->whole ? p->fd[0] : -1;
}

/* A whole program's counters, each read alone. */
static int perf_read_whole(struct linit_perf *p, char *err, size_t errlen)
{
	for (unsigned i = 0; i < p->nr; i++) {
		uint64_t buf[LINIT_PERF_READ_WORDS_ONE];
		ssize_t n;

		if (p->member[i] < 0)
			continue;
		n = read(p->fd[p->member[i]], buf, sizeof(buf));
		if (n < 0) {
			snprintf(err, errlen, "reading the program's counter %u: %s", i,
				 strerror(errno));
			return -1;
		}
		linit_perf_read_status_one(buf, (size_t)n, &p->c[i]);
	}
	return 0;
}

int linit_perf_read(struct linit_perf *p, char *err, size_t errlen)
{
	uint64_t buf[LINIT_PERF_READ_WORDS(EL_MAX_COUNTERS)];
	ssize_t n;

	if (p->whole)
		return perf_read_whole(p, err, errlen);

	if (!p->members)
		return 0;
	n = read(p->fd[0], buf, sizeof(buf));
	if (n < 0) {
		snprintf(err, errlen, "reading the perf group: %s", strerror(errno));
		return -1;
	}
	linit_perf_read_statuses(buf, (size_t)n, p->members, p->member, p->c, p->nr);
	return 0;
}

void linit_perf_close(struct linit_perf *p)
{
	for (unsigned i = 0; i < p->members; i++)
		close(p->fd[i]);
	p->members = 0;
}

int linit_perf_open_faults_whole(pid_t pid)
{
	struct perf_event_attr a;

	linit_perf_attr_faults_whole(&a);
	return perf_event_open(&a, pid, -1);
}

int linit_perf_read_faults(int fd, uint64_t *faults)
{
	uint64_t buf[LINIT_PERF_READ_WORDS_ONE];
	struct el_counter c = {0};
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return -1;
	linit_perf_read_status_one(buf, (size_t)n, &c);
	*faults = c.value;
	return c.status == EL_COUNTER_COUNTED ? 0 : -1;
}
