/*
 * The credential system calls (cred.h) with Linux's permission rules
 * (kernel/sys.c, kernel/groups.c): an unprivileged caller may only move
 * among the ids it already holds; a privileged one (euid 0) sets any.
 * An id of -1 is "unchanged" where Linux says so and EINVAL for setuid
 * and setgid.  The filesystem id follows the effective one.
 */
#include "lib/string.h"
#include "proc/cred.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define ID_KEEP 0xffffffffu

bool cred_capable(const struct task *t)
{
	return t->cred.euid == 0;
}

bool cred_may_signal(const struct task *from, const struct task *to)
{
	const struct cred *f = &from->cred, *t = &to->cred;

	return cred_capable(from) || f->euid == t->suid || f->euid == t->uid ||
	       f->uid == t->suid || f->uid == t->uid;
}

bool cred_may_ptrace(const struct task *from, const struct task *to)
{
	const struct cred *f = &from->cred, *t = &to->cred;

	if (cred_capable(from))
		return true;
	if (f->uid != t->uid || f->uid != t->euid || f->uid != t->suid || f->gid != t->gid ||
	    f->gid != t->egid || f->gid != t->sgid)
		return false;
	return !to->undumpable;
}

/* One of the ids the caller holds (r, e, s): the unprivileged set*id rule. */
static bool held(uint32_t id, const uint32_t ids[3])
{
	return id == ids[0] || id == ids[1] || id == ids[2];
}

/*
 * The common core of every set[res]*id: ids[0..2] = real, effective, saved
 * (uids or gids of the caller, updated in place), fs the filesystem id.
 */
static long set_res(uint32_t ids[3], uint32_t *fs, uint32_t r, uint32_t e, uint32_t s)
{
	bool priv = cred_capable(current);

	if (!priv && ((r != ID_KEEP && !held(r, ids)) || (e != ID_KEEP && !held(e, ids)) ||
		      (s != ID_KEEP && !held(s, ids))))
		return -EPERM;
	if (r != ID_KEEP)
		ids[0] = r;
	if (e != ID_KEEP)
		ids[1] = e;
	if (s != ID_KEEP)
		ids[2] = s;
	*fs = ids[1];
	return 0;
}

/* setreuid/setregid: real may become the real or effective; effective any of the three. */
static long set_re(uint32_t ids[3], uint32_t *fs, uint32_t r, uint32_t e)
{
	uint32_t old_r = ids[0];
	bool priv = cred_capable(current);

	if (!priv && r != ID_KEEP && r != ids[0] && r != ids[1])
		return -EPERM;
	if (!priv && e != ID_KEEP && !held(e, ids))
		return -EPERM;
	if (r != ID_KEEP)
		ids[0] = r;
	if (e != ID_KEEP)
		ids[1] = e;
	/* Linux: the saved id follows the effective one when the real one is set or differs. */
	if (r != ID_KEEP || (e != ID_KEEP && e != old_r))
		ids[2] = ids[1];
	*fs = ids[1];
	return 0;
}

/* setuid/setgid: privileged sets all three, else only the effective (to the real or saved). */
static long set_one(uint32_t ids[3], uint32_t *fs, uint32_t id)
{
	if (id == ID_KEEP)
		return -EINVAL;
	if (cred_capable(current)) {
		ids[0] = ids[1] = ids[2] = *fs = id;
		return 0;
	}
	if (id != ids[0] && id != ids[2])
		return -EPERM;
	ids[1] = *fs = id;
	return 0;
}

/* setfsuid/setfsgid: the old value, always; changed only to a held id (or by privilege). */
static long set_fs(const uint32_t ids[3], uint32_t *fs, uint32_t id)
{
	uint32_t old = *fs;

	if (id != ID_KEEP && (cred_capable(current) || held(id, ids) || id == *fs))
		*fs = id;
	return old;
}

/* The uids and gids as arrays of three (real, effective, saved), copied back after a change. */
#define UIDS(c) {(c)->uid, (c)->euid, (c)->suid}
#define GIDS(c) {(c)->gid, (c)->egid, (c)->sgid}
static void put_uids(struct cred *c, const uint32_t ids[3])
{
	c->uid = ids[0], c->euid = ids[1], c->suid = ids[2];
}
static void put_gids(struct cred *c, const uint32_t ids[3])
{
	c->gid = ids[0], c->egid = ids[1], c->sgid = ids[2];
}

