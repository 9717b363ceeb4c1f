/*
 * prctl(2): the options programs and Linux's selftests use on a single
 * root user: the thread name, the parent-death signal, dumpable and
 * no_new_privs (recorded, nothing here acts on them), seccomp off.  Any
 * other option is EINVAL, which is what Linux answers for options it does
 * not know.
 */
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define PR_GET_SECCOMP 21
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_NO_NEW_PRIVS 39

/* prctl(option, arg2, arg3, arg4, arg5) */
SYSCALL_DEFINE5(prctl, uint64_t, option, uint64_t, arg2, uint64_t, arg3, uint64_t, arg4, uint64_t,
		arg5)
{
	char name[16];
	int v;

	switch (option) {
	case PR_SET_PDEATHSIG:
		if (arg2 > 64)
			return -EINVAL;
		current->pdeathsig = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		v = current->pdeathsig;
		return copy_to_user(arg2, &v, sizeof(v));
	case PR_GET_DUMPABLE:
		return current->undumpable ? 0 : 1;
	case PR_SET_DUMPABLE:
		if (arg2 > 1)
			return -EINVAL;
		current->undumpable = arg2 == 0;
		return 0;
	case PR_SET_NAME:
		if (strncpy_from_user(name, arg2, sizeof(name)) < 0)
			return -EFAULT;
		name[sizeof(name) - 1] = 0;
		strlcpy(current->comm, name, sizeof(current->comm));
		return 0;
	case PR_GET_NAME:
		memset(name, 0, sizeof(name));
		strlcpy(name, current->comm, sizeof(name));
		return copy_to_user(arg2, name, sizeof(name));
	case PR_GET_SECCOMP:
		return 0;
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		current->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return current->no_new_privs;
	default:
		return -EINVAL;
	}
}
