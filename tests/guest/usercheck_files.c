/* usercheck, files: a writable /tmp, read-only initrd files, /dev/null. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lib/sys.h"
#include "usercheck.h"

/* Each check computes its verdict first: argument order would race errno. */

static void check_tmp(struct uc_env *env)
{
	static const char a[] = "entrylab usercheck: ", b[] = "writev ", c[] = "and write\n";
	struct iovec iov[2] = { { (void *)a, sizeof(a) - 1 }, { (void *)b, sizeof(b) - 1 } };
	const size_t len = sizeof(a) + sizeof(b) + sizeof(c) - 3;
	char path[64], buf[128] = { 0 }, expect[128];
	struct stat st = { 0 }, st2 = { 0 };
	int fd, fd2;
	bool ok;
	long r;

	snprintf(path, sizeof(path), "/tmp/usercheck.%d", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (!el_expect("files.tmp_create", fd >= 0, "open(%s, O_CREAT): %s", path,
		       strerror(errno)))
		return;
	env->tmp_fd = fd;
	snprintf(expect, sizeof(expect), "%s%s%s", a, b, c);

	ok = writev(fd, iov, 2) == (ssize_t)(len - strlen(c)) &&
	     write(fd, c, strlen(c)) == (ssize_t)strlen(c);
	el_expect("files.tmp_write", ok, "writev/write: %s", strerror(errno));
	ok = lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof(buf)) == (ssize_t)len &&
	     memcmp(buf, expect, len) == 0 && read(fd, buf, sizeof(buf)) == 0;
	el_expect("files.tmp_read", ok, "read back differs or does not end at EOF");
	ok = lseek(fd, 0, SEEK_END) == (off_t)len && lseek(fd, -4, SEEK_CUR) == (off_t)len - 4 &&
	     lseek(fd, 1000, SEEK_SET) == 1000 && read(fd, buf, 1) == 0 &&
	     lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL && lseek(fd, 0, 99) == -1 &&
	     errno == EINVAL;
	el_expect("files.tmp_lseek", ok,
		  "SEEK_END/CUR/SET, past EOF, negative offset or bad whence misbehave");
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == (off_t)len;
	el_expect("files.tmp_fstat", ok, "fstat: size %lld (want %zu), mode %o",
		  (long long)st.st_size, len, (unsigned)st.st_mode);
	/* Raw: musl's stat() would use SYS_stat, which the entrylab kernel need not have. */
	r = el_syscall4(SYS_newfstatat, AT_FDCWD, (long)path, (long)&st2, 0);
	ok = r == 0 && st2.st_size == st.st_size && st2.st_ino == st.st_ino;
	el_expect("files.tmp_newfstatat", ok, "newfstatat returned %ld, size %lld ino %llu", r,
		  (long long)st2.st_size, (unsigned long long)st2.st_ino);
	memset(buf, 0, sizeof(buf));
	fd2 = openat(AT_FDCWD, path, O_RDONLY);
	ok = fd2 >= 0 && fd2 != fd && read(fd2, buf, len) == (ssize_t)len &&
	     memcmp(buf, expect, len) == 0 && close(fd2) == 0;
	el_expect("files.tmp_openat", ok, "openat(AT_FDCWD) then read: %s", strerror(errno));
	if (!env->entrylab)
		unlink(path); /* the entrylab kernel has no unlink; its /tmp dies with the VM */
}

static void check_self(struct uc_env *env)
{
	char head[4], *data = NULL, *map;
	ssize_t got, total = 0;
	struct stat st;
	int fd, wfd;
	bool ok;

	fd = open(env->self, O_RDONLY);
	if (!el_expect("files.ro_open", fd >= 0, "open(%s): %s", env->self, strerror(errno)))
		return;
	ok = fstat(fd, &st) == 0 && st.st_size > 0;
	if (!el_expect("files.ro_fstat", ok, "fstat(%s): %s", env->self, strerror(errno)))
		goto out;
	data = malloc(st.st_size);
	while (data && (got = read(fd, data + total, st.st_size - total)) > 0)
		total += got;
	ok = data && total == st.st_size && memcmp(data, "\177ELF", 4) == 0;
	el_expect("files.ro_read", ok, "read %zd of %lld bytes, or no ELF magic", total,
		  (long long)st.st_size);
	ok = read(fd, head, sizeof(head)) == 0;
	el_expect("files.ro_eof", ok, "read at EOF does not return 0");

	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ok = map != MAP_FAILED && data && memcmp(map, data, st.st_size) == 0 &&
	     munmap(map, st.st_size) == 0;
	el_expect("files.ro_mmap", ok, "file-backed read-only mmap: %s",
		  map == MAP_FAILED ? strerror(errno) : "contents differ from read()");

	/* Linux: ETXTBSY (it is running); entrylab: the initrd is read-only. */
	wfd = open(env->self, O_WRONLY);
	ok = wfd < 0 && (errno == EROFS || errno == EACCES || errno == ETXTBSY || errno == EPERM);
	el_expect("files.ro_not_writable", ok, "open(%s, O_WRONLY) gave %d (%s)", env->self, wfd,
		  strerror(errno));
	if (wfd >= 0)
		close(wfd);
out:
	free(data);
	close(fd);
}

static void check_misc(void)
{
	char buf[16] = "0123456789abcde";
	int fd = open("/dev/null", O_RDWR);
	bool ok;

	ok = fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf) && read(fd, buf, 8) == 0 &&
	     close(fd) == 0;
	el_expect("files.devnull", ok, "/dev/null: %s", strerror(errno));
	ok = open("/no/such/file", O_RDONLY) == -1 && errno == ENOENT;
	el_expect("files.enoent", ok, "open of a missing file: %s", strerror(errno));
	ok = read(1234, buf, 1) == -1 && errno == EBADF && close(1234) == -1 && errno == EBADF;
	el_expect("files.ebadf", ok, "read/close of fd 1234: %s", strerror(errno));
}

void uc_files(struct uc_env *env)
{
	check_tmp(env);
	check_self(env);
	check_misc();
}
