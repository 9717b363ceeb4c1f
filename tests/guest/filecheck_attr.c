/*
 * filecheck: attributes.  umask applied to open, mkdir and mknod and
 * inherited by fork; chmod in its forms; chown storing ids (-1 keeps one,
 * a change clears set-user-ID); utimensat with UTIME_NOW and UTIME_OMIT,
 * utimes and utime, ctime moving with every change and mtime with writes;
 * statx agreeing with stat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "filecheck.h"

static mode_t mode_of(const char *name)
{
	struct stat st = {0};

	return lstat(name, &st) ? (mode_t)-1 : st.st_mode;
}

static void check_umask(void)
{
	mode_t old = umask(027);
	int fd;
	pid_t pid;

	el_expect("umask_returns_old", umask(027) == 027, "umask did not keep 027");
	fd = open("u_file", O_CREAT | O_WRONLY, 0666);
	el_expect("umask_open", fd >= 0 && mode_of("u_file") == (S_IFREG | 0640), "mode %o",
		  mode_of("u_file"));
	close(fd);
	el_expect("umask_mkdir", mkdir("u_dir", 0777) == 0 && mode_of("u_dir") == (S_IFDIR | 0750),
		  "mode %o", mode_of("u_dir"));
	el_expect("umask_mknod", mknod("u_node", S_IFREG | 0666, 0) == 0 &&
		  mode_of("u_node") == (S_IFREG | 0640), "mode %o", mode_of("u_node"));
	pid = fork();
	if (pid == 0)
		_exit(umask(0) == 027 ? 0 : 1);
	el_expect("umask_fork", pid > 0 && fc_wait(pid) == 0, "the child saw another umask");
	umask(old);
}

static void check_chmod(void)
{
	int fd;

	if (!fc_write_file("m", "x")) {
		el_fail("chmod", "cannot create: %s", strerror(errno));
		return;
	}
	el_expect("chmod", chmod("m", 0600) == 0 && mode_of("m") == (S_IFREG | 0600), "mode %o",
		  mode_of("m"));
	fd = open("m", O_RDONLY);
	el_expect("fchmod", fchmod(fd, 04755) == 0 && mode_of("m") == (S_IFREG | 04755), "mode %o",
		  mode_of("m"));
	close(fd);
	el_expect("fchmodat", fchmodat(AT_FDCWD, "m", 0640, 0) == 0 &&
		  mode_of("m") == (S_IFREG | 0640), "mode %o", mode_of("m"));
	errno = 0;
	el_expect("chmod_enoent", chmod("none", 0600) == -1 && errno == ENOENT, "errno %d", errno);
	el_expect("chmod_dir", mkdir("md", 0700) == 0 && chmod("md", 01777) == 0 &&
		  mode_of("md") == (S_IFDIR | 01777), "mode %o", mode_of("md"));
}

static void check_chown(void)
{
	struct stat st = {0}, ls = {0};
	int fd;

	if (!fc_write_file("o", "x") || symlink("o", "o_link")) {
		el_fail("chown", "cannot create: %s", strerror(errno));
		return;
	}
	el_expect("chown", chown("o", 1000, 2000) == 0 && stat("o", &st) == 0 &&
		  st.st_uid == 1000 && st.st_gid == 2000, "uid %u gid %u", st.st_uid, st.st_gid);
	el_expect("chown_keep", chown("o", (uid_t)-1, 3000) == 0 && stat("o", &st) == 0 &&
		  st.st_uid == 1000 && st.st_gid == 3000, "uid %u gid %u", st.st_uid, st.st_gid);
	chmod("o", 06755);
	el_expect("chown_clears_suid", chown("o", 0, 0) == 0 && mode_of("o") == (S_IFREG | 0755),
		  "mode %o", mode_of("o"));
	el_expect("lchown", lchown("o_link", 7, 8) == 0 && lstat("o_link", &ls) == 0 &&
		  stat("o", &st) == 0 && ls.st_uid == 7 && ls.st_gid == 8 && st.st_uid == 0,
		  "link %u:%u, file %u", ls.st_uid, ls.st_gid, st.st_uid);
	el_expect("fchownat_nofollow",
		  fchownat(AT_FDCWD, "o_link", 9, 9, AT_SYMLINK_NOFOLLOW) == 0 &&
		  lstat("o_link", &ls) == 0 && ls.st_uid == 9, "link uid %u", ls.st_uid);
	fd = open("o", O_RDONLY);
	el_expect("fchown", fchown(fd, 5, 6) == 0 && fstat(fd, &st) == 0 && st.st_uid == 5 &&
		  st.st_gid == 6, "uid %u gid %u", st.st_uid, st.st_gid);
	close(fd);
}

static bool ts_eq(struct timespec t, time_t sec, long nsec)
{
	return t.tv_sec == sec && t.tv_nsec == nsec;
}

static void check_times(void)
{
	struct timespec set[2] = {{1000, 500}, {2000, 600}}, now;
	struct timespec omit[2] = {{0, UTIME_OMIT}, {3000, 700}};
	struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
	struct timeval tv[2] = {{4000, 1}, {5000, 2}};
	struct utimbuf ub = {6000, 7000};
	struct stat st = {0}, st2 = {0};
	int fd;

	if (!fc_write_file("t", "x")) {
		el_fail("utimensat", "cannot create: %s", strerror(errno));
		return;
	}
	el_expect("utimensat", utimensat(AT_FDCWD, "t", set, 0) == 0 && stat("t", &st) == 0 &&
		  ts_eq(st.st_atim, 1000, 500) && ts_eq(st.st_mtim, 2000, 600),
		  "atime %ld.%ld mtime %ld.%ld", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
		  (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	el_expect("utimensat_omit", utimensat(AT_FDCWD, "t", omit, 0) == 0 &&
		  stat("t", &st) == 0 && ts_eq(st.st_atim, 1000, 500) &&
		  ts_eq(st.st_mtim, 3000, 700), "atime %ld mtime %ld", (long)st.st_atim.tv_sec,
		  (long)st.st_mtim.tv_sec);
	clock_gettime(CLOCK_REALTIME, &now);
	el_expect("utimensat_now", utimensat(AT_FDCWD, "t", NULL, 0) == 0 &&
		  stat("t", &st) == 0 && st.st_mtim.tv_sec >= now.tv_sec - 1 &&
		  st.st_atim.tv_sec >= now.tv_sec - 1 && st.st_ctim.tv_sec >= now.tv_sec - 1,
		  "mtime %ld, now %ld", (long)st.st_mtim.tv_sec, (long)now.tv_sec);
	errno = 0;
	el_expect("utimensat_einval", utimensat(AT_FDCWD, "t", bad, 0) == -1 && errno == EINVAL,
		  "errno %d", errno);
	fd = open("t", O_RDONLY);
	el_expect("futimens", futimens(fd, set) == 0 && fstat(fd, &st) == 0 &&
		  ts_eq(st.st_mtim, 2000, 600), "mtime %ld", (long)st.st_mtim.tv_sec);
	close(fd);
	el_expect("utimes", utimes("t", tv) == 0 && stat("t", &st) == 0 &&
		  ts_eq(st.st_atim, 4000, 1000) && ts_eq(st.st_mtim, 5000, 2000),
		  "atime %ld.%ld", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec);
	el_expect("utime", utime("t", &ub) == 0 && stat("t", &st) == 0 &&
		  ts_eq(st.st_atim, 6000, 0) && ts_eq(st.st_mtim, 7000, 0), "mtime %ld",
		  (long)st.st_mtim.tv_sec);
	/* A write moves mtime and ctime to now; chmod moves ctime alone. */
	fd = open("t", O_WRONLY | O_APPEND);
	el_expect("write_mtime", write(fd, "y", 1) == 1 && fstat(fd, &st) == 0 &&
		  st.st_mtim.tv_sec >= now.tv_sec - 1 && st.st_ctim.tv_sec >= now.tv_sec - 1,
		  "mtime %ld ctime %ld now %ld", (long)st.st_mtim.tv_sec,
		  (long)st.st_ctim.tv_sec, (long)now.tv_sec);
	close(fd);
	utimensat(AT_FDCWD, "t", set, 0);
	el_expect("chmod_ctime", chmod("t", 0600) == 0 && stat("t", &st2) == 0 &&
		  ts_eq(st2.st_mtim, 2000, 600) && st2.st_ctim.tv_sec >= now.tv_sec - 1,
		  "mtime %ld ctime %ld", (long)st2.st_mtim.tv_sec, (long)st2.st_ctim.tv_sec);
}

#ifdef SYS_statx
#include <linux/stat.h>

static void check_statx(void)
{
	struct statx sx;
	struct stat st = {0};
	long r;

	memset(&sx, 0, sizeof(sx));
	r = syscall(SYS_statx, AT_FDCWD, "t", 0, STATX_BASIC_STATS, &sx);
	stat("t", &st);
	el_expect("statx", r == 0 && (sx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS &&
		  sx.stx_ino == st.st_ino && sx.stx_mode == st.st_mode &&
		  sx.stx_size == (uint64_t)st.st_size && sx.stx_mtime.tv_sec == st.st_mtim.tv_sec &&
		  sx.stx_mtime.tv_nsec == (uint32_t)st.st_mtim.tv_nsec &&
		  sx.stx_nlink == st.st_nlink, "r %ld mask %#x ino %llu/%lu", r, sx.stx_mask,
		  (unsigned long long)sx.stx_ino, (unsigned long)st.st_ino);
}
#else
static void check_statx(void)
{
	el_skip("statx", "no SYS_statx in these headers");
}
#endif

void filecheck_attr(void)
{
	check_umask();
	check_chmod();
	check_chown();
	check_times();
	check_statx();
}
