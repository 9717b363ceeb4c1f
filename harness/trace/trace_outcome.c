/*
 * How a trace ended, from what QEMU leaves: its exit status (isa-debug-exit
 * gives (value << 1) | 1, of which 8 bits survive), its stderr, the console
 * (the exact exit status, a panic) and whether the plugin counted anything;
 * and, when it measured nothing, why.
 * The result is what `run` would have recorded for the same ending.
 */
#include <stdio.h>
#include <string.h>

#include "trace.h"

/*
 * QEMU's refusal under `enforce`: "... TCG doesn't support requested feature:
 * CPUID.01H:ECX.pcid [bit 17]" -> "+pcid: QEMU TCG does not offer it (...)".
 */
static bool feature_refused(const char *qemu_err, char *detail, size_t len)
{
	const char *p = strstr(qemu_err, "support requested feature: "), *name, *end;

	if (!p)
		return false;
	p += strlen("support requested feature: ");
	end = p + strcspn(p, " \n");
	for (name = end; name > p && name[-1] != '.'; name--)
		;
	snprintf(detail, len, "+%.*s: QEMU TCG does not offer it (%.*s); drop it or use -%.*s",
		 (int)(end - name), name, (int)strcspn(p, "\n"), p, (int)(end - name), name);
	return true;
}

/* QEMU's exit, the console and the plugin's output -> what `run` would have seen. */
void trace_outcome(const struct el_trace_run *q, const struct el_trace_data *d,
			  bool have_data, struct el_run_result *res)
{
	res->console = q->console;
	res->console_len = q->console_len;
	res->console_bytes = q->console_bytes;
	res->console_dropped = q->console_dropped;
	res->wall_ms = q->wall_ms;
	res->have_boot = q->console && trace_console_boot(q->console, &res->boot);
	snprintf(res->exit_reason, sizeof(res->exit_reason), "qemu exit %d", q->exit_code);
	if (q->spawn_failed) {
		res->status = q->no_qemu ? EL_RUN_UNSUPPORTED : EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "%s", q->err);
	} else if (q->timed_out) {
		res->status = EL_RUN_TIMEOUT;
		snprintf(res->detail, sizeof(res->detail), "the guest ran longer than --timeout "
			 "under QEMU TCG (it was killed); raise --timeout or lower -n");
	} else if (q->signal) {
		res->status = EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "QEMU was killed by signal %d",
			 q->signal);
	} else if (!have_data || !d->executed) {
		/* QEMU gave up before the guest ran: a refused -cpu, a plugin it would not load. */
		res->status = EL_RUN_UNSUPPORTED;
		if (!feature_refused(q->qemu_err, res->detail, sizeof(res->detail))) {
			res->status = EL_RUN_VMM_ERROR;
			snprintf(res->detail, sizeof(res->detail), "%s failed (exit %d): %.*s",
				 q->qemu, q->exit_code, (int)strcspn(q->qemu_err, "\n"),
				 q->qemu_err);
		}
	} else if (q->exit_code & 1) {
		/* isa-debug-exit: (value << 1) | 1, of which the shell sees 8 bits. */
		unsigned v = (unsigned)q->exit_code >> 1;

		if (trace_console_panicked(q->console)) {
			res->status = EL_RUN_GUEST_CRASH;
			res->panic_vector = v == (EL_PANIC_SOFTWARE & 0x7f) ? EL_PANIC_SOFTWARE : v;
			snprintf(res->detail, sizeof(res->detail), "the guest kernel panicked "
				 "(vector or code %u); the console says why", res->panic_vector);
		} else {
			res->status = EL_RUN_OK;
			if (!trace_console_exit_status(q->console, &res->exit_status))
				res->exit_status = (int)v;
		}
	} else {
		res->status = EL_RUN_GUEST_CRASH;
		snprintf(res->detail, sizeof(res->detail), "QEMU stopped without the guest's exit "
			 "(exit %d): a triple fault ends it under -no-reboot", q->exit_code);
	}
}


/*
 * The plugin counts only inside windows; with none closed there is nothing
 * to report but why.  BEGUN says whether a BEGIN marker ran, OPENED whether
 * a window followed it (eltrace.c); an open window that never closed is no
 * region either (its END never came: the figures would be a fragment).
 */
const char *trace_not_measured(const struct el_trace_data *d)
{
	if (d->windows)
		return NULL;
	switch (d->window) {
	case EL_TRACE_WINDOW_USER:
		if (d->opened)
			return "the program started but its end was never seen: the guest kernel's "
			       "END OUT after the program's exit did not run";
		if (d->begun)
			return "the program never reached user mode (the guest kernel began the "
			       "whole-program region, then no user instruction ran)";
		return "the guest kernel never began the whole-program region (no BEGIN OUT ran "
		       "before the program: a kernel without el.region=whole?)";
	case EL_TRACE_WINDOW_ENTRY:
		if (d->opened)
			return "the program started but /init never returned from waiting for it "
			       "(" EL_LINUX_WHOLE_END_SYMBOL " did not run)";
		return "the program never reached user mode: its ELF entry point never ran";
	case EL_TRACE_WINDOW_SITES:
		if (d->opened)
			return "BEGIN ran but no END: the program's END marker never ran "
			       "before the guest stopped";
		if (d->begun)
			return "a BEGIN marker's SYSCALL ran but never returned to the program";
		return "the program's markers never ran: no BEGIN marker executed (--region whole "
		       "measures the whole program)";
	default:
		if (d->opened)
			return "BEGIN ran but no END: the program's END marker never ran "
			       "before the guest stopped";
		return "the program's markers never ran: no BEGIN marker executed (--region whole "
		       "measures the whole program)";
	}
}
