/*
 * KVM_EXIT_IO: the port tables, one per guest kind.  For our kernel an
 * access to a port no device claims ends the run as guest-bad-io; for
 * Linux it is a legacy probe, answered and counted (dev/legacy.c).
 * Devices check size and direction themselves.
 */
#include "array_size.h"
#include "exit.h"
#include "kvm.h"

/* vmm.io_exits keys, by device (EL_IO_DEVICES): the same in both modes. */
enum { IO_COM1, IO_EXIT, IO_HCALL, IO_POST };
static const char *const io_device_names[EL_IO_DEVICES] = {
	[IO_COM1] = "com1", [IO_EXIT] = "exit", [IO_HCALL] = "hypercall", [IO_POST] = "post",
};

struct io_dev {
	uint16_t base, count;
	el_io_fn *fn;
	int counter; /* index into io_exits, -1: none (counted in vmm.legacy_io) */
};

/* Our kernel's ports; any other is guest-bad-io. */
static const struct io_dev entrylab_ports[] = {
	{EL_PORT_COM1, 8, dev_console_io, IO_COM1},
	{EL_PORT_EXIT, 1, dev_exit_io, IO_EXIT},
	{EL_PORT_HCALL, EL_HC_COUNT, hcall_io, IO_HCALL},
	{EL_PORT_POST, 1, dev_post_io, IO_POST},
};

/* Linux's: no hypercalls; the CMOS clock; the reset ports; any other port is legacy (dev/legacy.c). */
#define PORT_I8042_CMD 0x64u
#define PORT_RESET_CF9 0xcf9u
static const struct io_dev linux_ports[] = {
	{EL_PORT_COM1, 8, dev_console_io, IO_COM1},
	{EL_PORT_EXIT, 1, dev_exit_linux_io, IO_EXIT},
	{EL_PORT_POST, 1, dev_post_io, IO_POST},
	{EL_PORT_RTC_INDEX, 2, dev_rtc_io, -1},
	{PORT_I8042_CMD, 1, dev_i8042_io, -1},
	{PORT_RESET_CF9, 1, dev_cf9_io, -1},
};

const char *exit_io_device_name(unsigned i)
{
	return i < EL_IO_DEVICES ? io_device_names[i] : NULL;
}

static const struct io_dev *io_find(const struct io_dev *t, size_t n, uint16_t port)
{
	for (size_t i = 0; i < n; i++)
		if (port >= t[i].base && port - t[i].base < t[i].count)
			return &t[i];
	return NULL;
}

void exit_io(struct el_loop *l)
{
	struct kvm_run *run = l->vm->run;
	const struct io_dev *dev;
	uint64_t bytes = (uint64_t)run->io.size * run->io.count;
	struct el_io io = {
		.port = run->io.port,
		.size = run->io.size,
		.count = run->io.count,
		.out = run->io.direction == KVM_EXIT_IO_OUT,
	};

	/* KVM fills these, but they index our mapping: check anyway. */
	if ((io.size != 1 && io.size != 2 && io.size != 4) || io.count == 0) {
		loop_stop(l, EL_RUN_VMM_ERROR, "KVM_EXIT_IO: %u access(es) of %u bytes: KVM gives "
			  "1, 2 or 4 bytes, at least once", io.count, io.size);
		return;
	}
	if (run->io.data_offset > l->vm->run_size || bytes > l->vm->run_size - run->io.data_offset) {
		loop_stop(l, EL_RUN_VMM_ERROR,
			  "KVM_EXIT_IO: data at offset %llu (+%llu) lies outside the run page",
			  (unsigned long long)run->io.data_offset, (unsigned long long)bytes);
		return;
	}
	io.data = (uint8_t *)run + run->io.data_offset;
	dev = l->lx ? io_find(linux_ports, EL_ARRAY_SIZE(linux_ports), io.port)
		    : io_find(entrylab_ports, EL_ARRAY_SIZE(entrylab_ports), io.port);
	if (dev) {
		if (dev->counter >= 0)
			l->res->io_exits[dev->counter]++;
		dev->fn(l, &io);
	} else if (l->lx) {
		dev_legacy_io(l, &io);
	} else {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: guest %s %u byte%s %s unknown I/O port 0x%x",
			  io.out ? "wrote" : "read", io.size, io.size == 1 ? "" : "s",
			  io.out ? "to" : "from", io.port);
	}
}
