/*
 * Syscall numbers: Linux x86-64's, one for each call the guest kernel's
 * table has (guest-kernel/sys/syscall_table.c), including those it answers
 * with -ENOSYS on purpose.  Preprocessor defines only, so that C and .S
 * (the vsyscall page) share them; the numbers entrylab adds for itself
 * (EL_SYS_REGION, EL_SYS_SELF_IPI) are in abi.h.
 */
#ifndef ENTRYLAB_SYSCALL_NR_H
#define ENTRYLAB_SYSCALL_NR_H

#define EL_NR_read                   0
#define EL_NR_write                  1
#define EL_NR_open                   2
#define EL_NR_close                  3
#define EL_NR_stat                   4
#define EL_NR_fstat                  5
#define EL_NR_lstat                  6
#define EL_NR_poll                   7
#define EL_NR_lseek                  8
#define EL_NR_mmap                   9
#define EL_NR_mprotect               10
#define EL_NR_munmap                 11
#define EL_NR_brk                    12
#define EL_NR_rt_sigaction           13
#define EL_NR_rt_sigprocmask         14
#define EL_NR_rt_sigreturn           15
#define EL_NR_ioctl                  16
#define EL_NR_pread64                17
#define EL_NR_pwrite64               18
#define EL_NR_readv                  19
#define EL_NR_writev                 20
#define EL_NR_access                 21
#define EL_NR_pipe                   22
#define EL_NR_select                 23
#define EL_NR_sched_yield            24
#define EL_NR_mremap                 25
#define EL_NR_msync                  26
#define EL_NR_madvise                28
#define EL_NR_dup                    32
#define EL_NR_dup2                   33
#define EL_NR_pause                  34
#define EL_NR_nanosleep              35
#define EL_NR_getpid                 39
#define EL_NR_clone                  56
#define EL_NR_fork                   57
#define EL_NR_vfork                  58
#define EL_NR_execve                 59
#define EL_NR_exit                   60
#define EL_NR_wait4                  61
#define EL_NR_kill                   62
#define EL_NR_uname                  63
#define EL_NR_fcntl                  72
#define EL_NR_ftruncate              77
#define EL_NR_getcwd                 79
#define EL_NR_chdir                  80
#define EL_NR_mkdir                  83
#define EL_NR_rmdir                  84
#define EL_NR_unlink                 87
#define EL_NR_readlink               89
#define EL_NR_umask                  95
#define EL_NR_gettimeofday           96
#define EL_NR_getrlimit              97
#define EL_NR_sysinfo                99
#define EL_NR_ptrace                 101
#define EL_NR_getuid                 102
#define EL_NR_getgid                 104
#define EL_NR_geteuid                107
#define EL_NR_getegid                108
#define EL_NR_getppid                110
#define EL_NR_rt_sigpending          127
#define EL_NR_rt_sigtimedwait        128
#define EL_NR_rt_sigsuspend          130
#define EL_NR_sigaltstack            131
#define EL_NR_mknod                  133
#define EL_NR_modify_ldt             154
#define EL_NR_prctl                  157
#define EL_NR_arch_prctl             158
#define EL_NR_iopl                   172
#define EL_NR_ioperm                 173
#define EL_NR_gettid                 186
#define EL_NR_tkill                  200
#define EL_NR_time                   201
#define EL_NR_futex                  202
#define EL_NR_sched_setaffinity      203
#define EL_NR_sched_getaffinity      204
#define EL_NR_set_thread_area        205
#define EL_NR_get_thread_area        211
#define EL_NR_epoll_create           213
#define EL_NR_getdents64             217
#define EL_NR_set_tid_address        218
#define EL_NR_restart_syscall        219
#define EL_NR_clock_gettime          228
#define EL_NR_clock_getres           229
#define EL_NR_clock_nanosleep        230
#define EL_NR_exit_group             231
#define EL_NR_epoll_wait             232
#define EL_NR_epoll_ctl              233
#define EL_NR_tgkill                 234
#define EL_NR_waitid                 247
#define EL_NR_openat                 257
#define EL_NR_mkdirat                258
#define EL_NR_mknodat                259
#define EL_NR_newfstatat             262
#define EL_NR_unlinkat               263
#define EL_NR_readlinkat             267
#define EL_NR_faccessat              269
#define EL_NR_pselect6               270
#define EL_NR_ppoll                  271
#define EL_NR_set_robust_list        273
#define EL_NR_epoll_pwait            281
#define EL_NR_epoll_create1          291
#define EL_NR_dup3                   292
#define EL_NR_pipe2                  293
#define EL_NR_prlimit64              302
#define EL_NR_getcpu                 309
#define EL_NR_process_vm_readv       310
#define EL_NR_process_vm_writev      311
#define EL_NR_getrandom              318
#define EL_NR_statx                  332
#define EL_NR_rseq                   334
#define EL_NR_faccessat2             439
#define EL_NR_epoll_pwait2           441

#endif
