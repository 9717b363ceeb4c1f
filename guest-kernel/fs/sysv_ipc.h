/*
 * What System V shared memory, message queues and semaphores share
 * (sysv_shm.c, sysv_msg.c, sysv_sem.c): the ipc(5) flags and commands,
 * struct ipc64_perm as x86-64 Linux lays it out, and the seconds their
 * times are in.  Each kind keeps its own table of ids: an id is
 * seq * TABLE_SIZE + slot, so a removed id is never found again.
 */
#ifndef EL_FS_SYSV_IPC_H
#define EL_FS_SYSV_IPC_H

#include "kernel.h"
#include "time/time.h"

#define IPC_PRIVATE 0
#define IPC_CREAT 01000
#define IPC_EXCL 02000
#define IPC_NOWAIT 04000
#define IPC_RMID 0
#define IPC_SET 1
#define IPC_STAT 2
#define IPC_INFO 3
#define IPC_64 0x100 /* or-ed into the command by libc: the 64-bit layouts, the only ones here */

struct ipc_perm_user {
	int32_t key;
	uint32_t uid, gid, cuid, cgid, mode;
	uint16_t seq, pad;
	uint64_t unused[2];
};
_Static_assert(sizeof(struct ipc_perm_user) == 48, "struct ipc64_perm of x86-64 Linux");

/* CLOCK_REALTIME in whole seconds: the *_time fields. */
static inline int64_t sysv_now_sec(void)
{
	return (int64_t)(time_realtime_ns() / 1000000000ull);
}

#endif
