/*
 * Linux mode: the PC ports and addresses Linux probes where entrylab has
 * no device (CMOS, PCI configuration, the keyboard controller, the other
 * UARTs, VGA, ...).  As on a PC with nothing there, a read sees an idle
 * bus (all ones) and a write goes nowhere; each access is counted for the
 * record (vmm.legacy_io), per port for the first EL_LEGACY_PORTS ports.
 * Two writes end the run: 0xfe to the keyboard controller (0x64) and a
 * reset request to port 0xcf9, which is how Linux reboots a PC, and with
 * panic=-1 how it panics (linux_reset).  Our kernel's mode has none of
 * this: an unknown port or address there is guest-bad-io (exit_io.c).
 */
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "kvm.h"

#define I8042_RESET 0xfeu /* "pulse the reset line" command */
#define CF9_RESET 0x04u   /* RST_CPU: the reset itself (with SYS_RST, a hard one) */

static void legacy_count(struct el_legacy_io *g, uint16_t port, bool out, uint64_t n)
{
	struct el_legacy_port *p = NULL;

	*(out ? &g->writes : &g->reads) += n;
	for (unsigned i = 0; i < g->nr_ports && !p; i++)
		if (g->ports[i].port == port)
			p = &g->ports[i];
	if (!p && g->nr_ports < EL_LEGACY_PORTS) {
		p = &g->ports[g->nr_ports++];
		p->port = port;
	}
	if (p)
		*(out ? &p->writes : &p->reads) += n;
}

void dev_legacy_io(struct el_loop *l, const struct el_io *io)
{
	legacy_count(&l->res->legacy, io->port, io->out, io->count);
	if (!io->out)
		memset(io->data, 0xff, (size_t)io->size * io->count);
}

void dev_i8042_io(struct el_loop *l, const struct el_io *io)
{
	dev_legacy_io(l, io);
	for (uint32_t i = 0; io->out && io->size == 1 && i < io->count; i++)
		if (io->data[i] == I8042_RESET) {
			linux_reset(l, "through the keyboard controller (port 0x64 <- 0xfe)");
			return;
		}
}

void dev_cf9_io(struct el_loop *l, const struct el_io *io)
{
	char how[64];

	dev_legacy_io(l, io);
	for (uint32_t i = 0; io->out && io->size == 1 && i < io->count; i++)
		if (io->data[i] & CF9_RESET) {
			snprintf(how, sizeof(how), "through port 0xcf9 (<- 0x%02x)", io->data[i]);
			linux_reset(l, how);
			return;
		}
}

void exit_mmio_linux(struct el_loop *l)
{
	struct kvm_run *run = l->vm->run;
	struct el_legacy_io *g = &l->res->legacy;
	unsigned len = run->mmio.len < sizeof(run->mmio.data) ? run->mmio.len
							      : (unsigned)sizeof(run->mmio.data);

	if (!g->mmio_reads && !g->mmio_writes)
		g->mmio_first = run->mmio.phys_addr;
	if (run->mmio.is_write) {
		g->mmio_writes++;
		return;
	}
	g->mmio_reads++;
	memset(run->mmio.data, 0xff, len);
}
