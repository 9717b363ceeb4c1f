/*
 * procfs inside: the text files are snapshots, generated whole at open into
 * a buffer the open file keeps (Linux's seq_file for small files), so read,
 * lseek and pread see one text; maps and smaps, which can be long, are
 * generated per read a block at a time (procfs_maps.c).
 *
 * A node under /proc/PID (or /proc/PID/task/TID) belongs to the nearest
 * ancestor with a numeric name; its contents come from that task at open.
 */
#ifndef EL_FS_PROCFS_PRIV_H
#define EL_FS_PROCFS_PRIV_H

#include "fs/file.h"
#include "kernel.h"

struct task;

/* A text being generated: bytes past cap are dropped (len still counts them). */
struct pbuf {
	char *p;
	size_t len, cap;
};
void pb_printf(struct pbuf *b, const char *fmt, ...) __printf(2, 3);
void pb_bytes(struct pbuf *b, const void *data, size_t len);

/* Writes node's text about t (the node's task, or the caller for system files): 0 or -errno. */
typedef int proc_gen(struct pbuf *b, struct task *t, const struct inode *node);

int proc_snapshot_open(struct file *f, proc_gen *gen);
long proc_snapshot_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off);
void proc_snapshot_release(struct file *f);

#define PROC_SNAPSHOT(storage, ops, gen)                                       \
	static int ops##_open(struct file *f)                                  \
	{                                                                      \
		return proc_snapshot_open(f, gen);                             \
	}                                                                      \
	storage const struct file_ops ops = {.open = ops##_open,               \
					     .read = proc_snapshot_read,       \
					     .release = proc_snapshot_release, \
					     .seekable = true}

/* The pid a node under /proc belongs to (see above), 0 for the system files. */
int proc_node_pid(const struct inode *n);
/* Its live task (zombies included), NULL once it is gone. */
struct task *proc_node_task(const struct inode *n);

/* Per-process files (procfs_pid.c, procfs_maps.c), links and fd/ (procfs_fd.c). */
extern const struct file_ops proc_cmdline_ops, proc_environ_ops, proc_comm_ops, proc_stat_ops,
	proc_statm_ops, proc_status_ops, proc_mounts_ops, proc_maps_ops, proc_smaps_ops;
extern const struct file_ops proc_exe_ops, proc_cwd_ops, proc_root_ops, proc_fd_dir_ops,
	proc_fdinfo_dir_ops;
/* System files (procfs_sys.c): creates them in /proc. */
void procfs_sys_init(struct inode *proc);

/* A new node in dir with ops, or NULL when out of memory. */
struct inode *proc_create(struct inode *dir, const char *name, size_t len, uint32_t mode,
			  const struct file_ops *ops);
/* dir's child named by the number n, created with mode and ops when missing; NULL: no memory. */
struct inode *proc_num_child(struct inode *dir, unsigned long n, uint32_t mode,
			     const struct file_ops *ops);
/* name[0..len) as a decimal number without sign or leading zero, else -1. */
long proc_parse_num(const char *name, size_t len);

#endif
