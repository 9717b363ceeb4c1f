/*
 * wait4's and waitid's options word as Linux has it (include/uapi/linux/wait.h):
 * read by wait.c, and by jobctl.c for the stops and continues it reports.
 */
#ifndef EL_PROC_WAIT_FLAGS_H
#define EL_PROC_WAIT_FLAGS_H

#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002
#define WSTOPPED WUNTRACED
#define WEXITED 0x00000004
#define WCONTINUED 0x00000008
#define WNOWAIT 0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000

#endif
