/*
 * The exit port (isa-debug-exit semantics, values as in abi.h): a 32-bit
 * OUT of the user program's status, or EL_EXIT_PANIC + vector when the
 * guest kernel died.
 */
#include "exit.h"

static const char *const x86_vectors[32] = {
	[0] = "#DE",  [1] = "#DB",  [2] = "NMI",  [3] = "#BP",  [4] = "#OF",  [5] = "#BR",
	[6] = "#UD",  [7] = "#NM",  [8] = "#DF",  [9] = "coprocessor segment overrun",
	[10] = "#TS", [11] = "#NP", [12] = "#SS", [13] = "#GP", [14] = "#PF",
	[16] = "#MF", [17] = "#AC", [18] = "#MC", [19] = "#XM", [20] = "#VE", [21] = "#CP",
	[28] = "#HV", [29] = "#VC", [30] = "#SX",
};

const char *x86_vector_name(uint32_t vector)
{
	return vector < 32 ? x86_vectors[vector] : NULL;
}

static void exit_panic(struct el_loop *l, uint32_t vector)
{
	const char *name = x86_vector_name(vector);

	l->res->panic_vector = vector;
	if (vector == EL_PANIC_SOFTWARE)
		loop_stop(l, EL_RUN_GUEST_CRASH, "guest kernel panic (software, no exception)");
	else if (name)
		loop_stop(l, EL_RUN_GUEST_CRASH, "guest kernel panic: vector %u (%s)", vector, name);
	else
		loop_stop(l, EL_RUN_GUEST_CRASH, "guest kernel panic: vector %u (reserved or "
			  "external, 0x%02x)", vector, vector);
}

void dev_exit_io(struct el_loop *l, const struct el_io *io)
{
	uint32_t v;

	if (!io->out || io->size != 4 || io->count != 1) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: %u-byte %s at the exit port 0x%x; it takes one 32-bit OUT",
			  io->size, io->out ? "OUT" : "IN", io->port);
		return;
	}
	v = (uint32_t)io->data[0] | (uint32_t)io->data[1] << 8 | (uint32_t)io->data[2] << 16 |
	    (uint32_t)io->data[3] << 24;
	if (v <= EL_EXIT_STATUS_MAX) {
		l->res->exit_status = (int)v;
		loop_stop(l, EL_RUN_OK, "%s", "");
	} else if (v - EL_EXIT_PANIC <= 0xff) {
		exit_panic(l, v - EL_EXIT_PANIC);
	} else {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "exit port value 0x%x is neither a status (0-255) nor EL_EXIT_PANIC (0x%x) "
			  "+ vector",
			  v, EL_EXIT_PANIC);
	}
}
