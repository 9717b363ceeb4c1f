/*
 * The kernel's name as uname(2) and /proc (version, sys/kernel/ostype,
 * osrelease) report it: one place for both.
 */
#ifndef EL_PROC_UTS_H
#define EL_PROC_UTS_H

#define UTS_SYSNAME  "Linux"
#define UTS_NODENAME "entrylab"
#define UTS_RELEASE  "6.1.0-entrylab"
#define UTS_VERSION  "#1 SMP entrylab"

#endif
