/*
 * The compat syscall table: Linux i386 numbers (EL_NR32_*,
 * include/entrylab/syscall_nr32.h), for int $0x80 (from any code segment:
 * Linux uses this table whatever the CS), compat SYSCALL and SYSENTER
 * (arch/x86_64/entry/entry_compat.S, dispatched by sys/syscall32.c).
 * Same handler shape as syscall_table (syscall_fn, sys/syscalls.h; the
 * wrappers here are COMPAT_SYSCALL_DEFINEn), called with EBX ECX EDX ESI
 * EDI EBP zero-extended; the result is sign-extended into RAX, of which
 * user mode sees EAX.
 *
 * In: the calls below.  Most reuse the 64-bit handler, where the i386 ABI
 * passes the same things: pointers to the same layouts (char strings, int
 * arrays, struct pollfd, utsname, linux_dirent64, statx, rlimit64, the
 * *_time64 timespecs, sigset_t), unsigned values.  Wrappers where it differs:
 *   SX(name, mask)  an `int` argument (file descriptors and dirfds such as
 *                   AT_FDCWD, pids such as -1, offsets): i386 passes 32
 *                   bits, which the 64-bit handler must see sign-extended,
 *                   as Linux's __ia32_sys_* casts do;
 *   mmap2           offset in 4096-byte pages; the mapping goes below
 *                   4 GiB (MAP_32BIT: below 2 GiB, unless MAP_FIXED);
 *   mmap (90)       old_mmap: one pointer to six u32, byte offset;
 *   _llseek         64-bit offset in two words, result through a pointer;
 *   pread64, pwrite64, truncate64, ftruncate64: 64-bit values in two words;
 *   time            a 32-bit time_t;
 *   waitpid         wait4 without rusage;
 *   fcntl, fcntl64  everything but the record locks (struct flock differs:
 *                   -EINVAL until translated).
 * Out: every other number, -ENOSYS counted as unknown (guest.unknown_
 * syscalls), like the 64-bit table's filler: among them the calls with
 * 32-bit layouts not translated yet (stat64 family, old timeval/timespec
 * calls, rusage, sigaction/sigaltstack/sigreturn and the signal frames,
 * set/get_thread_area, clone, socketcall/ipc multiplexers) and, for good,
 * vm86old and vm86 (the CPU has no virtual-8086 mode in long mode; Linux
 * answers -ENOSYS on x86-64 too).
 */
#include "entrylab/syscall_nr32.h"
#include "fs/lock.h"
#include "mm/mman.h"
#include "sys/errno.h"
#include "sys/syscall32.h"
#include "sys/uaccess.h"
#include "sys/uaccess_u64.h"

#define PAGE_SHIFT_MMAP2 12 /* mmap2's unit, 4096 on i386 whatever the page size */
#define F_GETLK64 12
#define F_SETLKW64 14

static inline uint64_t sx32(uint64_t v)
{
	return (uint64_t)(int64_t)(int32_t)v;
}

/*
 * SX(name, mask): sys_c32_<name>, the 64-bit handler with the arguments
 * whose bit is set in mask sign-extended (bit 0: the first); a register
 * shim (sys/syscalls.h) that passes all six registers on.
 */
#define SX_ARG(n, mask) (((mask) >> (n)) & 1 ? sx32(sc_r##n) : sc_r##n)
#define SX(name, mask)                                                                     \
	static long sys_c32_##name(SC_REGS)                                                \
	{                                                                                  \
		return sys_##name(SX_ARG(0, mask), SX_ARG(1, mask), SX_ARG(2, mask),       \
				  SX_ARG(3, mask), SX_ARG(4, mask), SX_ARG(5, mask));      \
	}

SX(read, 1) SX(write, 1) SX(close, 1) SX(dup, 1) SX(dup2, 3) SX(dup3, 3) SX(ioctl, 1)
SX(fchmod, 1) SX(fsync, 1) SX(flock, 1) SX(getdents64, 1) SX(lseek, 3)
SX(kill, 3) SX(tkill, 3) SX(tgkill, 7) SX(setpgid, 3) SX(getpgid, 1) SX(getsid, 1)
SX(getpriority, 3) SX(setpriority, 7) SX(exit, 1) SX(exit_group, 1) SX(sched_getaffinity, 1)
SX(prlimit64, 1) SX(fchown, 7) SX(setreuid, 3) SX(setregid, 3) SX(setresuid, 7)
SX(setresgid, 7) SX(shutdown, 1) SX(bind, 1) SX(connect, 1) SX(listen, 3)
SX(openat, 1) SX(mkdirat, 1) SX(mknodat, 1) SX(fchownat, 1) SX(unlinkat, 1)
SX(renameat, 5) SX(renameat2, 5) SX(linkat, 5) SX(symlinkat, 2) SX(readlinkat, 1)
SX(fchmodat, 1) SX(faccessat, 1) SX(faccessat2, 1) SX(statx, 1) SX(utimensat, 1)
SX(wait4, 1) SX(poll, 4) SX(clock_gettime, 1) SX(clock_getres, 1) SX(clock_nanosleep, 1)

