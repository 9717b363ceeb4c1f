/*
 * vDSO getcpu: RDPID where the CPU has it (the kernel put node << 12 | cpu
 * into TSC_AUX), else the values the kernel wrote into the vvar page (one
 * vCPU: they never change).
 */
#include "vdso/vdso_user.h"

#define VGETCPU_CPU_BITS 12

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused);

int __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused)
{
	unsigned c, n;

	(void)unused;
	if (vvar_data.getcpu_mode == VGETCPU_RDPID) {
		uint64_t p;

		__asm__ __volatile__("rdpid %0" : "=r"(p));
		c = (unsigned)p & ((1u << VGETCPU_CPU_BITS) - 1);
		n = (unsigned)(p >> VGETCPU_CPU_BITS);
	} else {
		c = vvar_data.cpu;
		n = vvar_data.node;
	}
	if (cpu)
		*cpu = c;
	if (node)
		*node = n;
	return 0;
}

int getcpu(unsigned *cpu, unsigned *node, void *unused)
	__attribute__((weak, alias("__vdso_getcpu")));
