/*
 * filecheck: names.  Hard links (one inode, nlink counted, data shared,
 * EPERM on directories, AT_SYMLINK_FOLLOW), symlinks and readlink
 * (truncation, EINVAL on a file, dangling links), rename in its forms
 * (replacing, RENAME_NOREPLACE, RENAME_EXCHANGE, directories, EINVAL into
 * itself, EISDIR, ENOTDIR, ENOTEMPTY, two links of one inode), truncate
 * and fallocate, statfs's magic numbers, the sync calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filecheck.h"

#define RENAME_NOREPLACE 1
#define RENAME_EXCHANGE 2
#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0

static ino_t ino_of(const char *name)
{
	struct stat st = {0};

	return lstat(name, &st) ? 0 : st.st_ino;
}

static nlink_t nlink_of(const char *name)
{
	struct stat st = {0};

	return lstat(name, &st) ? 0 : st.st_nlink;
}

static long renameat2_(const char *from, const char *to, unsigned flags)
{
	return syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
}

static void check_link(void)
{
	char buf[16];
	struct stat st = {0};
	int fd;

	if (!fc_write_file("a", "hello")) {
		el_fail("link", "cannot create: %s", strerror(errno));
		return;
	}
	el_expect("link", link("a", "b") == 0 && ino_of("a") == ino_of("b") && nlink_of("a") == 2,
		  "ino %lu/%lu nlink %lu", (unsigned long)ino_of("a"), (unsigned long)ino_of("b"),
		  (unsigned long)nlink_of("a"));
	fd = open("b", O_WRONLY | O_APPEND);
	el_expect("link_shares_data", fd >= 0 && write(fd, "!", 1) == 1 &&
		  fc_read_file("a", buf, 15) == 6 && !strcmp(buf, "hello!"), "a reads '%s'", buf);
	close(fd);
	el_expect("unlink_one_link", unlink("a") == 0 && nlink_of("b") == 1 &&
		  fc_read_file("b", buf, 15) == 6, "nlink %lu", (unsigned long)nlink_of("b"));
	errno = 0;
	el_expect("link_eexist", fc_write_file("c", "") && link("b", "c") == -1 && errno == EEXIST,
		  "errno %d", errno);
	errno = 0;
	el_expect("link_dir_eperm", mkdir("d", 0755) == 0 && link("d", "d2") == -1 &&
		  errno == EPERM, "errno %d", errno);
	errno = 0;
	el_expect("link_enoent", link("none", "x") == -1 && errno == ENOENT, "errno %d", errno);
	symlink("b", "sl");
	el_expect("linkat_nofollow", linkat(AT_FDCWD, "sl", AT_FDCWD, "sl2", 0) == 0 &&
		  lstat("sl2", &st) == 0 && S_ISLNK(st.st_mode) && ino_of("sl2") == ino_of("sl"),
		  "sl2 is not the link itself");
	el_expect("linkat_follow", linkat(AT_FDCWD, "sl", AT_FDCWD, "b2", AT_SYMLINK_FOLLOW) == 0 &&
		  ino_of("b2") == ino_of("b") && nlink_of("b") == 2, "b2 ino %lu b ino %lu",
		  (unsigned long)ino_of("b2"), (unsigned long)ino_of("b"));
	el_expect("link_in_subdir", link("b", "d/b3") == 0 && nlink_of("b") == 3 &&
		  fc_read_file("d/b3", buf, 15) == 6, "nlink %lu", (unsigned long)nlink_of("b"));
}

static void check_symlink(void)
{
	char buf[64];
	ssize_t n;
	struct stat st = {0};

	el_expect("symlink", fc_write_file("target", "data") && symlink("target", "ln") == 0,
		  "%s", strerror(errno));
	n = readlink("ln", buf, sizeof(buf));
	el_expect("readlink", n == 6 && !memcmp(buf, "target", 6), "n %zd", n);
	n = readlink("ln", buf, 3);
	el_expect("readlink_truncates", n == 3 && !memcmp(buf, "tar", 3), "n %zd", n);
	n = readlinkat(AT_FDCWD, "ln", buf, sizeof(buf));
	el_expect("readlinkat", n == 6, "n %zd", n);
	errno = 0;
	el_expect("readlink_einval", readlink("target", buf, sizeof(buf)) == -1 && errno == EINVAL,
		  "errno %d", errno);
	el_expect("symlink_follow", fc_read_file("ln", buf, 63) == 4 && !strcmp(buf, "data"),
		  "reads '%s'", buf);
	errno = 0;
	el_expect("symlink_eexist", symlink("x", "ln") == -1 && errno == EEXIST, "errno %d", errno);
	el_expect("symlink_dangling", symlink("nowhere", "dl") == 0 && stat("dl", &st) == -1 &&
		  errno == ENOENT && lstat("dl", &st) == 0 && S_ISLNK(st.st_mode) && st.st_size == 7,
		  "lstat size %ld", (long)st.st_size);
	el_expect("symlink_dir", mkdir("sd", 0755) == 0 && fc_write_file("sd/f", "in") &&
		  symlink("sd", "sdl") == 0 && fc_read_file("sdl/f", buf, 63) == 2,
		  "sdl/f: %s", strerror(errno));
	el_expect("unlink_symlink", unlink("ln") == 0 && lstat("ln", &st) == -1 &&
		  stat("target", &st) == 0, "the target went with the link");
}

static void check_rename(void)
{
	char buf[16];
	ino_t ia, ib;

	fc_write_file("r1", "one");
	ia = ino_of("r1");
	el_expect("rename", rename("r1", "r2") == 0 && ino_of("r2") == ia && !ino_of("r1") &&
		  fc_read_file("r2", buf, 15) == 3, "r2 ino %lu", (unsigned long)ino_of("r2"));
	fc_write_file("r3", "three");
	el_expect("rename_replaces", rename("r2", "r3") == 0 && ino_of("r3") == ia &&
		  fc_read_file("r3", buf, 15) == 3, "r3 reads '%s'", buf);
	fc_write_file("r4", "four");
	errno = 0;
	el_expect("rename_noreplace", renameat2_("r3", "r4", RENAME_NOREPLACE) == -1 &&
		  errno == EEXIST && ino_of("r3") == ia, "errno %d", errno);
	ib = ino_of("r4");
	el_expect("rename_exchange", renameat2_("r3", "r4", RENAME_EXCHANGE) == 0 &&
		  ino_of("r3") == ib && ino_of("r4") == ia, "inodes not swapped");
	errno = 0;
	el_expect("rename_exchange_enoent", renameat2_("r3", "r9", RENAME_EXCHANGE) == -1 &&
		  errno == ENOENT, "errno %d", errno);
	errno = 0;
	el_expect("rename_enoent", rename("r9", "r8") == -1 && errno == ENOENT, "errno %d", errno);
	el_expect("rename_dir", mkdir("rd", 0755) == 0 && fc_write_file("rd/in", "x") &&
		  rename("rd", "rd2") == 0 && fc_read_file("rd2/in", buf, 15) == 1,
		  "rd2/in: %s", strerror(errno));
	errno = 0;
	el_expect("rename_into_itself", mkdir("rd2/sub", 0755) == 0 &&
		  rename("rd2", "rd2/sub/x") == -1 && errno == EINVAL, "errno %d", errno);
	errno = 0;
	el_expect("rename_file_over_dir", mkdir("rdir", 0755) == 0 && rename("r3", "rdir") == -1 &&
		  errno == EISDIR, "errno %d", errno);
	errno = 0;
	el_expect("rename_dir_over_file", rename("rdir", "r3") == -1 && errno == ENOTDIR,
		  "errno %d", errno);
	errno = 0;
	el_expect("rename_dir_over_nonempty", rename("rdir", "rd2") == -1 &&
		  (errno == ENOTEMPTY || errno == EEXIST), "errno %d", errno);
	el_expect("rename_dir_over_empty", mkdir("rempty", 0755) == 0 &&
		  rename("rdir", "rempty") == 0 && ino_of("rdir") == 0, "%s", strerror(errno));
	el_expect("rename_dir_nlink", nlink_of(".") == 2 + 2 + 1 + 1, "nlink of . %lu",
		  (unsigned long)nlink_of("."));
	el_expect("rename_dir_moves_dotdot", rename("rempty", "rd2/sub/moved") == 0 &&
		  ino_of("rd2/sub/moved/../..") == ino_of("rd2") && nlink_of("rd2/sub") == 3,
		  "nlink %lu", (unsigned long)nlink_of("rd2/sub"));
	link("r3", "r3b");
	el_expect("rename_same_inode", rename("r3", "r3b") == 0 && ino_of("r3") &&
		  ino_of("r3b") == ino_of("r3"), "one of the links went");
	el_expect("rename_same_name", rename("r4", "r4") == 0 && ino_of("r4") == ia,
		  "%s", strerror(errno));
	errno = 0;
	el_expect("rename_dot", rename(".", "dotx") == -1 && errno == EBUSY, "errno %d", errno);
}

static void check_sizes(void)
{
	struct stat st = {0};
	int fd;

	fc_write_file("s", "0123456789");
	el_expect("truncate", truncate("s", 4) == 0 && stat("s", &st) == 0 && st.st_size == 4,
		  "size %ld", (long)st.st_size);
	errno = 0;
	el_expect("truncate_dir", truncate(".", 0) == -1 && errno == EISDIR, "errno %d", errno);
	fd = open("s", O_RDWR);
	el_expect("fallocate", fallocate(fd, 0, 0, 10000) == 0 && fstat(fd, &st) == 0 &&
		  st.st_size == 10000, "%s, size %ld", strerror(errno), (long)st.st_size);
	el_expect("fallocate_keep_size", fallocate(fd, 1 /* KEEP_SIZE */, 0, 20000) == 0 &&
		  fstat(fd, &st) == 0 && st.st_size == 10000, "size %ld", (long)st.st_size);
	el_expect("fsync", fsync(fd) == 0 && fdatasync(fd) == 0, "%s", strerror(errno));
	close(fd);
	errno = 0;
	el_expect("fsync_ebadf", fsync(fd) == -1 && errno == EBADF, "errno %d", errno);
	sync();
	el_pass("sync");
}

static void check_statfs(void)
{
	struct statfs s = {0};
	int fd;

	el_expect("statfs_shm", statfs("/dev/shm", &s) == 0 && s.f_type == TMPFS_MAGIC &&
		  s.f_bsize == 4096 && s.f_blocks > 0 && s.f_bfree <= s.f_blocks &&
		  s.f_namelen == 255, "type %#lx bsize %ld blocks %lu", (long)s.f_type,
		  (long)s.f_bsize, (unsigned long)s.f_blocks);
	el_expect("statfs_proc", statfs("/proc", &s) == 0 && s.f_type == PROC_SUPER_MAGIC,
		  "type %#lx", (long)s.f_type);
	fd = open("/dev/shm", O_RDONLY | O_DIRECTORY);
	el_expect("fstatfs", fd >= 0 && fstatfs(fd, &s) == 0 && s.f_type == TMPFS_MAGIC,
		  "type %#lx", (long)s.f_type);
	close(fd);
	errno = 0;
	el_expect("statfs_enoent", statfs("/nonexistent", &s) == -1 && errno == ENOENT,
		  "errno %d", errno);
}

void filecheck_names(void)
{
	check_link();
	check_symlink();
	check_rename();
	check_sizes();
	check_statfs();
}
