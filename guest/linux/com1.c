/* COM1 and the exit port, by port I/O from user mode. */
#include "com1.h"

#include <string.h>
#include <sys/io.h>
#include <termios.h>
#include <unistd.h>

#include <entrylab/abi.h>

#define COM1_PORTS 8
#define EXIT_PORTS 4
#define LSR_THR_EMPTY 0x20
#define LSR_TX_IDLE 0x40
#define TX_SPIN_LIMIT 100000 /* a UART that never says ready must not hang /init */

static inline uint8_t port_in8(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void port_out8(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void port_out32(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static int ports_ok;

int linit_com1_open(void)
{
	if (ioperm(EL_PORT_COM1, COM1_PORTS, 1) || ioperm(EL_PORT_EXIT, EXIT_PORTS, 1))
		return -1;
	ports_ok = 1;
	return 0;
}

int linit_com1_usable(void)
{
	return ports_ok;
}

void linit_com1_release(void)
{
	/* Both ranges: only when no port is left does Linux drop the bitmap. */
	ioperm(EL_PORT_COM1, COM1_PORTS, 0);
	ioperm(EL_PORT_EXIT, EXIT_PORTS, 0);
	ports_ok = 0;
}

void linit_console_drain(void)
{
	tcdrain(STDOUT_FILENO);
	tcdrain(STDERR_FILENO);
}

static void com1_wait(uint8_t mask)
{
	for (unsigned spins = 0; (port_in8(EL_PORT_COM1_LSR) & mask) != mask; spins++)
		if (spins == TX_SPIN_LIMIT)
			return;
}

void linit_com1_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		com1_wait(LSR_THR_EMPTY);
		port_out8(EL_PORT_COM1, (uint8_t)s[i]);
	}
}

void linit_com1_puts(const char *s)
{
	linit_com1_write(s, strlen(s));
}

void linit_com1_drain(void)
{
	com1_wait(LSR_THR_EMPTY | LSR_TX_IDLE);
}

void linit_exit_port(uint32_t value)
{
	port_out32(EL_PORT_EXIT, value);
}
