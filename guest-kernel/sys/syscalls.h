/*
 * System calls: every handler has the same shape at the register level
 * (six uint64_t argument registers in, a value or -errno out) and sits in
 * one table indexed by the Linux x86-64 syscall number
 * (sys/syscall_table.c); the compat (i386) handlers sit in
 * sys/syscall_table32.c.  Handlers live with their subsystem: proc/, mm/,
 * fs/, time/ ...
 *
 * A handler is written with SYSCALL_DEFINEn (n = 0..6, Linux's names):
 *
 *	SYSCALL_DEFINE3(read, int, fd, uint64_t, buf, uint64_t, count)
 *	{
 *		... fd, buf and count, typed ...
 *	}
 *
 * which defines two functions:
 *   sys_read(a0..a5)  the register shim, syscall_fn: what the tables hold,
 *                     the asm calls and other handlers may call.  It
 *                     converts argument register i (RDI RSI RDX R10 R8 R9
 *                     on the SYSCALL path, from the frame on the slow path)
 *                     with an explicit cast to the declared type i, as
 *                     Linux's __SC_CAST does: an `int` takes the low 32 bits
 *                     sign-extended, a uint32_t the low 32 bits, a uint64_t
 *                     (a user address, a size, a 64-bit value) all of it.
 *                     Registers past n are not read.
 *   do_sys_read(...)  the typed body, always inlined into the shim (the
 *                     SYSCALL path pays nothing for the conversion).
 * What precedes the macro (static, __attribute__((noipa))) applies to the
 * shim.
 *
 * COMPAT_SYSCALL_DEFINEn(name, ...) is the same for the i386 ABI: it
 * defines sys_c32_<name> (and do_c32_<name>), whose register i is EBX ECX
 * EDX ESI EDI EBP, truncated to its low 32 bits before the cast (as
 * Linux's ia32 shims do): an `int` argument is sign-extended from 32 bits,
 * a uint64_t one zero-extended.  The compat table also holds 64-bit shims
 * where i386 passes the same values (sys/syscall_table32.c).
 *
 * Handlers that read or rewrite the whole user frame (rt_sigreturn, clone,
 * fork, vfork, execve, the compat sigreturns, ni_syscall) take it from
 * task_user_frame(current), not as an argument; the 64-bit table reaches
 * those that need it complete through their ptregs_ stub
 * (sys/syscall.h, entry_syscall.S).
 */
#ifndef EL_SYSCALLS_H
#define EL_SYSCALLS_H

#include "kernel.h"

/* The register shim's prototype (the list below; the tables' type). */
#define SYSCALL(name)                                                                    \
	long sys_##name(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, \
			uint64_t a5)

typedef long syscall_fn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* The shim's parameters: all six registers, read or not. */
#define SC_REGS                                                                                 \
	uint64_t sc_r0 __attribute__((unused)), uint64_t sc_r1 __attribute__((unused)),         \
		uint64_t sc_r2 __attribute__((unused)), uint64_t sc_r3 __attribute__((unused)), \
		uint64_t sc_r4 __attribute__((unused)), uint64_t sc_r5 __attribute__((unused))

/* The typed parameters "t0 a0, t1 a1, ..." of SYSCALL_DEFINEn's pairs. */
#define SC_PARAMS0(...)                                    void
#define SC_PARAMS1(t0, a0)                                 t0 a0
#define SC_PARAMS2(t0, a0, t1, a1)                         t0 a0, t1 a1
#define SC_PARAMS3(t0, a0, t1, a1, t2, a2)                 t0 a0, t1 a1, t2 a2
#define SC_PARAMS4(t0, a0, t1, a1, t2, a2, t3, a3)         t0 a0, t1 a1, t2 a2, t3 a3
#define SC_PARAMS5(t0, a0, t1, a1, t2, a2, t3, a3, t4, a4) t0 a0, t1 a1, t2 a2, t3 a3, t4 a4
#define SC_PARAMS6(t0, a0, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
	t0 a0, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5

