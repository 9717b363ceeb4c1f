/*
 * mmcheck vm: process_vm_readv and process_vm_writev as Linux answers
 * them, on the caller's own memory and on a forked child's.
 */
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmcheck.h"

#define P MC_PAGE

static long vm_rw(bool write, long pid, const struct iovec *l, long nl, const struct iovec *r,
		  long nr, long flags)
{
	return mc_sys(write ? SYS_process_vm_writev : SYS_process_vm_readv, pid, (long)l, nl,
		      (long)r, nr, flags);
}

static void pattern(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed);
}

static void own_memory(void)
{
	unsigned char *src = mc_map(3), *dst = mc_map(3);
	struct iovec l[3], r[2];
	long pid = getpid(), n;

	pattern(src, 3 * P, 1);
	/* Remote: 5000 bytes at src+10, 3000 at src+6000; local: 1, 6000, rest. */
	r[0] = (struct iovec){src + 10, 5000};
	r[1] = (struct iovec){src + 6000, 3000};
	l[0] = (struct iovec){dst, 1};
	l[1] = (struct iovec){dst + 100, 6000};
	l[2] = (struct iovec){dst + 7000, 5000};
	n = vm_rw(false, pid, l, 3, r, 2, 0);
	el_expect("vm: readv gathers and scatters across iovecs", n == 8000 &&
		  dst[0] == src[10] && !memcmp(dst + 100, src + 11, 4999) &&
		  !memcmp(dst + 100 + 4999, src + 6000, 1001) &&
		  !memcmp(dst + 7000, src + 7001, 1999), "%ld", n);
	memset(dst, 0, 3 * P);
	pattern(src, 3 * P, 9);
	l[0] = (struct iovec){src, 3 * P};
	r[0] = (struct iovec){dst + 1, 3 * P - 1};
	n = vm_rw(true, pid, l, 1, r, 1, 0);
	el_expect("vm: writev stops when the remote side is full", n == (long)(3 * P - 1) &&
		  !memcmp(dst + 1, src, 3 * P - 1) && dst[0] == 0, "%ld", n);
	/* Remote range running into a hole: the bytes before it. */
	munmap(src + 2 * P, P);
	l[0] = (struct iovec){dst, 2 * P};
	r[0] = (struct iovec){src + 2 * P - 100, 200};
	n = vm_rw(false, pid, l, 1, r, 1, 0);
	el_expect("vm: a remote hole ends the transfer with the bytes before it", n == 100,
		  "%ld", n);
	r[0] = (struct iovec){src + 2 * P, 10};
	n = vm_rw(false, pid, l, 1, r, 1, 0);
	el_expect("vm: nothing readable is EFAULT", n == -EFAULT, "%ld", n);
	/* Local buffer running into a hole: what fit before it. */
	munmap(dst + 2 * P, P);
	l[0] = (struct iovec){dst + P, 2 * P};
	r[0] = (struct iovec){src, 2 * P};
	n = vm_rw(false, pid, l, 1, r, 1, 0);
	el_expect("vm: a local hole ends the transfer at the page boundary", n == (long)P,
		  "%ld", n);
	/* Untouched memory reads as zeros; a write to it is seen directly. */
	{
		unsigned char *fresh = mc_map(2), buf[64];

		memset(buf, 0xaa, sizeof(buf));
		l[0] = (struct iovec){buf, sizeof(buf)};
		r[0] = (struct iovec){fresh, sizeof(buf)};
		n = vm_rw(false, pid, l, 1, r, 1, 0);
		el_expect("vm: untouched anonymous memory reads as zeros",
			  n == 64 && buf[0] == 0 && buf[63] == 0, "%ld", n);
		memset(buf, 0x5c, sizeof(buf));
		r[0] = (struct iovec){fresh + P + 7, sizeof(buf)};
		n = vm_rw(true, pid, l, 1, r, 1, 0);
		el_expect("vm: a write into untouched memory is there",
			  n == 64 && fresh[P + 7] == 0x5c && fresh[P + 70] == 0x5c &&
			  fresh[P + 71] == 0, "%ld", n);
		munmap(fresh, 2 * P);
	}
	munmap(src, 2 * P);
	munmap(dst, 2 * P);
}

