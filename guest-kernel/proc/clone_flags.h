/*
 * clone's flags word as Linux has it (include/uapi/linux/sched.h): the
 * exit signal in the low byte (CSIGNAL), the sharing and set-up flags above
 * it.  Which of them this kernel implements is fork.c's CLONE_SUPPORTED.
 */
#ifndef EL_PROC_CLONE_FLAGS_H
#define EL_PROC_CLONE_FLAGS_H

#define CSIGNAL 0x000000ffull
#define CLONE_VM 0x00000100ull
#define CLONE_FS 0x00000200ull
#define CLONE_FILES 0x00000400ull
#define CLONE_SIGHAND 0x00000800ull
#define CLONE_PIDFD 0x00001000ull
#define CLONE_PTRACE 0x00002000ull
#define CLONE_VFORK 0x00004000ull
#define CLONE_PARENT 0x00008000ull
#define CLONE_THREAD 0x00010000ull
#define CLONE_NEWNS 0x00020000ull
#define CLONE_SYSVSEM 0x00040000ull
#define CLONE_SETTLS 0x00080000ull
#define CLONE_PARENT_SETTID 0x00100000ull
#define CLONE_CHILD_CLEARTID 0x00200000ull
#define CLONE_DETACHED 0x00400000ull
#define CLONE_UNTRACED 0x00800000ull
#define CLONE_CHILD_SETTID 0x01000000ull
#define CLONE_IO 0x80000000ull

#endif
