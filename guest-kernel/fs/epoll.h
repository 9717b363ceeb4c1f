/*
 * epoll (epoll.c): an epoll instance is an open file holding entries
 * (file, fd, events, data), as Linux's epoll(7): level-triggered by
 * default, EPOLLET reports a file once per event it notifies (poll.h),
 * EPOLLONESHOT disables an entry after its report until EPOLL_CTL_MOD.
 * An entry goes away with the last close of its file (not of its fd, as
 * Linux).  The epoll file is itself pollable (POLLIN: an entry would be
 * reported).
 */
#ifndef EL_FS_EPOLL_H
#define EL_FS_EPOLL_H

#include "fs/file.h"

/* poll_notify_key's side: the entries of files whose priv is key (NULL: all) saw events. */
void epoll_event_of(const void *key, uint32_t events);

/* f's last close: every entry on f goes away. */
void epoll_file_gone(struct file *f);

#endif
