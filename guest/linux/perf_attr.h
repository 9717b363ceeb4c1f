/*
 * The counters on Linux: an EL_EVSEL_* CFG (include/entrylab/abi.h, "Events")
 * as a perf_event_attr, the errors of perf_event_open and the group's read
 * as el_counter statuses.  Pure: the host unit tests compile it.  perf.c
 * makes the calls.
 */
#ifndef LINIT_PERF_ATTR_H
#define LINIT_PERF_ATTR_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <entrylab/abi.h>

/* What the group is read with: { nr, time_enabled, time_running, value[nr] }. */
#define LINIT_PERF_READ_FORMAT                                                             \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LINIT_PERF_READ_WORDS(nr) (3 + (nr))

/* What one counter of a whole program is read with: { value, time_enabled, time_running }. */
#define LINIT_PERF_READ_FORMAT_ONE                                                         \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define LINIT_PERF_READ_WORDS_ONE 3

/*
 * The attr for cfg: PERF_TYPE_RAW, config the event-select bits x86's raw
 * format takes (event, umask, edge, inv, cmask, AMD's event[11:8]: the CFG
 * without USR and OS), exclude_user without EL_EVSEL_USR, exclude_kernel
 * without EL_EVSEL_OS, created disabled (the markers enable the group), not
 * inherited.  0, or -1 for EL_EVENT_NONE (neither USR nor OS: the host has no
 * encoding; the counter is not supported and nothing is opened).
 */
int linit_perf_attr(uint64_t cfg, struct perf_event_attr *a);

/*
 * The attr for cfg in a whole-program region (conf region=whole): as
 * linit_perf_attr, and inherited (the program's children count), enabled
 * by the program's execve (enable_on_exec), read alone
 * (LINIT_PERF_READ_FORMAT_ONE: inherited counters cannot be read as a
 * group).  0, or -1 for EL_EVENT_NONE.
 */
int linit_perf_attr_whole(uint64_t cfg, struct perf_event_attr *a);

/*
 * A whole program's page faults (region.page_faults): perf's software
 * PERF_COUNT_SW_PAGE_FAULTS, user and kernel mode, inherited and enabled
 * by the execve like linit_perf_attr_whole's, read alone.  Independent of
 * the PMU and of conf's events; counts what `perf stat -e page-faults`
 * counts for the command (the rest of its execve included).
 */
void linit_perf_attr_faults_whole(struct perf_event_attr *a);

/*
 * perf_event_open's errno as a status: ENOENT, EOPNOTSUPP, ENODEV and
 * EINVAL say this kernel or vCPU has no such event (EL_COUNTER_NOT_SUPPORTED);
 * -1 for anything else (EACCES, EMFILE, ...), which /init reports as its own
 * failure.  An EINVAL of a group member whose event opens alone is a group
 * with no counter left for it: perf.c asks that and reports NOT_COUNTED.
 */
int linit_perf_errno_status(int err);

/*
 * Fills c[i].status and value from a group read of len bytes for the nr
 * counters whose member[i] is their index in the group (-1: the counter
 * is not in the group and keeps its status).  A counter of a group that
 * never ran (time_enabled 0, the markers never enabled it) or was
 * multiplexed (time_running < time_enabled) is NOT_COUNTED; so are all of a
 * read that is short or names another number of members.
 */
void linit_perf_read_statuses(const uint64_t *buf, size_t len, unsigned members,
			      const int *member, struct el_counter *c, unsigned nr);

/*
 * c->status and value from one counter's read of len bytes
 * (LINIT_PERF_READ_FORMAT_ONE), judged as a group's: never ran
 * (time_enabled 0: the program never reached its execve) or multiplexed
 * (time_running < time_enabled) or a short read is NOT_COUNTED.
 */
void linit_perf_read_status_one(const uint64_t *buf, size_t len, struct el_counter *c);

#endif
