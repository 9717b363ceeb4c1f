/* CFG -> perf_event_attr, and perf's answers -> el_counter statuses. */
#include "perf_attr.h"

#include <errno.h>
#include <string.h>

#define RAW_CONFIG_BITS                                                                    \
	(EL_EVSEL_EVENT | EL_EVSEL_UMASK | EL_EVSEL_EDGE | EL_EVSEL_INV | EL_EVSEL_CMASK |  \
	 EL_EVSEL_EVENT_HI)

int linit_perf_attr(uint64_t cfg, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	if (cfg == EL_EVENT_NONE || !(cfg & (EL_EVSEL_USR | EL_EVSEL_OS)))
		return -1;
	a->type = PERF_TYPE_RAW;
	a->size = sizeof(*a);
	a->config = cfg & RAW_CONFIG_BITS;
	a->read_format = LINIT_PERF_READ_FORMAT;
	a->disabled = 1;
	a->exclude_user = !(cfg & EL_EVSEL_USR);
	a->exclude_kernel = !(cfg & EL_EVSEL_OS);
	return 0;
}

int linit_perf_errno_status(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL:
		return EL_COUNTER_NOT_SUPPORTED;
	default:
		return -1;
	}
}

void linit_perf_read_statuses(const uint64_t *buf, size_t len, unsigned members,
			      const int *member, struct el_counter *c, unsigned nr)
{
	int ok = len >= LINIT_PERF_READ_WORDS(members) * sizeof(uint64_t) && buf[0] == members &&
		 buf[1] != 0 && buf[2] >= buf[1];

	for (unsigned i = 0; i < nr; i++) {
		if (member[i] < 0)
			continue;
		if (!ok || (unsigned)member[i] >= members) {
			c[i].status = EL_COUNTER_NOT_COUNTED;
			c[i].value = 0;
			continue;
		}
		c[i].status = EL_COUNTER_COUNTED;
		c[i].value = buf[3 + member[i]];
	}
}

int linit_perf_attr_whole(uint64_t cfg, struct perf_event_attr *a)
{
	if (linit_perf_attr(cfg, a))
		return -1;
	a->read_format = LINIT_PERF_READ_FORMAT_ONE;
	a->inherit = 1;
	a->enable_on_exec = 1;
	return 0;
}

void linit_perf_read_status_one(const uint64_t *buf, size_t len, struct el_counter *c)
{
	if (len < LINIT_PERF_READ_WORDS_ONE * sizeof(uint64_t) || buf[1] == 0 || buf[2] < buf[1]) {
		c->status = EL_COUNTER_NOT_COUNTED;
		c->value = 0;
		return;
	}
	c->status = EL_COUNTER_COUNTED;
	c->value = buf[0];
}

void linit_perf_attr_faults_whole(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_SW_PAGE_FAULTS;
	a->read_format = LINIT_PERF_READ_FORMAT_ONE;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
}
