/*
 * System calls: every handler has the same shape (six raw argument
 * registers in, a value or -errno out) and sits in one table indexed by the
 * Linux x86-64 syscall number (sys/syscall_table.c).  Handlers live with
 * their subsystem: proc/, mm/, fs/, time/ ...
 */
#ifndef EL_SYSCALLS_H
#define EL_SYSCALLS_H

#include "kernel.h"

#define SYSCALL(name)                                                                      \
	long sys_##name(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,   \
			uint64_t a5)

typedef long syscall_fn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

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
