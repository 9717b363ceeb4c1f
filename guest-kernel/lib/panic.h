/*
 * Ending the VM: the exit port (abi.h) and panic().
 */
#ifndef EL_PANIC_H
#define EL_PANIC_H

#include "kernel.h"

/*
 * 32-bit OUT of value to EL_PORT_EXIT; without the VMM first the EXIT frame
 * on COM1 (drained), then Bochs's shutdown port.  Halts if nobody listens.
 */
__noreturn void machine_exit(uint32_t value);

/* Prints "kernel panic: ..." and exits with EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE. */
__noreturn void panic(const char *fmt, ...) __printf(1, 2);

#endif
