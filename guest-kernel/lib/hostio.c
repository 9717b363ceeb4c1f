/*
 * Output to the host (see hostio.h).  One bounce buffer in the kernel image
 * serves both streams: the console gathers in it (console_len bytes
 * pending) and leaves before any program output is copied in.
 */
#include "lib/hostio.h"

#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "lib/console.h"
#include "lib/string.h"
#include "mm/layout.h"

bool hostio_present;
/* In the kernel image: its physical address fits the 32-bit hypercall argument. */
static struct el_write hostio_req;
static char hostio_buf[EL_WRITE_MAX];
static size_t console_len; /* console bytes waiting in hostio_buf */

void hostio_init(void)
{
	hostio_present = inl(EL_PORT_HCALL) == EL_HCALL_PROBE;
}

/* One EL_HC_WRITE of the first len bytes of hostio_buf. */
static void send(unsigned fd, size_t len)
{
	hostio_req = (struct el_write){.fd = fd, .len = (uint32_t)len,
				       .gpa = image_to_phys(hostio_buf)};
	outl(EL_PORT_HCALL + EL_HC_WRITE, (uint32_t)image_to_phys(&hostio_req));
}

void hostio_flush(void)
{
	if (!console_len)
		return;
	send(EL_WRITE_CONSOLE, console_len);
	console_len = 0;
}

void hostio_console(const char *s, size_t len)
{
	while (len) {
		size_t room = sizeof(hostio_buf) - console_len;
		size_t n = len < room ? len : room;

		memcpy(hostio_buf + console_len, s, n);
		console_len += n;
		s += n;
		len -= n;
		if (console_len == sizeof(hostio_buf))
			hostio_flush();
	}
}

void hostio_write(unsigned fd, const char *buf, size_t len)
{
	if (!hostio_present) {
		com1_write(buf, len);
		return;
	}
	/* The console written before this comes out before it (-v puts both on stderr). */
	hostio_flush();
	while (len) {
		size_t chunk = len < EL_WRITE_MAX ? len : EL_WRITE_MAX;

		memcpy(hostio_buf, buf, chunk);
		send(fd, chunk);
		buf += chunk;
		len -= chunk;
	}
}
