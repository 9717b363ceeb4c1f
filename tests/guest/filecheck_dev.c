/*
 * filecheck: /dev.  null (EOF, takes everything), zero (zeros), full
 * (ENOSPC, zeros), random and urandom (bytes that differ between reads),
 * the device numbers Linux gives them, /dev/tty (the console here; a host
 * without a controlling terminal says ENXIO), the fd, stdin, stdout and
 * stderr links into /proc/self/fd, and /dev/shm, a sticky writable
 * directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "array_size.h"
#include "filecheck.h"

static void check_numbers(void)
{
	static const struct {
		const char *path;
		unsigned major, minor;
	} devs[] = {
		{"/dev/null", 1, 3}, {"/dev/zero", 1, 5}, {"/dev/full", 1, 7},
		{"/dev/random", 1, 8}, {"/dev/urandom", 1, 9}, {"/dev/tty", 5, 0},
	};
	char name[64];
	unsigned i;

	for (i = 0; i < EL_ARRAY_SIZE(devs); i++) {
		struct stat st = {0};
		int r = stat(devs[i].path, &st);

		snprintf(name, sizeof(name), "rdev_%s", devs[i].path + 5);
		el_expect(name, r == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == devs[i].major &&
			  minor(st.st_rdev) == devs[i].minor && (st.st_mode & 0666) == 0666,
			  "r %d mode %o rdev %u:%u", r, st.st_mode, major(st.st_rdev),
			  minor(st.st_rdev));
	}
}

static void check_data(void)
{
	char buf[64], buf2[64], zeros[64] = {0};
	int fd;

	fd = open("/dev/null", O_RDWR);
	el_expect("null", fd >= 0 && read(fd, buf, sizeof(buf)) == 0 &&
		  write(fd, "abc", 3) == 3, "%s", strerror(errno));
	close(fd);
	fd = open("/dev/zero", O_RDWR);
	memset(buf, 1, sizeof(buf));
	el_expect("zero", fd >= 0 && read(fd, buf, sizeof(buf)) == sizeof(buf) &&
		  !memcmp(buf, zeros, sizeof(buf)) && write(fd, "abc", 3) == 3, "%s",
		  strerror(errno));
	close(fd);
	fd = open("/dev/full", O_RDWR);
	memset(buf, 1, sizeof(buf));
	errno = 0;
	el_expect("full_enospc", fd >= 0 && write(fd, "abc", 3) == -1 && errno == ENOSPC,
		  "errno %d", errno);
	el_expect("full_reads_zeros", read(fd, buf, sizeof(buf)) == sizeof(buf) &&
		  !memcmp(buf, zeros, sizeof(buf)), "%s", strerror(errno));
	close(fd);
	fd = open("/dev/urandom", O_RDONLY);
	el_expect("urandom", fd >= 0 && read(fd, buf, sizeof(buf)) == sizeof(buf) &&
		  read(fd, buf2, sizeof(buf2)) == sizeof(buf2) && memcmp(buf, buf2, sizeof(buf)) &&
		  memcmp(buf, zeros, sizeof(buf)), "two reads alike or zero");
	close(fd);
	fd = open("/dev/random", O_RDONLY);
	el_expect("random", fd >= 0 && read(fd, buf, 16) == 16 && memcmp(buf, zeros, 16),
		  "%s", strerror(errno));
	close(fd);
}

static void check_tty(void)
{
	int fd = open("/dev/tty", O_WRONLY | O_NOCTTY);

	if (fd < 0 && errno == ENXIO) {
		el_pass("tty"); /* no controlling terminal: what Linux says then */
		return;
	}
	el_expect("tty", fd >= 0 && write(fd, "", 0) == 0, "%s", strerror(errno));
	close(fd);
}

static void check_links(void)
{
	static const char *const links[][2] = {
		{"/dev/fd", "/proc/self/fd"},
		{"/dev/stdin", "/proc/self/fd/0"},
		{"/dev/stdout", "/proc/self/fd/1"},
		{"/dev/stderr", "/proc/self/fd/2"},
	};
	char buf[64], name[64];
	unsigned i;

	for (i = 0; i < 4; i++) {
		ssize_t n = readlink(links[i][0], buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = '\0';
		snprintf(name, sizeof(name), "link_%s", links[i][0] + 5);
		el_expect(name, n > 0 && !strcmp(buf, links[i][1]), "'%s'", buf);
	}
}

static void check_shm_dir(void)
{
	struct stat st = {0};
	int fd;

	el_expect("shm_dir", stat("/dev/shm", &st) == 0 && st.st_mode == (S_IFDIR | 01777),
		  "mode %o", st.st_mode);
	fd = open("/dev/shm/filecheck-dev", O_CREAT | O_EXCL | O_RDWR, 0600);
	el_expect("shm_create", fd >= 0 && write(fd, "x", 1) == 1 &&
		  unlink("/dev/shm/filecheck-dev") == 0, "%s", strerror(errno));
	close(fd);
}

void filecheck_dev(void)
{
	check_numbers();
	check_data();
	check_tty();
	check_links();
	check_shm_dir();
}