static void refusals(void)
{
	unsigned char *a = mc_map(2), buf[16];
	struct iovec l = {buf, sizeof(buf)}, r = {a, sizeof(buf)}, z = {a, 0};
	struct iovec bad_len = {buf, (size_t)-1};
	unsigned long vs, ve;
	long pid = getpid(), n;

	n = vm_rw(false, pid, &l, 1, &r, 1, 1);
	el_expect("vm: flags are EINVAL", n == -EINVAL, "%ld", n);
	n = vm_rw(false, pid, &l, 1025, &r, 1, 0);
	el_expect("vm: more than UIO_MAXIOV local elements is EINVAL", n == -EINVAL, "%ld", n);
	n = vm_rw(false, pid, &bad_len, 1, &r, 1, 0);
	el_expect("vm: a length beyond ssize_t is EINVAL", n == -EINVAL, "%ld", n);
	n = vm_rw(false, pid, (const struct iovec *)8, 1, &r, 1, 0);
	el_expect("vm: an unreadable local iovec array is EFAULT", n == -EFAULT, "%ld", n);
	n = vm_rw(false, pid, &l, 1, (const struct iovec *)8, 1, 0);
	el_expect("vm: an unreadable remote iovec array is EFAULT", n == -EFAULT, "%ld", n);
	{
		struct iovec kern = {(void *)0xffff800000000000ul, 16};

		n = vm_rw(false, pid, &kern, 1, &r, 1, 0);
		el_expect("vm: a local buffer outside user space is EFAULT", n == -EFAULT, "%ld",
			  n);
	}
	n = vm_rw(false, 0x3ffffff0, &l, 1, &r, 1, 0);
	el_expect("vm: no such process is ESRCH", n == -ESRCH, "%ld", n);
	n = vm_rw(false, 0x3ffffff0, &l, 1, &z, 1, 0);
	el_expect("vm: nothing to move is 0, before the pid is looked up", n == 0, "%ld", n);
	n = vm_rw(false, pid, &l, 0, &r, 1, 0);
	el_expect("vm: no local elements is 0", n == 0, "%ld", n);
	mprotect(a, P, PROT_READ);
	n = vm_rw(true, pid, &l, 1, &r, 1, 0);
	el_expect("vm: writing a read-only page is EFAULT", n == -EFAULT, "%ld", n);
	mprotect(a, P, PROT_NONE);
	n = vm_rw(false, pid, &l, 1, &r, 1, 0);
	el_expect("vm: reading a PROT_NONE page is EFAULT", n == -EFAULT, "%ld", n);
	if (mc_find_map("[vdso]", &vs, &ve)) {
		r = (struct iovec){(void *)vs, sizeof(buf)};
		n = vm_rw(false, pid, &l, 1, &r, 1, 0);
		el_expect("vm: [vdso] reads like memory", n == 16 && !memcmp(buf, (void *)vs, 16),
			  "%ld", n);
	}
	if (mc_find_map("[vvar]", &vs, &ve)) {
		r = (struct iovec){(void *)vs, sizeof(buf)};
		n = vm_rw(false, pid, &l, 1, &r, 1, 0);
		el_expect("vm: [vvar] (a PFN map) is EFAULT", n == -EFAULT, "%ld", n);
	}
	{
		/* test_vsyscall's rule: the gate page reads iff [vsyscall] is readable. */
		static unsigned char page[4096];
		char perms[5] = "";
		bool readable = mc_mapped(0xffffffffff600000ul, perms) && perms[0] == 'r';
		struct iovec lp = {page, sizeof(page)}, rp = {(void *)0xffffffffff600000ul, 4096};

		n = vm_rw(false, pid, &lp, 1, &rp, 1, 0);
		el_expect("vm: the vsyscall page reads exactly when [vsyscall] is readable",
			  readable ? n == 4096 && !memcmp(page, (const void *)0xffffffffff600000ul, 16)
				   : n == -EFAULT, "%ld (perms '%s')", n, perms);
		n = vm_rw(true, pid, &lp, 1, &rp, 1, 0);
		el_expect("vm: the vsyscall page is never written", n == -EFAULT, "%ld", n);
	}
	munmap(a, 2 * P);
}

/* A child waits, with data of its own, for its parent to read and replace it. */
struct child_area {
	volatile int go;     /* in MAP_SHARED memory */
	unsigned char *data; /* the child's private copy after fork */
};

static int child_wait(void *arg)
{
	struct child_area *c = arg;

	while (!c->go)
		sched_yield();
	for (unsigned i = 0; i < 64; i++)
		if (c->data[i] != (unsigned char)(0xc0 + i))
			return 1;
	return 0;
}

static void other_process(void)
{
	struct child_area *c = mmap(NULL, P, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned char buf[64];
	struct iovec l = {buf, sizeof(buf)}, r;
	int status;
	long n;
	pid_t pid;

	if (c == MAP_FAILED) {
		el_fail("vm: another process", "no shared memory");
		return;
	}
	c->data = mc_map(1);
	pattern(c->data, 64, 3);
	pid = fork();
	if (pid < 0) {
		el_fail("vm: another process", "fork failed");
		return;
	}
	if (!pid)
		syscall(SYS_exit, child_wait(c));
	memset(c->data, 0, 64); /* the parent's copy only */
	r = (struct iovec){c->data, sizeof(buf)};
	n = vm_rw(false, pid, &l, 1, &r, 1, 0);
	pattern(c->data, 64, 3);
	el_expect("vm: readv of a child reads its copy", n == 64 && !memcmp(buf, c->data, 64),
		  "%ld", n);
	for (unsigned i = 0; i < 64; i++)
		buf[i] = (unsigned char)(0xc0 + i);
	n = vm_rw(true, pid, &l, 1, &r, 1, 0);
	el_expect("vm: writev into a child", n == 64, "%ld", n);
	c->go = 1;
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	el_expect("vm: the child sees what was written",
		  status != -1 && WIFEXITED(status) && !WEXITSTATUS(status),
		  "status %#x", status);
	munmap(c->data, P);
	munmap(c, P);
}

void mc_vm(void)
{
	own_memory();
	refusals();
	other_process();
}
