/*
 * KVM_EXIT_IO: the port table.  An access to a port no device claims ends
 * the run as guest-bad-io; devices check size and direction themselves.
 */
#include "exit.h"
#include "kvm.h"

static const struct {
	uint16_t base, count;
	el_io_fn *fn;
	const char *name; /* record key under vmm.io_exits */
} io_ports[EL_IO_DEVICES] = {
	{EL_PORT_COM1, 8, dev_console_io, "com1"},
	{EL_PORT_EXIT, 1, dev_exit_io, "exit"},
	{EL_PORT_HCALL, EL_HC_COUNT, hcall_io, "hypercall"},
	{EL_PORT_POST, 1, dev_post_io, "post"},
};

const char *exit_io_device_name(unsigned i)
{
	return i < EL_IO_DEVICES ? io_ports[i].name : NULL;
}

void exit_io(struct el_loop *l)
{
	struct kvm_run *run = l->vm->run;
	uint64_t bytes = (uint64_t)run->io.size * run->io.count;
	struct el_io io = {
		.port = run->io.port,
		.size = run->io.size,
		.count = run->io.count,
		.out = run->io.direction == KVM_EXIT_IO_OUT,
	};

	/* KVM fills these, but they index our mapping: check anyway. */
	if (run->io.data_offset > l->vm->run_size || bytes > l->vm->run_size - run->io.data_offset) {
		loop_stop(l, EL_RUN_VMM_ERROR,
			  "KVM_EXIT_IO: data at offset %llu (+%llu) lies outside the run page",
			  (unsigned long long)run->io.data_offset, (unsigned long long)bytes);
		return;
	}
	io.data = (uint8_t *)run + run->io.data_offset;
	for (size_t i = 0; i < sizeof(io_ports) / sizeof(io_ports[0]); i++) {
		if (io.port >= io_ports[i].base && io.port - io_ports[i].base < io_ports[i].count) {
			l->res->io_exits[i]++;
			io_ports[i].fn(l, &io);
			return;
		}
	}
	loop_stop(l, EL_RUN_GUEST_BAD_IO,
		  "KVM_EXIT_IO: guest %s %u byte%s %s unknown I/O port 0x%x",
		  io.out ? "wrote" : "read", io.size, io.size == 1 ? "" : "s",
		  io.out ? "to" : "from", io.port);
}