/* The shim's arguments to the typed function: register i through reg(), cast to type i. */
#define SC_CASTS0(reg, ...)
#define SC_CASTS1(reg, t0, a0)                 (t0) reg(sc_r0)
#define SC_CASTS2(reg, t0, a0, t1, a1)         SC_CASTS1(reg, t0, a0), (t1)reg(sc_r1)
#define SC_CASTS3(reg, t0, a0, t1, a1, t2, a2) SC_CASTS2(reg, t0, a0, t1, a1), (t2)reg(sc_r2)
#define SC_CASTS4(reg, t0, a0, t1, a1, t2, a2, t3, a3) \
	SC_CASTS3(reg, t0, a0, t1, a1, t2, a2), (t3)reg(sc_r3)
#define SC_CASTS5(reg, t0, a0, t1, a1, t2, a2, t3, a3, t4, a4) \
	SC_CASTS4(reg, t0, a0, t1, a1, t2, a2, t3, a3), (t4)reg(sc_r4)
#define SC_CASTS6(reg, t0, a0, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
	SC_CASTS5(reg, t0, a0, t1, a1, t2, a2, t3, a3, t4, a4), (t5)reg(sc_r5)

#define SC_REG64(r) (r)
#define SC_REG32(r) ((uint32_t)(r))

/*
 * The shim's prototype first (so that a `static` or an attribute before
 * the macro lands on it), then the typed function's, the shim, and the
 * typed function's head, whose body follows the macro.
 */
