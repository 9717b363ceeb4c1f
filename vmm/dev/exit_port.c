/*
 * The exit port (isa-debug-exit semantics, values as in abi.h): a 32-bit
 * OUT of the user program's status, or EL_PORT_EXIT_PANIC + vector when the
 * guest kernel died.  In Linux mode entrylab's /init writes it, after the
 * EXIT frame that says the same (linux_init.h).
 */
#include <stdio.h>
#include <string.h>

#include "entrylab/exceptions.h"
#include "exit.h"

const char *x86_vector_name(uint32_t vector)
{
	const char *label = el_exception_label(vector);

	/* The reserved vectors are named by number, as an external interrupt is. */
	return label && strcmp(label, "reserved") ? label : NULL;
}

static void exit_panic(struct el_run_result *res, uint32_t vector)
{
	const char *name = x86_vector_name(vector);

	res->status = EL_RUN_GUEST_CRASH;
	res->panic_vector = vector;
	if (vector == EL_PANIC_SOFTWARE)
		snprintf(res->detail, sizeof(res->detail), "guest kernel panic (software, no exception)");
	else if (name)
		snprintf(res->detail, sizeof(res->detail), "guest kernel panic: vector %u (%s)", vector,
			 name);
	else
		snprintf(res->detail, sizeof(res->detail), "guest kernel panic: vector %u (reserved or "
			 "external, 0x%02x)", vector, vector);
}

enum el_run_status exit_value_apply(uint32_t v, struct el_run_result *res)
{
	if (v <= EL_PORT_EXIT_STATUS_MAX) {
		res->status = EL_RUN_OK;
		res->exit_status = (int)v;
		res->detail[0] = '\0';
	} else if (v - EL_PORT_EXIT_PANIC <= 0xff) {
		exit_panic(res, v - EL_PORT_EXIT_PANIC);
	} else {
		res->status = EL_RUN_GUEST_BAD_IO;
		/* Records keep this text: it names EL_PORT_EXIT_PANIC by its old name. */
		snprintf(res->detail, sizeof(res->detail),
			 "exit port value 0x%x is neither a status (0-255) nor EL_EXIT_PANIC (0x%x) "
			 "+ vector",
			 v, EL_PORT_EXIT_PANIC);
	}
	return res->status;
}

/* The port's one shape, a 32-bit OUT: 0 with the value, or -1 having ended the run. */
static int exit_port_value(struct el_loop *l, const struct el_io *io, uint32_t *v)
{
	if (!io->out || io->size != 4 || io->count != 1) {
		loop_stop(l, EL_RUN_GUEST_BAD_IO,
			  "KVM_EXIT_IO: %u-byte %s at the exit port 0x%x; it takes one 32-bit OUT",
			  io->size, io->out ? "OUT" : "IN", io->port);
		return -1;
	}
	*v = (uint32_t)io->data[0] | (uint32_t)io->data[1] << 8 | (uint32_t)io->data[2] << 16 |
	     (uint32_t)io->data[3] << 24;
	return 0;
}

void dev_exit_io(struct el_loop *l, const struct el_io *io)
{
	uint32_t v;

	if (exit_port_value(l, io, &v) || l->stop)
		return;
	exit_value_apply(v, l->res);
	l->stop = true;
}

/*
 * Linux mode: /init writes its EXIT frame, then the port.  The value ends
 * the run; what it means is decided with the frames (linux_mode_finish),
 * where the two must agree.
 */
void dev_exit_linux_io(struct el_loop *l, const struct el_io *io)
{
	uint32_t v;

	if (exit_port_value(l, io, &v) || l->stop)
		return;
	l->lx->by_port = true;
	l->lx->exit_value = v;
	l->stop = true;
}
