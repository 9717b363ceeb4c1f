/*
 * entrycheck: entry and exit paths regcheck cannot reach.
 *   sysret-fallback  page faults taken with the stack right below the red
 *                    zone read-only, inaccessible, and writable: with
 *                    entry.ret=sysret the first two cannot hold the saved
 *                    RCX/R11/RIP and must fall back to IRET, the third takes
 *                    SYSRET; RCX, R11, RBX and RSP must come back unchanged in
 *                    all three (exit 0).
 *   single-step      sets TF: the #DB after the next instruction arrives
 *                    through the paranoid (IST) entry and, with no handler,
 *                    ends the process as SIGTRAP does (status 133).
 * Runs on Linux too (same results).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "array_size.h"

struct regs {
	uint64_t rcx, r11, rbx, rsp;
};

/*
 * Loads known values, points RSP 64 bytes into `stack` (so RSP - 128 - 24
 * lies in the page below), reads a never-touched page (a page fault), and
 * stores what came back.
 */
static void fault_with_stack(uint8_t *stack, const volatile uint64_t *fresh, struct regs *in,
			     struct regs *out)
{
	__asm__ __volatile__("movq	%%rsp, %%r12\n\t"
			     "movq	%[st], %%rsp\n\t"
			     "movq	%%rsp, 24(%[in])\n\t"
			     "movq	$0x1234, %%rcx\n\t"
			     "movq	$0x5678, %%r11\n\t"
			     "movq	$0x9abc, %%rbx\n\t"
			     "movq	(%[f]), %%rax\n\t"
			     "movq	%%rcx, 0(%[out])\n\t"
			     "movq	%%r11, 8(%[out])\n\t"
			     "movq	%%rbx, 16(%[out])\n\t"
			     "movq	%%rsp, 24(%[out])\n\t"
			     "movq	%%r12, %%rsp\n\t"
			     :
			     : [st] "r"(stack), [f] "r"(fresh), [in] "r"(in), [out] "r"(out)
			     : "rax", "rcx", "r11", "rbx", "r12", "memory");
	in->rcx = 0x1234;
	in->r11 = 0x5678;
	in->rbx = 0x9abc;
}

static int sysret_fallback(void)
{
	static const struct {
		int prot;
		const char *name;
	} below[] = {
		{PROT_READ, "read-only"}, {PROT_NONE, "inaccessible"},
		{PROT_READ | PROT_WRITE, "writable"},
	};
	int failed = 0;

	for (size_t i = 0; i < EL_ARRAY_SIZE(below); i++) {
		uint8_t *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t *fresh = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct regs in, out;

		if (two == MAP_FAILED || fresh == MAP_FAILED) {
			perror("entrycheck: mmap");
			return 1;
		}
		two[4096] = 1;
		if (mprotect(two, 4096, below[i].prot)) {
			perror("entrycheck: mprotect");
			return 1;
		}
		fault_with_stack(two + 4096 + 64, fresh, &in, &out);
		if (memcmp(&in, &out, sizeof(in))) {
			printf("FAIL: entrycheck.sysret_fallback: stack below the red zone %s: "
			       "rcx %lx r11 %lx rbx %lx rsp %lx, expected %lx %lx %lx %lx\n",
			       below[i].name, out.rcx, out.r11, out.rbx, out.rsp, in.rcx, in.r11,
			       in.rbx, in.rsp);
			failed = 1;
		}
		munmap(two, 8192);
		munmap(fresh, 4096);
	}
	if (!failed)
		printf("PASS: entrycheck.sysret_fallback\n");
	return failed;
}

static int single_step(void)
{
	printf("entrycheck: setting TF: the process must end with SIGTRAP (status 133)\n");
	fflush(stdout);
	__asm__ __volatile__("pushfq\n\t"
			     "orq	$0x100, (%%rsp)\n\t"
			     "popfq\n\t"
			     "nop\n\t"
			     "nop" ::: "memory", "cc");
	printf("FAIL: entrycheck.single_step: survived TF\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "sysret-fallback"))
		return sysret_fallback();
	if (argc == 2 && !strcmp(argv[1], "single-step"))
		return single_step();
	fprintf(stderr, "usage: entrycheck sysret-fallback|single-step\n");
	return 2;
}
