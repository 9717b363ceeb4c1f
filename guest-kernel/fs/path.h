/*
 * Path arguments of syscalls: copying them in and finding where relative
 * ones start (AT_FDCWD or a directory descriptor).
 */
#ifndef EL_FS_PATH_H
#define EL_FS_PATH_H

#include "fs/vfs.h"
#include "kernel.h"

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_EACCESS 0x200
#define AT_NO_AUTOMOUNT 0x800
#define AT_EMPTY_PATH 0x1000

/* Copies a user path into buf[PATH_MAX]: 0 or -EFAULT / -ENAMETOOLONG. */
int path_from_user(char *buf, uint64_t upath);

/*
 * The directory a path relative to dirfd starts from (for an absolute path
 * it does not matter): 0 or -EBADF / -ENOTDIR.
 */
int path_start(int64_t dirfd, struct inode **start);

/*
 * The inode path names relative to dirfd, the *at calls' flags applied:
 * AT_SYMLINK_NOFOLLOW, and AT_EMPTY_PATH for "" (dirfd's own inode, the
 * cwd for AT_FDCWD; else -ENOENT).  0 or -errno.
 */
int path_inode_at(int64_t dirfd, const char *path, uint64_t flags, struct inode **n);

/*
 * Copies in and resolves a user path relative to dirfd (vfs_resolve): 0 or
 * -errno.  l->name points into the copy, which is gone once it returns: a
 * caller that uses the name (to create or rename) passes its own
 * buf[PATH_MAX] to path_resolve_in.
 */
int path_resolve_user(int64_t dirfd, uint64_t upath, bool follow, struct lookup *l);
int path_resolve_in(char *buf, int64_t dirfd, uint64_t upath, bool follow, struct lookup *l);

#endif
