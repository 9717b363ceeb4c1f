/*
 * Fuzz target: the exit loop's port dispatch and devices (vmm/exit_io.c,
 * dev/console.c, dev/exit_port.c, dev/hcall.c, dev/post.c) fed recorded
 * exits, without a vCPU: exit_io() reads a struct kvm_run in memory and
 * 1 MiB of guest RAM, as after a KVM_EXIT_IO.  An input starting with 'L'
 * runs the loop's Linux mode (vmm/linux_mode.c: the Linux port table, the
 * legacy probes, the CMOS clock, resets, COM1's frame split, and at the
 * end /init's frames decoded against how the run ended).  Then a list of
 * records, each starting with a kind byte (its low two bits):
 *   0:    an I/O exit: port (2 bytes), size (1), count (2), direction (1),
 *         data_offset (2), then up to size * count bytes of data
 *   2:    an MMIO exit: address (4), length (1), direction (1), 8 bytes of data
 *   1, 3: a poke of guest RAM: gpa (4, modulo the RAM), length (2), bytes
 *         (a report or EL_HC_WRITE argument for a later hypercall)
 * until the input ends or a handler stops the run.  A run stopped other
 * than by a clean exit (EL_RUN_OK) must say why; a report that got in must pass hcall_report_check.
 */
#include <linux/kvm.h>

#include "exit.h"
#include "fuzz.h"

#define RAM_SIZE (1u << 20)
#define RUN_SIZE 8192u

struct input {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes && in->left; i++, in->left--)
		v |= (uint64_t)*in->p++ << (8 * i);
	return v;
}

static void copy_in(struct input *in, uint8_t *dst, size_t room, size_t want)
{
	size_t n = want < room ? want : room;

	n = n < in->left ? n : in->left;
	memcpy(dst, in->p, n);
	in->p += n;
	in->left -= n;
}

static void io_exit(struct el_loop *l, struct input *in)
{
	struct kvm_run *run = l->vm->run;
	uint64_t off;

	run->exit_reason = KVM_EXIT_IO;
	run->io.port = (uint16_t)take(in, 2);
	run->io.size = (uint8_t)take(in, 1);
	run->io.count = (uint32_t)take(in, 2);
	run->io.direction = take(in, 1) & 1 ? KVM_EXIT_IO_OUT : KVM_EXIT_IO_IN;
	off = take(in, 2);
	run->io.data_offset = off;
	if (off < RUN_SIZE)
		copy_in(in, (uint8_t *)run + off, RUN_SIZE - off,
			(size_t)run->io.size * run->io.count);
	l->res->exits_total++;
	exit_io(l);
}

static void mmio_exit(struct el_loop *l, struct input *in)
{
	struct kvm_run *run = l->vm->run;

	run->exit_reason = KVM_EXIT_MMIO;
	run->mmio.phys_addr = take(in, 4);
	run->mmio.len = (uint32_t)take(in, 1);
	run->mmio.is_write = take(in, 1) & 1;
	copy_in(in, run->mmio.data, sizeof(run->mmio.data), sizeof(run->mmio.data));
	l->res->exits_total++;
	exit_dispatch(l);
}

static void poke(struct el_loop *l, struct input *in)
{
	uint64_t gpa = take(in, 4) % RAM_SIZE;
	size_t len = (size_t)take(in, 2);

	copy_in(in, l->vm->mem.base + gpa, RAM_SIZE - gpa, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t *ram, *run_page;
	struct el_vm vm = {.kvm_fd = -1, .vm_fd = -1, .vcpu_fd = -1, .run_size = RUN_SIZE};
	struct el_run_spec spec = {.append = ""};
	struct el_run_result res;
	struct el_loop l = {.vm = &vm, .spec = &spec, .res = &res};
	struct input in = {data, size};
	char why[256];

	if (!ram && (!(ram = malloc(RAM_SIZE)) || !(run_page = malloc(RUN_SIZE))))
		abort();
	memset(ram, 0, RAM_SIZE);
	memset(run_page, 0, RUN_SIZE);
	memset(&res, 0, sizeof(res));
	vm.run = (struct kvm_run *)run_page;
	vm.mem = (struct el_mem){.base = ram, .size = RAM_SIZE, .nr_slots = 1};
	vm.mem.slot[0] = (struct el_mem_slot){.gpa = 0, .size = RAM_SIZE, .hva = ram};
	clock_gettime(CLOCK_MONOTONIC, &l.t0);

	static struct el_linux_mode lx;
	bool linux_mode = in.left && *in.p == 'L';

	if (linux_mode) {
		take(&in, 1);
		spec.guest = EL_GUEST_LINUX;
		linux_mode_init(&lx, &l, why, sizeof(why));
	}
	while (in.left && !l.stop) {
		unsigned kind = (unsigned)take(&in, 1) & 3;

		if (kind & 1)
			poke(&l, &in);
		else if (kind == 2)
			mmio_exit(&l, &in);
		else
			io_exit(&l, &in);
	}
	if (linux_mode) {
		linux_mode_finish(&l);
		linux_mode_free(&lx);
		if (res.status != EL_RUN_OK && !res.detail[0])
			fuzz_fail("Linux mode ended the run without saying why");
		if (res.legacy.nr_ports > EL_LEGACY_PORTS)
			fuzz_fail("more legacy ports tracked than the table holds");
	}
	if (l.stop && res.status != EL_RUN_OK && !res.detail[0])
		fuzz_fail("a handler stopped the run without saying why");
	if ((res.have_boot && hcall_report_check(&res.boot, why, sizeof(why))) ||
	    (res.have_run && hcall_report_check(&res.run, why, sizeof(why))))
		fuzz_fail("a report that fails hcall_report_check was kept");
	console_finish(&l);
	free(res.console); /* el_run_result_free would pull in run.c and the whole VMM */
	return 0;
}
