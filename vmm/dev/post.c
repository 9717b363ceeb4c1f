/*
 * Port 0x80, the PC's POST-code port: every PC has something there, and
 * programs use it as a harmless port (Linux's outb_p delay, the ioperm and
 * iopl selftests).  Writes are dropped, reads see an idle ISA bus (0xff),
 * as on QEMU.  It exits to the VMM like any port, so it is counted, and a
 * guest that hammers it shows up in vmm.io_exits.post.
 */
#include <string.h>

#include "exit.h"

void dev_post_io(struct el_loop *l, const struct el_io *io)
{
	(void)l;
	if (!io->out)
		memset(io->data, 0xff, (size_t)io->size * io->count);
}
