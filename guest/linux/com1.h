/*
 * COM1 and the exit port by port I/O (ioperm), below Linux's tty layer:
 * what /init tells the host goes out byte by byte, each after the UART
 * says its holding register is empty, as entrylab's kernel writes frames
 * (guest-kernel/lib/console.c).
 */
#ifndef LINIT_COM1_H
#define LINIT_COM1_H

#include <stddef.h>
#include <stdint.h>

/* ioperm for COM1's eight ports and the exit port's four.  0, or -1 (errno). */
int linit_com1_open(void);

/* Did linit_com1_open succeed?  Without it no port may be touched. */
int linit_com1_usable(void);

/*
 * Gives the ports back.  A task with an I/O bitmap pays for it on every
 * return to user mode (Linux 5.5+: tss_update_io_bitmap() in
 * arch_exit_to_user_mode_prepare()), so neither the program (a fork
 * inherits the bitmap) nor /init's marker calibration may keep one.
 */
void linit_com1_release(void);

/*
 * Waits until Linux's tty layer has sent what the program and /init wrote
 * to the console (tcdrain), so no frame is written while the driver still
 * feeds the UART.
 */
void linit_console_drain(void);

void linit_com1_write(const char *s, size_t len);
void linit_com1_puts(const char *s);

/* Until the UART sent its last bit (LSR: holding and shift registers empty). */
void linit_com1_drain(void);

/* The 32-bit OUT that ends the VM (EL_PORT_EXIT). */
void linit_exit_port(uint32_t value);

#endif
