/*
 * usercheck, errors: bad user pointers give EFAULT (never a crash), unknown
 * syscalls give ENOSYS.  Raw syscalls, so libc cannot hide the answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"
#include "usercheck.h"

#define BAD_LOW 1l                      /* the unmapped first page */
#define BAD_KERNEL (long)0xffffffff81000000ul /* kernel text on Linux, kernel half anyway */
#define BAD_NONCANON (long)0x0000800000000000ul

struct efault_case {
	const char *what;
	long nr, a, b, c;
};

void uc_errors(struct uc_env *env)
{
	int fd = open(env->self, O_RDONLY), wfd = env->tmp_fd;
	const struct efault_case cases[] = {
		{ "write(tmp, 0x1, 10)", SYS_write, wfd, BAD_LOW, 10 },
		{ "write(tmp, kernel, 10)", SYS_write, wfd, BAD_KERNEL, 10 },
		{ "read(self, NULL, 16)", SYS_read, fd, 0, 16 },
		{ "read(self, kernel, 16)", SYS_read, fd, BAD_KERNEL, 16 },
		{ "read(self, non-canonical, 16)", SYS_read, fd, BAD_NONCANON, 16 },
		{ "open(0x1)", SYS_open, BAD_LOW, O_RDONLY, 0 },
		{ "fstat(self, kernel)", SYS_fstat, fd, BAD_KERNEL, 0 },
		{ "clock_gettime(MONOTONIC, 0x1)", SYS_clock_gettime, CLOCK_MONOTONIC, BAD_LOW, 0 },
		{ "gettimeofday(kernel)", SYS_gettimeofday, BAD_KERNEL, 0, 0 },
		{ "uname(kernel)", SYS_uname, BAD_KERNEL, 0, 0 },
		{ "nanosleep(0x1)", SYS_nanosleep, BAD_LOW, 0, 0 },
		{ "getrandom(kernel, 8)", SYS_getrandom, BAD_KERNEL, 8, 0 },
	};
	unsigned bad = 0;
	long r;

	for (unsigned i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		const struct efault_case *k = &cases[i];

		r = uc_sys(k->nr, k->a, k->b, k->c);
		if (r != -EFAULT) {
			printf("  %s returned %ld, want %d (EFAULT)\n", k->what, r, -EFAULT);
			bad++;
		}
	}
	el_expect("errors.efault", bad == 0 && fd >= 0, "%u bad-pointer syscalls not EFAULT", bad);

	r = uc_sys(999, 0, 0, 0);
	el_expect("errors.enosys_999", r == -ENOSYS, "syscall 999 returned %ld", r);
	r = uc_sys(-1, 0, 0, 0);
	el_expect("errors.enosys_negative", r == -ENOSYS, "syscall -1 returned %ld", r);
	r = uc_sys(SYS_lseek, fd, 0, 12345);
	el_expect("errors.einval", r == -EINVAL, "lseek whence 12345 returned %ld", r);
	if (fd >= 0)
		close(fd);
}
