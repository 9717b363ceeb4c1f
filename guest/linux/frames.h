/*
 * Framed lines on COM1 (include/entrylab/serial_frame.h), encoded by the
 * encoder entrylab's kernel uses (guest-kernel/lib/serial_frame.c), and the
 * way out: the EXIT frame, then the exit port.
 */
#ifndef LINIT_FRAMES_H
#define LINIT_FRAMES_H

#include <stddef.h>
#include <stdint.h>

/* One frame; the payload at most EL_FRAME_TEXT_MAX bytes.  0, or -1 if it does not fit. */
int linit_frame(const char *kind, const void *payload, size_t len);

/*
 * The end: the EXIT frame with value, the UART drained, the 32-bit OUT to
 * EL_PORT_EXIT.  Never returns: should the port not end the VM, /init asks
 * Linux to power off, then waits forever (returning would panic Linux).
 */
__attribute__((noreturn)) void linit_exit(uint32_t value);

/*
 * /init failed: says why on COM1 ("entrylab /init: ..." on a line of its
 * own) and ends with EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE.
 */
__attribute__((noreturn, format(printf, 1, 2))) void linit_fail(const char *fmt, ...);

#endif
