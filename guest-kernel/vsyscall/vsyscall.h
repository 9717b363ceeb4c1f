/*
 * The legacy vsyscall page at 0xffffffffff600000 (inside vdso/): its
 * mapping per mode (vsyscall.c) and the emulation of calls into it from the
 * page-fault handler (vsyscall_emulate.c).
 */
#ifndef EL_VSYSCALL_H
#define EL_VSYSCALL_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

#define VSYSCALL_ADDR 0xffffffffff600000ull

/*
 * Sets up the page for the requested mode (knobs.h EL_VSYSCALL_*) and
 * returns the value for the record: the mode in effect, or
 * EL_CONFIG_UNAVAILABLE (emulate without NX, which runs as xonly).  After
 * paging_init(), before the first address space is created from the
 * kernel's top-level table.
 */
uint8_t vsyscall_init(uint8_t requested);

/* The mode in effect (never unavailable): vsyscall_init() sets it, the page fault reads it. */
extern uint8_t vsyscall_mode;

static inline uint8_t vsyscall_effective_mode(void)
{
	return vsyscall_mode;
}

enum vsyscall_verdict {
	VSYSCALL_NOT_MINE, /* not a user fault on the vsyscall page */
	VSYSCALL_EMULATED, /* the call was emulated: the frame returns to the caller */
	VSYSCALL_DENIED,   /* a console line says why; the caller kills with SIGSEGV */
};

/*
 * From the page-fault handler, for a fault at addr with tf's error code:
 * emulates a call to one of the three entry points in emulate and xonly
 * modes as a `ret` from it would leave the caller (RAX = result, RIP = the
 * return address, RSP += 8).
 */
enum vsyscall_verdict vsyscall_fault(struct trap_frame *tf, uint64_t addr);

#endif
