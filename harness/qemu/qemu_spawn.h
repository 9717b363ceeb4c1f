/*
 * The one way entrylab starts QEMU (the trace's TCG run and the nested
 * runner's VM): the executable found in PATH before fork, so the child only
 * calls async-signal-safe functions; descriptors put where QEMU expects them;
 * stdin from /dev/null; PR_SET_PDEATHSIG, so a QEMU never outlives an
 * entrylab that was killed; and a failed exec told apart from QEMU failing
 * (a close-on-exec pipe carries the child's errno).
 */
#ifndef EL_QEMU_SPAWN_H
#define EL_QEMU_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* In the child, descriptor from becomes descriptor to (inherited across exec). */
struct qemu_fd_map {
	int from, to;
};

#define QEMU_SPAWN_MAX_FDS 12

/*
 * Starts argv (argv[0] a path, or a name searched in PATH) with fds in
 * place.  0 and *pid; or -1 with "cannot run ...: why" in err, and
 * *not_found set when there is no such executable.
 */
int qemu_spawn(const char *const argv[], const struct qemu_fd_map *fds, unsigned nfds,
	       pid_t *pid, bool *not_found, char *err, size_t errlen);

/*
 * The same with flags.  QEMU_SPAWN_DETACH: QEMU outlives us (no
 * PDEATHSIG) in a session of its own, so neither our death nor a Ctrl-C
 * at our terminal stops it (the nested runner's warm VMs).  Either way no
 * descriptor but the mapped ones and 0 reaches QEMU.
 */
#define QEMU_SPAWN_DETACH 1u
int qemu_spawn_ex(const char *const argv[], const struct qemu_fd_map *fds, unsigned nfds,
		  unsigned flags, pid_t *pid, bool *not_found, char *err, size_t errlen);

/* execvp's PATH search: the executable's path in out; false if none is executable. */
bool qemu_find_exe(const char *name, char *out, size_t cap);

#endif
