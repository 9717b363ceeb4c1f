/*
 * The syscall table: Linux x86-64 numbers (EL_NR_*, include/entrylab/
 * syscall_nr.h) and entrylab's own above 1000 (abi.h).  Numbers without an
 * entry hold sys_ni_syscall, so the asm's call needs no NULL test: they
 * answer -ENOSYS and are counted as unknown; `enosys` entries answer
 * -ENOSYS on purpose (musl copes) and are not counted.  SC_FULL entries
 * need the complete user frame (sys/syscall.c) and go through their
 * ptregs_ stub (entry_syscall.S).
 */
#include "entrylab/abi.h"
#include "entrylab/syscall_nr.h"
#include "sys/syscall.h"

/* SC(name): sys_name at EL_NR_name; SC_AS(name, handler): another call's handler. */
#define SC(name) [EL_NR_##name] = sys_##name,
#define SC_AS(name, handler) [EL_NR_##name] = sys_##handler,
#define SC_FULL(name) [EL_NR_##name] = ptregs_sys_##name,

/* The filler first, every handler over it (as Linux's table does). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"

syscall_fn *const syscall_table[NR_SYSCALLS] = {
	[0 ... NR_SYSCALLS - 1] = sys_ni_syscall,
	SC(read)
	SC(write)
	SC(open)
	SC(close)
	SC(stat)
	SC(fstat)
	SC(lstat)
	SC(lseek)
	SC(mmap)
	SC(mprotect)
	SC(munmap)
	SC(brk)
	SC(rt_sigaction)
	SC(rt_sigprocmask)
	SC_FULL(rt_sigreturn)
	SC(ioctl)
	SC(pread64)
	SC(pwrite64)
	SC(readv)
	SC(writev)
	SC(access)
	SC(pipe)
	SC(sched_yield)
	SC(mremap)
	SC(msync)
	SC(madvise)
	SC(dup)
	SC(dup2)
	SC(pause)
	SC(nanosleep)
	SC(getpid)
	SC_FULL(clone)
	SC_FULL(fork)
	SC_FULL(vfork)
	SC_FULL(execve)
	SC(exit)
	SC(wait4)
	SC(kill)
	SC(uname)
	SC(fcntl)
	SC(ftruncate)
	SC(getcwd)
	SC(chdir)
	SC(mkdir)
	SC(rmdir)
	SC(unlink)
	SC(readlink)
	SC(umask)
	SC(sysinfo)
	SC(gettimeofday)
	SC(getrlimit)
	SC(getrusage)
	SC(times)
	SC(ptrace)
	SC(getuid)
	SC(getgid)
	SC(setuid)
	SC(setgid)
	SC(geteuid)
	SC(getegid)
	SC(setpgid)
	SC(getppid)
	SC(getpgrp)
	SC(setsid)
	SC(setreuid)
	SC(setregid)
	SC(getgroups)
	SC(setgroups)
	SC(setresuid)
	SC(getresuid)
	SC(setresgid)
	SC(getresgid)
	SC(getpgid)
	SC(setfsuid)
	SC(setfsgid)
	SC(getsid)
	SC(rt_sigpending)
	SC(rt_sigtimedwait)
	SC(rt_sigqueueinfo)
	SC(rt_sigsuspend)
	SC(sigaltstack)
	SC(getpriority)
	SC(setpriority)
	SC(modify_ldt)
	SC(prctl)
	SC(arch_prctl)
	SC(setrlimit)
	SC(iopl)
	SC(ioperm)
	SC(gettid)
	SC(tkill)
	SC(time)
	SC(futex)
	SC(sched_setaffinity)
	SC(sched_getaffinity)
	SC_AS(set_thread_area, enosys) /* the 64-bit ABI has none (32-bit TLS) */
	SC_AS(get_thread_area, enosys) /* likewise */
	SC(getdents64)
	SC(set_tid_address)
	SC(restart_syscall)
	SC(clock_gettime)
	SC(clock_getres)
	SC(clock_nanosleep)
	SC(exit_group)
	SC(tgkill)
	SC(waitid)
	SC(openat)
	SC(mkdirat)
	SC(newfstatat)
	SC(unlinkat)
	SC(readlinkat)
	SC(faccessat)
	SC(set_robust_list)
	SC(dup3)
	SC(pipe2)
	SC(rt_tgsigqueueinfo)
	SC(prlimit64)
	SC(getcpu)
	SC(process_vm_readv)
	SC(process_vm_writev)
	SC(getrandom)
	SC_AS(statx, enosys)           /* musl falls back to fstatat */
	SC_AS(rseq, enosys)
	SC(faccessat2)
	[EL_SYS_REGION] = sys_el_region,
	[EL_SYS_SELF_IPI] = sys_el_self_ipi,
};
#pragma GCC diagnostic pop
