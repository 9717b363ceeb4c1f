/*
 * Raw system calls as one inlined SYSCALL instruction: no libc wrapper, no
 * errno, the kernel's -errno comes back as is.  For the markers and for the
 * benchmarks' `syscall` path, where a wrapper would blur what is measured.
 */
#ifndef EL_GUEST_SYS_H
#define EL_GUEST_SYS_H

static inline long el_syscall1(long nr, long a)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a) : "rcx", "r11", "memory");
	return ret;
}

static inline long el_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long el_syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long el_syscall4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

#endif