/* mmap2(addr, len, prot, flags, fd, pgoff) */
static COMPAT_SYSCALL_DEFINE6(mmap2, uint64_t, addr, uint64_t, len, uint64_t, prot, uint32_t,
			      flags, int, fd, uint64_t, pgoff)
{
	if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		flags |= MAP_32BIT;
	return sys_mmap(addr, len, prot, flags, fd, pgoff << PAGE_SHIFT_MMAP2);
}

/* old_mmap(struct { u32 addr, len, prot, flags, fd, offset } *) */
static COMPAT_SYSCALL_DEFINE1(old_mmap, uint64_t, arg)
{
	uint32_t m[6];

	if (copy_from_user(m, arg, sizeof(m)))
		return -EFAULT;
	if (m[5] & ((1u << PAGE_SHIFT_MMAP2) - 1))
		return -EINVAL;
	return sys_c32_mmap2(m[0], m[1], m[2], m[3], m[4], m[5] >> PAGE_SHIFT_MMAP2);
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence) */
static COMPAT_SYSCALL_DEFINE5(llseek, int, fd, uint64_t, offset_high, uint32_t, offset_low,
			      uint64_t, result, uint64_t, whence)
{
	long r = sys_lseek(fd, offset_high << 32 | offset_low, whence, 0, 0, 0);

	if (r < 0)
		return r;
	return put_user_u64_checked(result, (uint64_t)r) ? -EFAULT : 0;
}

/* The 64-bit values i386 passes as (low, high) register pairs. */
static COMPAT_SYSCALL_DEFINE5(pread64, int, fd, uint64_t, buf, uint64_t, count, uint32_t, pos_lo,
			      uint64_t, pos_hi)
{
	return sys_pread64(fd, buf, count, pos_hi << 32 | pos_lo, 0, 0);
}

static COMPAT_SYSCALL_DEFINE5(pwrite64, int, fd, uint64_t, buf, uint64_t, count, uint32_t, pos_lo,
			      uint64_t, pos_hi)
{
	return sys_pwrite64(fd, buf, count, pos_hi << 32 | pos_lo, 0, 0);
}

static COMPAT_SYSCALL_DEFINE3(truncate64, uint64_t, path, uint32_t, length_lo, uint64_t,
			      length_hi)
{
	return sys_truncate(path, length_hi << 32 | length_lo, 0, 0, 0, 0);
}

static COMPAT_SYSCALL_DEFINE3(ftruncate64, int, fd, uint32_t, length_lo, uint64_t, length_hi)
{
	return sys_ftruncate(fd, length_hi << 32 | length_lo, 0, 0, 0, 0);
}

/* time(old_time32_t *tloc) */
static COMPAT_SYSCALL_DEFINE1(time, uint64_t, tloc)
{
	long t = sys_time(0, 0, 0, 0, 0, 0);
	uint32_t t32 = (uint32_t)t;

	if (t >= 0 && tloc && copy_to_user(tloc, &t32, sizeof(t32)))
		return -EFAULT;
	return (int32_t)t32;
}

/* waitpid(pid, int *status, options) = wait4(pid, status, options, NULL) */
static COMPAT_SYSCALL_DEFINE3(waitpid, int, pid, uint64_t, wstatus, uint64_t, options)
{
	return sys_wait4(pid, wstatus, options, 0, 0, 0);
}

static COMPAT_SYSCALL_DEFINE3(fcntl, int, fd, uint32_t, cmd, uint64_t, arg)
{
	if ((cmd >= F_GETLK && cmd <= F_SETLKW) || (cmd >= F_GETLK64 && cmd <= F_SETLKW64) ||
	    (cmd >= F_OFD_GETLK && cmd <= F_OFD_SETLKW))
		return -EINVAL;
	return sys_fcntl(fd, cmd, arg, 0, 0, 0);
}

#define NR32(name) [EL_NR32_##name]
#define C32(name) NR32(name) = sys_##name,
#define C32_AS(name, handler) NR32(name) = sys_##handler,

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"