#define SC_DEFINE(n, shim, typed, reg, ...)                                                 \
	long shim(SC_REGS);                                                                 \
	static inline __attribute__((always_inline)) long typed(SC_PARAMS##n(__VA_ARGS__)); \
	long shim(SC_REGS)                                                                  \
	{                                                                                   \
		return typed(SC_CASTS##n(reg, __VA_ARGS__));                                \
	}                                                                                   \
	static inline __attribute__((always_inline)) long typed(SC_PARAMS##n(__VA_ARGS__))

#define SYSCALL_DEFINEx(n, name, ...) SC_DEFINE(n, sys_##name, do_sys_##name, SC_REG64, __VA_ARGS__)
#define SYSCALL_DEFINE0(name)         SYSCALL_DEFINEx(0, name)
#define SYSCALL_DEFINE1(name, ...)    SYSCALL_DEFINEx(1, name, __VA_ARGS__)
#define SYSCALL_DEFINE2(name, ...)    SYSCALL_DEFINEx(2, name, __VA_ARGS__)
#define SYSCALL_DEFINE3(name, ...)    SYSCALL_DEFINEx(3, name, __VA_ARGS__)
#define SYSCALL_DEFINE4(name, ...)    SYSCALL_DEFINEx(4, name, __VA_ARGS__)
#define SYSCALL_DEFINE5(name, ...)    SYSCALL_DEFINEx(5, name, __VA_ARGS__)
#define SYSCALL_DEFINE6(name, ...)    SYSCALL_DEFINEx(6, name, __VA_ARGS__)

#define COMPAT_SYSCALL_DEFINEx(n, name, ...) \
	SC_DEFINE(n, sys_c32_##name, do_c32_##name, SC_REG32, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE0(name)      COMPAT_SYSCALL_DEFINEx(0, name)
#define COMPAT_SYSCALL_DEFINE1(name, ...) COMPAT_SYSCALL_DEFINEx(1, name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE2(name, ...) COMPAT_SYSCALL_DEFINEx(2, name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE3(name, ...) COMPAT_SYSCALL_DEFINEx(3, name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE4(name, ...) COMPAT_SYSCALL_DEFINEx(4, name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE5(name, ...) COMPAT_SYSCALL_DEFINEx(5, name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE6(name, ...) COMPAT_SYSCALL_DEFINEx(6, name, __VA_ARGS__)

/* time/ (clock, vDSO fallbacks) */
SYSCALL(clock_gettime);
SYSCALL(clock_getres);
SYSCALL(gettimeofday);
SYSCALL(time);
SYSCALL(getcpu);
SYSCALL(nanosleep);
SYSCALL(clock_nanosleep);
SYSCALL(getrandom);

/* fs/sys_rw.c: data */
SYSCALL(read);
SYSCALL(write);
SYSCALL(readv);
SYSCALL(writev);
SYSCALL(pread64);
SYSCALL(pwrite64);
SYSCALL(lseek);

/* fs/sys_fd.c: descriptors */
SYSCALL(ioctl);
SYSCALL(fcntl);
SYSCALL(close);
SYSCALL(dup);
SYSCALL(dup2);
SYSCALL(dup3);
SYSCALL(ftruncate);
SYSCALL(flock);

/* fs/sys_pipe.c: pipes */
SYSCALL(pipe);
SYSCALL(pipe2);

/* fs/sys_socket.c, fs/sys_sockmsg.c: AF_UNIX sockets */
SYSCALL(socket);
SYSCALL(socketpair);
SYSCALL(bind);
SYSCALL(listen);
SYSCALL(connect);
SYSCALL(accept);
SYSCALL(accept4);
SYSCALL(shutdown);
SYSCALL(getsockname);
SYSCALL(getpeername);
SYSCALL(getsockopt);
SYSCALL(setsockopt);
SYSCALL(sendto);
SYSCALL(recvfrom);
SYSCALL(sendmsg);
SYSCALL(recvmsg);

/* fs/sys_poll.c, fs/sys_select.c, fs/epoll.c: waiting on many files (fs/poll.h) */
SYSCALL(poll);
SYSCALL(ppoll);
SYSCALL(select);
SYSCALL(pselect6);
SYSCALL(epoll_create);
SYSCALL(epoll_create1);
SYSCALL(epoll_ctl);
SYSCALL(epoll_wait);
SYSCALL(epoll_pwait);
SYSCALL(epoll_pwait2);

/* fs/sys_open.c: creating, opening, removing names */
SYSCALL(open);
SYSCALL(openat);
SYSCALL(unlink);
SYSCALL(unlinkat);
SYSCALL(mkdir);
SYSCALL(mkdirat);
SYSCALL(rmdir);
SYSCALL(mknod);
SYSCALL(mknodat);

/* fs/sys_dir.c */
SYSCALL(getdents64);
SYSCALL(getcwd);
SYSCALL(chdir);

/* fs/sys_stat.c: questions about names */
SYSCALL(readlink);
SYSCALL(readlinkat);
SYSCALL(access);
SYSCALL(faccessat);
SYSCALL(faccessat2);
SYSCALL(stat);
SYSCALL(lstat);
SYSCALL(fstat);
SYSCALL(newfstatat);
SYSCALL(statx);

/* fs/sys_attr.c, fs/sys_link.c, fs/sys_size.c, fs/sys_statfs.c: attributes, names, sizes */
SYSCALL(chmod);
SYSCALL(fchmod);
SYSCALL(fchmodat);
SYSCALL(chown);
SYSCALL(fchown);
SYSCALL(lchown);
SYSCALL(fchownat);
SYSCALL(utimensat);
SYSCALL(utimes);
SYSCALL(futimesat);
SYSCALL(utime);
SYSCALL(link);
SYSCALL(linkat);
SYSCALL(symlink);
SYSCALL(symlinkat);
SYSCALL(rename);
SYSCALL(renameat);
SYSCALL(renameat2);
SYSCALL(truncate);
SYSCALL(fallocate);
SYSCALL(statfs);
SYSCALL(fstatfs);
SYSCALL(fsync);
SYSCALL(sync);

/* fs/sysv_shm.c: System V shared memory */
SYSCALL(shmget);
SYSCALL(shmat);
SYSCALL(shmdt);
SYSCALL(shmctl);

/* fs/sysv_msg.c: System V message queues */
SYSCALL(msgget);
SYSCALL(msgsnd);
SYSCALL(msgrcv);
SYSCALL(msgctl);

/* fs/sysv_sem.c: System V semaphores */
SYSCALL(semget);
SYSCALL(semop);
SYSCALL(semtimedop);
SYSCALL(semctl);

/* mm/sys_mman.c */
SYSCALL(mmap);
SYSCALL(munmap);
SYSCALL(mprotect);
SYSCALL(brk);
SYSCALL(madvise);
SYSCALL(msync);

/* mm/mremap.c, mm/process_vm.c */
SYSCALL(mremap);
SYSCALL(process_vm_readv);
SYSCALL(process_vm_writev);

/* proc/sys_proc.c */
SYSCALL(exit);
SYSCALL(exit_group);
SYSCALL(getpid);
SYSCALL(gettid);
SYSCALL(getppid);
SYSCALL(set_tid_address);
SYSCALL(set_robust_list);
SYSCALL(get_robust_list);
SYSCALL(uname);
SYSCALL(sched_yield);
SYSCALL(sched_getaffinity);
SYSCALL(umask);
SYSCALL(sysinfo);
SYSCALL(enosys);

/* proc/sys_cred.c: credentials */
SYSCALL(getuid);
SYSCALL(geteuid);
SYSCALL(getgid);
SYSCALL(getegid);
SYSCALL(getresuid);
SYSCALL(getresgid);
SYSCALL(setuid);
SYSCALL(setgid);
SYSCALL(setreuid);
SYSCALL(setregid);
SYSCALL(setresuid);
SYSCALL(setresgid);
SYSCALL(setfsuid);
SYSCALL(setfsgid);
SYSCALL(getgroups);
SYSCALL(setgroups);

/* proc/sys_rlimit.c: limits, accounting, priorities */
SYSCALL(getrlimit);
SYSCALL(setrlimit);
SYSCALL(prlimit64);
SYSCALL(getrusage);
SYSCALL(times);
SYSCALL(getpriority);
SYSCALL(setpriority);

/* proc/jobctl.c: process groups and sessions */
SYSCALL(setpgid);
SYSCALL(getpgid);
SYSCALL(getpgrp);
SYSCALL(setsid);
SYSCALL(getsid);

/* proc/fork.c, proc/wait.c, proc/futex.c */
SYSCALL(clone);
SYSCALL(fork);
SYSCALL(vfork);
SYSCALL(wait4);
SYSCALL(waitid);
SYSCALL(futex);
SYSCALL(sched_setaffinity);
SYSCALL(ptrace);
SYSCALL(execve);
SYSCALL(prctl);

/* arch/x86_64/: sys_arch.c, ldt.c, ioport.c */
SYSCALL(arch_prctl);
SYSCALL(modify_ldt);
/* arch/x86_64/tls.c: i386 numbers only (the compat table) */
SYSCALL(set_thread_area);
SYSCALL(get_thread_area);
/* proc/signal32.c: i386 numbers only (the compat table) */
SYSCALL(c32_rt_sigaction);
SYSCALL(c32_sigreturn);
SYSCALL(c32_rt_sigreturn);
/* proc/fork.c: i386 clone (the compat table) */
SYSCALL(c32_clone);
/* proc/sys_rlimit.c: i386 ugetrlimit (the compat table) */
SYSCALL(c32_ugetrlimit);
SYSCALL(iopl);
SYSCALL(ioperm);

/* proc/sys_signal.c */
SYSCALL(rt_sigaction);
SYSCALL(rt_sigprocmask);
SYSCALL(rt_sigpending);
SYSCALL(rt_sigsuspend);
SYSCALL(rt_sigtimedwait);
SYSCALL(rt_sigreturn);
SYSCALL(restart_syscall);
SYSCALL(pause);
SYSCALL(sigaltstack);
SYSCALL(kill);
SYSCALL(tkill);
SYSCALL(tgkill);
SYSCALL(rt_sigqueueinfo);
SYSCALL(rt_tgsigqueueinfo);

/* sys/syscall.c: every number without a handler (-ENOSYS, counted as unknown) */
SYSCALL(ni_syscall);

/* sys/region.c: EL_SYS_REGION (abi.h) */
SYSCALL(el_region);

/* arch/x86_64/self_ipi.c: EL_SYS_SELF_IPI (abi.h) */
SYSCALL(el_self_ipi);

#endif
