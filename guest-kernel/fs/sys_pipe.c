/*
 * pipe(2) and pipe2(2): the two ends of a new pipe (pipe.h) on the two
 * lowest free descriptors, read end first, as Linux installs them.
 */
#include "fs/pipe.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

static long do_pipe2(uint64_t ufds, uint64_t flags)
{
	struct fd_table *t = &current->files->t;
	struct file *rd, *wr;
	int fds[2], err;

	/* O_DIRECT (packet mode) and O_NOTIFICATION_PIPE are not implemented: refused, not ignored. */
	if (flags & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = pipe_create((uint32_t)flags, &rd, &wr);
	if (err)
		return err;
	fds[0] = fd_install(t, rd, 0, flags & O_CLOEXEC);
	if (fds[0] < 0) {
		file_put(rd);
		file_put(wr);
		return fds[0];
	}
	fds[1] = fd_install(t, wr, 0, flags & O_CLOEXEC);
	if (fds[1] < 0) {
		fd_close(t, fds[0]);
		file_put(wr);
		return fds[1];
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		fd_close(t, fds[0]);
		fd_close(t, fds[1]);
		return -EFAULT;
	}
	return 0;
}

SYSCALL_DEFINE1(pipe, uint64_t, fildes)
{
	return do_pipe2(fildes, 0);
}

SYSCALL_DEFINE2(pipe2, uint64_t, fildes, uint64_t, flags)
{
	return do_pipe2(fildes, flags);
}
