/*
 * Syscall numbers: Linux i386's (arch/x86/entry/syscalls/syscall_32.tbl),
 * one for each call the guest kernel's compat table has
 * (guest-kernel/sys/syscall_table32.c), which int $0x80, compat SYSCALL and
 * SYSENTER index (entry_compat.S).  Preprocessor defines only, so that C
 * and .S (the vdso32 page, test programs) share them.  The 64-bit numbers
 * are in syscall_nr.h; the two sets overlap in value, never in meaning.
 */
#ifndef ENTRYLAB_SYSCALL_NR32_H
#define ENTRYLAB_SYSCALL_NR32_H

#define EL_NR32_restart_syscall      0
#define EL_NR32_exit                 1
#define EL_NR32_fork                 2
#define EL_NR32_read                 3
#define EL_NR32_write                4
#define EL_NR32_open                 5
#define EL_NR32_close                6
#define EL_NR32_waitpid              7
#define EL_NR32_link                 9
#define EL_NR32_unlink               10
#define EL_NR32_execve               11
#define EL_NR32_chdir                12
#define EL_NR32_time                 13
#define EL_NR32_mknod                14
#define EL_NR32_chmod                15
#define EL_NR32_lseek                19
#define EL_NR32_getpid               20
#define EL_NR32_access               33
#define EL_NR32_sync                 36
#define EL_NR32_kill                 37
#define EL_NR32_rename               38
#define EL_NR32_mkdir                39
#define EL_NR32_rmdir                40
#define EL_NR32_dup                  41
#define EL_NR32_pipe                 42
#define EL_NR32_brk                  45
#define EL_NR32_ioctl                54
#define EL_NR32_fcntl                55
#define EL_NR32_setpgid              57
#define EL_NR32_umask                60
#define EL_NR32_dup2                 63
#define EL_NR32_getppid              64
#define EL_NR32_getpgrp              65
#define EL_NR32_setsid               66
#define EL_NR32_gettimeofday         78
#define EL_NR32_symlink              83
#define EL_NR32_readlink             85
#define EL_NR32_mmap                 90 /* old_mmap: one pointer to six u32 */
#define EL_NR32_munmap               91
#define EL_NR32_fchmod               94
#define EL_NR32_getpriority          96
#define EL_NR32_setpriority          97
#define EL_NR32_wait4                114
#define EL_NR32_fsync                118
#define EL_NR32_uname                122
#define EL_NR32_modify_ldt           123
#define EL_NR32_mprotect             125
#define EL_NR32_getpgid              132
#define EL_NR32_llseek               140 /* _llseek */
#define EL_NR32_flock                143
#define EL_NR32_getsid               147
#define EL_NR32_sched_yield          158
#define EL_NR32_nanosleep            162
#define EL_NR32_poll                 168
#define EL_NR32_rt_sigprocmask       175
#define EL_NR32_rt_sigpending        176
#define EL_NR32_pread64              180
#define EL_NR32_pwrite64             181
#define EL_NR32_getcwd               183
#define EL_NR32_vm86old              113
#define EL_NR32_vm86                 166
#define EL_NR32_vfork                190
#define EL_NR32_mmap2                192
#define EL_NR32_truncate64           193
#define EL_NR32_ftruncate64          194
#define EL_NR32_lchown32             198
#define EL_NR32_getuid32             199
#define EL_NR32_getgid32             200
#define EL_NR32_geteuid32            201
#define EL_NR32_getegid32            202
#define EL_NR32_setreuid32           203
#define EL_NR32_setregid32           204
#define EL_NR32_fchown32             207
#define EL_NR32_setresuid32          208
#define EL_NR32_getresuid32          209
#define EL_NR32_setresgid32          210
#define EL_NR32_getresgid32          211
#define EL_NR32_chown32              212
#define EL_NR32_setuid32             213
#define EL_NR32_setgid32             214
#define EL_NR32_madvise              219
#define EL_NR32_getdents64           220
#define EL_NR32_fcntl64              221
#define EL_NR32_gettid               224
#define EL_NR32_tkill                238
#define EL_NR32_sched_getaffinity    242
#define EL_NR32_exit_group           252
#define EL_NR32_set_tid_address      258
#define EL_NR32_tgkill               270
#define EL_NR32_openat               295
#define EL_NR32_mkdirat              296
#define EL_NR32_mknodat              297
#define EL_NR32_fchownat             298
#define EL_NR32_unlinkat             301
#define EL_NR32_renameat             302
#define EL_NR32_linkat               303
#define EL_NR32_symlinkat            304
#define EL_NR32_readlinkat           305
#define EL_NR32_fchmodat             306
#define EL_NR32_faccessat            307
#define EL_NR32_dup3                 330
#define EL_NR32_pipe2                331
#define EL_NR32_prlimit64            340
#define EL_NR32_renameat2            353
#define EL_NR32_getrandom            355
#define EL_NR32_socket               359
#define EL_NR32_socketpair           360
#define EL_NR32_bind                 361
#define EL_NR32_connect              362
#define EL_NR32_listen               363
#define EL_NR32_shutdown             373
#define EL_NR32_statx                383
#define EL_NR32_clock_gettime64      403
#define EL_NR32_clock_getres_time64  406
#define EL_NR32_clock_nanosleep_time64 407
#define EL_NR32_utimensat_time64     412
#define EL_NR32_futex_time64         422
#define EL_NR32_faccessat2           439

/* The compat process's own calls (i386 slice: arch/x86_64/tls.c, proc/signal32.c). */
#define EL_NR32_sigreturn            119
#define EL_NR32_clone                120
#define EL_NR32_rt_sigreturn         173
#define EL_NR32_rt_sigaction         174
#define EL_NR32_ugetrlimit           191
#define EL_NR32_set_thread_area      243
#define EL_NR32_get_thread_area      244
#define EL_NR32_set_robust_list      311
#define EL_NR32_rseq                 386

#endif