syscall_fn *const compat_syscall_table[NR_COMPAT_SYSCALLS] = {
	[0 ... NR_COMPAT_SYSCALLS - 1] = sys_ni_syscall,
	C32(restart_syscall)
	C32_AS(exit, c32_exit)
	C32(fork)
	C32_AS(read, c32_read)
	C32_AS(write, c32_write)
	C32(open)
	C32_AS(close, c32_close)
	C32_AS(waitpid, c32_waitpid)
	C32(link)
	C32(unlink)
	C32(chdir)
	C32_AS(time, c32_time)
	C32(mknod)
	C32(chmod)
	C32_AS(lseek, c32_lseek)
	C32(getpid)
	C32(access)
	C32(sync)
	C32_AS(kill, c32_kill)
	C32(rename)
	C32(mkdir)
	C32(rmdir)
	C32_AS(dup, c32_dup)
	C32(pipe)
	C32(brk)
	C32_AS(ioctl, c32_ioctl)
	C32_AS(fcntl, c32_fcntl)
	C32_AS(setpgid, c32_setpgid)
	C32(umask)
	C32_AS(dup2, c32_dup2)
	C32(getppid)
	C32(getpgrp)
	C32(setsid)
	C32(symlink)
	C32(readlink)
	C32_AS(mmap, c32_old_mmap)
	C32(munmap)
	C32_AS(fchmod, c32_fchmod)
	C32_AS(getpriority, c32_getpriority)
	C32_AS(setpriority, c32_setpriority)
	C32_AS(vm86old, enosys)
	C32_AS(wait4, c32_wait4)
	C32_AS(fsync, c32_fsync)
	C32(uname)
	C32(modify_ldt)
	C32(mprotect)
	C32_AS(getpgid, c32_getpgid)
	C32_AS(llseek, c32_llseek)
	C32_AS(flock, c32_flock)
	C32_AS(getsid, c32_getsid)
	C32(sched_yield)
	C32_AS(vm86, enosys)
	C32_AS(poll, c32_poll)
	C32(rt_sigprocmask)
	C32(rt_sigpending)
	C32_AS(pread64, c32_pread64)
	C32_AS(pwrite64, c32_pwrite64)
	C32(getcwd)
	C32(vfork)
	C32_AS(mmap2, c32_mmap2)
	C32_AS(truncate64, c32_truncate64)
	C32_AS(ftruncate64, c32_ftruncate64)
	C32_AS(lchown32, lchown)
	C32_AS(getuid32, getuid)
	C32_AS(getgid32, getgid)
	C32_AS(geteuid32, geteuid)
	C32_AS(getegid32, getegid)
	C32_AS(setreuid32, c32_setreuid)
	C32_AS(setregid32, c32_setregid)
	C32_AS(fchown32, c32_fchown)
	C32_AS(setresuid32, c32_setresuid)
	C32_AS(getresuid32, getresuid)
	C32_AS(setresgid32, c32_setresgid)
	C32_AS(getresgid32, getresgid)
	C32_AS(chown32, chown)
	C32_AS(setuid32, setuid)
	C32_AS(setgid32, setgid)
	C32(madvise)
	C32_AS(getdents64, c32_getdents64)
	C32_AS(fcntl64, c32_fcntl)
	C32(gettid)
	C32_AS(tkill, c32_tkill)
	C32_AS(sched_getaffinity, c32_sched_getaffinity)
	C32_AS(exit_group, c32_exit_group)
	C32(set_tid_address)
	C32_AS(tgkill, c32_tgkill)
	C32_AS(openat, c32_openat)
	C32_AS(mkdirat, c32_mkdirat)
	C32_AS(mknodat, c32_mknodat)
	C32_AS(fchownat, c32_fchownat)
	C32_AS(unlinkat, c32_unlinkat)
	C32_AS(renameat, c32_renameat)
	C32_AS(linkat, c32_linkat)
	C32_AS(symlinkat, c32_symlinkat)
	C32_AS(readlinkat, c32_readlinkat)
	C32_AS(fchmodat, c32_fchmodat)
	C32_AS(faccessat, c32_faccessat)
	C32_AS(dup3, c32_dup3)
	C32(pipe2)
	C32_AS(prlimit64, c32_prlimit64)
	C32_AS(renameat2, c32_renameat2)
	C32(getrandom)
	C32(socket)
	C32(socketpair)
	C32_AS(bind, c32_bind)
	C32_AS(connect, c32_connect)
	C32_AS(listen, c32_listen)
	C32_AS(shutdown, c32_shutdown)
	C32_AS(statx, c32_statx)
	C32_AS(clock_gettime64, c32_clock_gettime)
	C32_AS(clock_getres_time64, c32_clock_getres)
	C32_AS(clock_nanosleep_time64, c32_clock_nanosleep)
	C32_AS(utimensat_time64, c32_utimensat)
	C32_AS(futex_time64, futex)
	C32_AS(faccessat2, c32_faccessat2)
	/* i386 processes: TLS descriptors (arch/x86_64/tls.c) */
	C32(set_thread_area)
	C32(get_thread_area)
	/* i386 processes: signal actions and 32-bit frames (proc/signal32.c) */
	C32_AS(rt_sigaction, c32_rt_sigaction)
	C32_AS(sigreturn, c32_sigreturn)
	C32_AS(rt_sigreturn, c32_rt_sigreturn)
	C32_AS(clone, c32_clone)
	C32_AS(ugetrlimit, c32_ugetrlimit)
	/* glibc asks, copes with ENOSYS: compat robust lists (32-bit pointers) and rseq are not here */
	C32_AS(set_robust_list, enosys)
	C32_AS(rseq, enosys)
};

#pragma GCC diagnostic pop