#define SET_UIDS(expr)                                    \
	do {                                              \
		struct cred *c = &current->cred;          \
		uint32_t ids[3] = UIDS(c);                \
		long r = (expr);                          \
		if (r >= 0)                               \
			put_uids(c, ids);                 \
		return r;                                 \
	} while (0)
#define SET_GIDS(expr)                                    \
	do {                                              \
		struct cred *c = &current->cred;          \
		uint32_t ids[3] = GIDS(c);                \
		long r = (expr);                          \
		if (r >= 0)                               \
			put_gids(c, ids);                 \
		return r;                                 \
	} while (0)

SYSCALL_DEFINE0(getuid)
{
	return current->cred.uid;
}

SYSCALL_DEFINE0(geteuid)
{
	return current->cred.euid;
}

SYSCALL_DEFINE0(getgid)
{
	return current->cred.gid;
}

SYSCALL_DEFINE0(getegid)
{
	return current->cred.egid;
}

static long put_three(uint64_t a, uint64_t b, uint64_t c, const uint32_t v[3])
{
	if (copy_to_user(a, &v[0], 4) || copy_to_user(b, &v[1], 4) || copy_to_user(c, &v[2], 4))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE3(getresuid, uint64_t, ruidp, uint64_t, euidp, uint64_t, suidp)
{
	const struct cred *c = &current->cred;
	uint32_t v[3] = UIDS(c);

	return put_three(ruidp, euidp, suidp, v);
}

SYSCALL_DEFINE3(getresgid, uint64_t, rgidp, uint64_t, egidp, uint64_t, sgidp)
{
	const struct cred *c = &current->cred;
	uint32_t v[3] = GIDS(c);

	return put_three(rgidp, egidp, sgidp, v);
}

SYSCALL_DEFINE1(setuid, uint32_t, uid)
{
	SET_UIDS(set_one(ids, &c->fsuid, uid));
}

SYSCALL_DEFINE1(setgid, uint32_t, gid)
{
	SET_GIDS(set_one(ids, &c->fsgid, gid));
}

SYSCALL_DEFINE2(setreuid, uint32_t, ruid, uint32_t, euid)
{
	SET_UIDS(set_re(ids, &c->fsuid, ruid, euid));
}

SYSCALL_DEFINE2(setregid, uint32_t, rgid, uint32_t, egid)
{
	SET_GIDS(set_re(ids, &c->fsgid, rgid, egid));
}

SYSCALL_DEFINE3(setresuid, uint32_t, ruid, uint32_t, euid, uint32_t, suid)
{
	SET_UIDS(set_res(ids, &c->fsuid, ruid, euid, suid));
}

SYSCALL_DEFINE3(setresgid, uint32_t, rgid, uint32_t, egid, uint32_t, sgid)
{
	SET_GIDS(set_res(ids, &c->fsgid, rgid, egid, sgid));
}

SYSCALL_DEFINE1(setfsuid, uint32_t, uid)
{
	SET_UIDS(set_fs(ids, &c->fsuid, uid));
}

SYSCALL_DEFINE1(setfsgid, uint32_t, gid)
{
	SET_GIDS(set_fs(ids, &c->fsgid, gid));
}

/* getgroups(size, list): size 0 asks for the count; a smaller list is EINVAL. */
SYSCALL_DEFINE2(getgroups, int, size, uint64_t, list)
{
	const struct cred *c = &current->cred;

	if (size < 0)
		return -EINVAL;
	if (!size)
		return c->ngroups;
	if ((uint32_t)size < c->ngroups)
		return -EINVAL;
	return copy_to_user(list, c->groups, c->ngroups * sizeof(c->groups[0])) ?: (long)c->ngroups;
}

SYSCALL_DEFINE2(setgroups, int, size, uint64_t, list)
{
	struct cred *c = &current->cred;
	uint32_t g[CRED_NGROUPS];
	int i;

	if (!cred_capable(current))
		return -EPERM;
	if (size < 0 || size > CRED_NGROUPS)
		return -EINVAL;
	if (copy_from_user(g, list, (size_t)size * sizeof(g[0])))
		return -EFAULT;
	/* Kept sorted, as Linux keeps them (getgroups reads them back in order). */
	for (i = 0; i < size; i++) {
		uint32_t v = g[i];
		int j = i;

		if (v == ID_KEEP)
			return -EINVAL;
		for (; j > 0 && g[j - 1] > v; j--)
			g[j] = g[j - 1];
		g[j] = v;
	}
	memcpy(c->groups, g, (size_t)size * sizeof(g[0]));
	c->ngroups = (uint32_t)size;
	return 0;
}
