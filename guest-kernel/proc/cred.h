/*
 * Credentials (sys_cred.c), as Linux's struct cred has them for a process
 * without capabilities sets: real, effective, saved and filesystem user
 * and group ids and the supplementary groups.  fork copies them, exec
 * keeps them (there are no setuid files).  "Privileged" is one test,
 * cred_capable(): effective uid 0, standing for every capability
 * (CAP_SETUID, CAP_KILL, CAP_SYS_RAWIO, CAP_SYS_RESOURCE, CAP_SYS_NICE,
 * CAP_SYS_PTRACE ...).  Each thread has its own copy, as on Linux (libc
 * makes set*id apply to every thread).
 */
#ifndef EL_PROC_CRED_H
#define EL_PROC_CRED_H

#include "kernel.h"

/* Supplementary groups kept per task; setgroups beyond it is EINVAL (Linux: NGROUPS_MAX 65536). */
#define CRED_NGROUPS 64

struct cred {
	uint32_t uid, euid, suid, fsuid;
	uint32_t gid, egid, sgid, fsgid;
	uint32_t ngroups;
	uint32_t groups[CRED_NGROUPS];
};

struct task;

/* Every capability: effective uid 0. */
bool cred_capable(const struct task *t);
/* Linux kill_ok_by_cred: sender privileged, or its uid or euid is the target's uid or suid. */
bool cred_may_signal(const struct task *from, const struct task *to);
/* ptrace attach (Linux __ptrace_may_access without LSMs): privileged, or all ids match. */
bool cred_may_ptrace(const struct task *from, const struct task *to);

#endif
