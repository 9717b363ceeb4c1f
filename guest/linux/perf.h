/*
 * The perf group of one measured task (perf_attr.h says how each CFG maps):
 * opened disabled, the leader handed to the region markers, read after the
 * task ended.
 */
#ifndef LINIT_PERF_H
#define LINIT_PERF_H

#include <stddef.h>
#include <sys/types.h>

#include <entrylab/abi.h>

struct linit_perf {
	struct el_counter c[EL_MAX_COUNTERS]; /* config and status per asked event */
	int member[EL_MAX_COUNTERS];          /* its index in the group, -1 if not in it */
	int fd[EL_MAX_COUNTERS];              /* the group's descriptors, leader first */
	unsigned nr, members;
	int whole; /* linit_perf_open_whole: no group, each counter alone */
};

/*
 * Opens the group of the nr CFGs on task pid (0: the caller), one CPU any.
 * An event perf does not have is marked not supported and left out.  0, or
 * -1 with err naming the event and the errno (/init then fails).
 */
int linit_perf_open(struct linit_perf *p, const uint64_t *cfg, unsigned nr, pid_t pid,
		    char *err, size_t errlen);

/*
 * For a whole program (conf region=whole): each of the nr CFGs opened on
 * task pid on its own, inherited and enabled by the task's execve
 * (perf_attr.h: linit_perf_attr_whole); member[] and fd[] as for a group,
 * with no leader.  0, or -1 with err.
 */
int linit_perf_open_whole(struct linit_perf *p, const uint64_t *cfg, unsigned nr, pid_t pid,
			  char *err, size_t errlen);

/* The group leader's descriptor; -1 when no event opened, or for a whole program. */
int linit_perf_leader(const struct linit_perf *p);

/* Reads the group, or a whole program's counters, into c[] (perf_attr.h).  0, or -1 with err. */
int linit_perf_read(struct linit_perf *p, char *err, size_t errlen);

void linit_perf_close(struct linit_perf *p);

/*
 * A whole program's page faults (perf_attr.h: linit_perf_attr_faults_whole)
 * on task pid: the descriptor, or -1 (the count is then unknown, never 0).
 * Read after the task ended: 0 with *faults, or -1 when not counted.
 */
int linit_perf_open_faults_whole(pid_t pid);
int linit_perf_read_faults(int fd, uint64_t *faults);

#endif
