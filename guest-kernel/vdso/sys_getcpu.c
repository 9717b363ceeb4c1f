/*
 * getcpu(2), the syscall twin of __vdso_getcpu: one vCPU, one node.
 */
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

/* getcpu(unsigned *cpu, unsigned *node, struct getcpu_cache *unused): NULL pointers are skipped. */
SYSCALL_DEFINE2(getcpu, uint64_t, ucpu, uint64_t, unode)
{
	const uint32_t cpu = 0, node = 0;

	if (ucpu && copy_to_user(ucpu, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (unode && copy_to_user(unode, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}
