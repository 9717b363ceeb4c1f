/*
 * unixcheck: AF_UNIX sockets as Linux has them (unix(7)); the areas, one
 * file each: unixcheck_main.c (socket, socketpair, options, stream data),
 * unixcheck_conn.c (names, bind, listen, connect, accept),
 * unixcheck_msg.c (datagrams, seqpacket, sendmsg/recvmsg, SCM_RIGHTS),
 * unixcheck_block.c (blocking, signals, shutdown and close).
 * Runs on a Linux host too.
 */
#ifndef EL_UNIXCHECK_H
#define EL_UNIXCHECK_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "check.h"

/* A sockaddr_un for path (a leading '@' makes it abstract): its length. */
socklen_t ux_addr(struct sockaddr_un *a, const char *path);
void ux_sleep_ms(long ms);
/* The wait status of pid, or -1. */
int ux_wait(pid_t pid);
/* True when SIGPIPE is pending for this thread (it is blocked), consuming it. */
int ux_sigpipe_pending(void);

void check_basics(void);
void check_stream_data(void);
void check_options(void);
void check_names(void);
void check_connect(void);
void check_backlog(void);
void check_dgram(void);
void check_seqpacket(void);
void check_msg(void);
void check_rights(void);
void check_blocking(void);
void check_signals(void);
void check_timeouts(void);
void check_close(void);

#endif
