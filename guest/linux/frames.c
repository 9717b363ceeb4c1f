/* Frames, the failure message and the exit, all on the ports (com1.c). */
#include "frames.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include <entrylab/abi.h>
#include <entrylab/serial_frame.h>

#include "com1.h"
#include "guest-kernel/lib/serial_frame.h"

int linit_frame(const char *kind, const void *payload, size_t len)
{
	static char line[EL_FRAME_LINE_MAX];
	size_t n = serial_frame_format(line, sizeof(line), kind, payload, len);

	if (!n)
		return -1;
	linit_com1_write(line, n);
	return 0;
}

/* No way to tell the host anything: a reset it sees (reboot=t, a triple fault). */
__attribute__((noreturn)) static void exit_without_ports(void)
{
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

void linit_exit(uint32_t value)
{
	uint8_t le[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
			 (uint8_t)(value >> 24)};

	if (!linit_com1_usable())
		exit_without_ports();
	linit_console_drain();
	linit_frame(EL_FRAME_KIND_EXIT, le, sizeof(le));
	linit_com1_drain();
	linit_exit_port(value);
	linit_com1_puts("\nentrylab /init: the exit port (0xf4) did not end the VM; "
			"powering off\n");
	linit_com1_drain();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

void linit_fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	size_t n;

	strcpy(msg, "\nentrylab /init: ");
	n = strlen(msg);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n - 1, fmt, ap);
	va_end(ap);
	strcat(msg, "\n");
	if (!linit_com1_usable()) {
		/* The console (the same UART, through Linux's tty) is all there is. */
		write(STDERR_FILENO, msg, strlen(msg));
		linit_console_drain();
		exit_without_ports();
	}
	linit_console_drain();
	linit_com1_puts(msg);
	linit_exit(EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE);
}
