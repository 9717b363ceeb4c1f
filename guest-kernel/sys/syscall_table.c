/*
 * The syscall table: Linux x86-64 numbers (arch/x86/entry/syscalls/
 * syscall_64.tbl) and entrylab's own above 1000 (abi.h).  Numbers without
 * an entry answer -ENOSYS and are counted as unknown; `enosys` entries
 * answer -ENOSYS on purpose (musl copes) and are not counted.
 */
#include "entrylab/abi.h"
#include "sys/syscall.h"

#define SC(nr, name) [nr] = sys_##name,

syscall_fn *const syscall_table[NR_SYSCALLS] = {
	SC(0, read)
	SC(1, write)
	SC(2, open)
	SC(3, close)
	SC(4, stat)
	SC(5, fstat)
	SC(6, lstat)
	SC(8, lseek)
	SC(9, mmap)
	SC(10, mprotect)
	SC(11, munmap)
	SC(12, brk)
	SC(13, rt_sigaction)
	SC(14, rt_sigprocmask)
	SC(16, ioctl)
	SC(17, pread64)
	SC(18, pwrite64)
	SC(19, readv)
	SC(20, writev)
	SC(21, access)
	SC(24, sched_yield)
	SC(25, enosys)          /* mremap: musl's realloc falls back to copying */
	SC(26, msync)
	SC(28, madvise)
	SC(32, dup)
	SC(33, dup2)
	SC(35, nanosleep)
	SC(39, getpid)
	SC(56, clone)
	SC(57, fork)
	SC(58, vfork)
	SC(60, exit)
	SC(61, wait4)
	SC(62, kill)
	SC(63, uname)
	SC(72, fcntl)
	SC(77, ftruncate)
	SC(79, getcwd)
	SC(80, chdir)
	SC(83, mkdir)
	SC(84, rmdir)
	SC(87, unlink)
	SC(89, readlink)
	SC(95, umask)
	SC(96, gettimeofday)
	SC(97, getrlimit)
	SC(102, getuid)         /* everything runs as root: uid = gid = 0 */
	SC(104, getuid)         /* getgid */
	SC(107, getuid)         /* geteuid */
	SC(108, getuid)         /* getegid */
	SC(110, getppid)
	SC(131, sigaltstack)
	SC(154, modify_ldt)
	SC(158, arch_prctl)
	SC(172, iopl)
	SC(173, ioperm)
	SC(186, gettid)
	SC(200, tkill)
	SC(201, time)
	SC(202, futex)
	SC(203, sched_setaffinity)
	SC(204, sched_getaffinity)
	SC(217, getdents64)
	SC(218, set_tid_address)
	SC(228, clock_gettime)
	SC(229, clock_getres)
	SC(230, clock_nanosleep)
	SC(231, exit_group)
	SC(247, waitid)
	SC(234, tgkill)
	SC(257, openat)
	SC(258, mkdirat)
	SC(262, newfstatat)
	SC(263, unlinkat)
	SC(267, readlinkat)
	SC(269, faccessat)
	SC(273, set_robust_list)
	SC(292, dup3)
	SC(302, prlimit64)
	SC(309, getcpu)
	SC(318, getrandom)
	SC(332, enosys)         /* statx: musl falls back to fstatat */
	SC(334, enosys)         /* rseq */
	SC(439, faccessat2)
	SC(EL_SYS_REGION, el_region)
	SC(EL_SYS_SELF_IPI, el_self_ipi)
};
