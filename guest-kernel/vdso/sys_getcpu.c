/*
 * getcpu(2), the syscall twin of __vdso_getcpu: one vCPU, one node.
 */
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

/* getcpu(unsigned *cpu, unsigned *node, struct getcpu_cache *unused): NULL pointers are skipped. */
SYSCALL(getcpu)
{
	const uint32_t cpu = 0, node = 0;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && copy_to_user(a0, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (a1 && copy_to_user(a1, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}
