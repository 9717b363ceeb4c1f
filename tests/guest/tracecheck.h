/*
 * tracecheck: measured regions of exactly known length for `entrylab trace`
 * (tests/kvm/test_trace_exact.c).  Each routine in tracecheck_asm.S makes
 * the region's BEGIN and END syscalls itself, so the user instructions
 * inside the window are only the ones written there:
 *   tc_loop(n)   n iterations of dec/jnz:                  2n + 4
 *   tc_cross(n)  n iterations of four instructions, the second of which
 *                crosses a 4 KiB page boundary and follows one that ends
 *                3 bytes before it (QEMU translates it as a phantom):  4n + 6
 *   tc_rewrite(code)  calls code ("movl $1, %eax; ret"), rewrites the
 *                immediate to 2, calls it again: 10, and the listing must
 *                show both versions at the one address
 * (the window's user part starts at the instruction after BEGIN's SYSCALL
 * and ends with END's SYSCALL, which completes inside it).
 * The syscall numbers, plain for the assembler, are checked against
 * include/entrylab/abi.h in tracecheck.c.
 */
#ifndef EL_TRACECHECK_H
#define EL_TRACECHECK_H

#define TC_SYS_REGION 1000
#define TC_REGION_BEGIN 1
#define TC_REGION_END 2
/* include/entrylab/linux_init.h EL_REGION_SITES_SECTION, bare for .pushsection. */
#define TC_REGION_SITES el_region_sites

#define TC_LOOP_USER(n) (2 * (n) + 4)
#define TC_CROSS_USER(n) (4 * (n) + 6)
#define TC_REWRITE_USER 10

#ifndef __ASSEMBLER__
long tc_loop(unsigned long n);
long tc_cross(unsigned long n);
long tc_rewrite(void *code);
#endif

#endif
