/*
 * Output to the host (see hostio.h).
 */
#include "lib/hostio.h"

#include "arch/x86_64/io.h"
#include "entrylab/abi.h"
#include "lib/console.h"
#include "mm/layout.h"

bool hostio_present;
/* In the kernel image: its physical address fits the 32-bit hypercall argument. */
static struct el_write hostio_req;
static char hostio_buf[EL_WRITE_MAX];

void hostio_init(void)
{
	hostio_present = inl(EL_PORT_HCALL) == EL_HCALL_PROBE;
}

void hostio_write(unsigned fd, const char *buf, size_t len)
{
	if (!hostio_present) {
		com1_write(buf, len);
		return;
	}
	while (len) {
		size_t chunk = len < EL_WRITE_MAX ? len : EL_WRITE_MAX;

		for (size_t i = 0; i < chunk; i++)
			hostio_buf[i] = buf[i];
		hostio_req = (struct el_write){.fd = fd, .len = (uint32_t)chunk,
					       .gpa = image_to_phys(hostio_buf)};
		outl(EL_PORT_HCALL + EL_HC_WRITE, (uint32_t)image_to_phys(&hostio_req));
		buf += chunk;
		len -= chunk;
	}
}
