/*
 * Linux mode of the exit loop (exit.h, struct el_linux_mode): COM1 carries
 * Linux's console and entrylab's /init's frames (linux_init.h), kept apart
 * as they arrive (frame_split, frame.h) so that the console's cap never
 * costs a frame; the UART's interrupt goes to IRQ 4; a reset ends the run;
 * and at the end the frames are decoded and checked against how the run
 * ended (linux_mode_finish).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "kvm.h"

#define COM1_IRQ 4u

static const char panic_tag[] = "Kernel panic - not syncing";

/* A console line ended: the last one, and Linux's panic message when it is one. */
static void line_end(struct el_linux_mode *lx)
{
	const char *p;

	while (lx->line_len && lx->line[lx->line_len - 1] == '\r')
		lx->line_len--;
	lx->line[lx->line_len] = '\0';
	if (lx->line_len)
		memcpy(lx->last_line, lx->line, lx->line_len + 1);
	p = strstr(lx->line, panic_tag);
	if (p)
		snprintf(lx->panic, sizeof(lx->panic), "%s", p);
	lx->line_len = 0;
}

/* Console bytes from the split: kept as our kernel's are, and watched line by line. */
static void linux_console(void *ctx, const char *p, size_t n)
{
	struct el_loop *l = ctx;
	struct el_linux_mode *lx = l->lx;

	for (size_t i = 0; i < n; i++) {
		console_put(l, p[i]);
		if (p[i] == '\n')
			line_end(lx);
		else if (lx->line_len + 1 < sizeof(lx->line))
			lx->line[lx->line_len++] = p[i];
	}
}

/* A frame line just ended: BOOT's end is when Linux ran /init (boot_ms). */
static void frames_look(struct el_loop *l)
{
	struct el_linux_mode *lx = l->lx;
	static const char boot[] = EL_FRAME_TAG EL_FRAME_KIND_BOOT " ";
	const char *f = lx->split.frames;
	const char *nl;

	while (lx->frames_seen < lx->split.frames_len &&
	       (nl = memchr(f + lx->frames_seen, '\n', lx->split.frames_len - lx->frames_seen))) {
		size_t len = (size_t)(nl - f) - lx->frames_seen;

		if (!l->res->boot_ms && len >= sizeof(boot) - 1 &&
		    !memcmp(f + lx->frames_seen, boot, sizeof(boot) - 1))
			l->res->boot_ms = loop_ms(l);
		lx->frames_seen = (size_t)(nl - f) + 1;
	}
}

void linux_com1_tx(struct el_loop *l, char ch)
{
	struct el_linux_mode *lx = l->lx;
	size_t before = lx->split.frames_len;

	frame_split_put(&lx->split, &ch, 1);
	if (ch == '\n' && lx->split.frames_len != before)
		frames_look(l);
}

void linux_com1_irq(struct el_loop *l)
{
	struct el_linux_mode *lx = l->lx;
	bool level = uart_irq(&l->con.uart);
	struct kvm_irq_level line = {.irq = COM1_IRQ, .level = level};

	if (level == lx->irq_level)
		return;
	lx->irq_level = level;
	if (__kvm_ioctl(l->vm->vm_fd, KVM_IRQ_LINE, &line) < 0)
		loop_stop(l, EL_RUN_VMM_ERROR, "cannot set COM1's interrupt (IRQ %u) to %d: "
			  "KVM_IRQ_LINE failed: %s (errno %d)", COM1_IRQ, level, strerror(errno),
			  errno);
}

void linux_reset(struct el_loop *l, const char *how)
{
	const char *panic = l->lx->panic;

	/* The panic line's end may still be held (frame_split): its text is all here. */
	if (l->lx->line_len)
		line_end(l->lx);
	if (panic[0])
		loop_stop(l, EL_RUN_GUEST_CRASH, "Linux reset the machine %s: it panicked "
			  "(entrylab boots it with panic=-1, which resets at once): \"%s\"", how,
			  panic);
	else
		loop_stop(l, EL_RUN_GUEST_CRASH, "Linux reset the machine %s: a panic (panic=-1 "
			  "resets at once) or a reboot; the console's end (-v, or the record) says "
			  "which", how);
}

void exit_shutdown_linux(struct el_loop *l)
{
	linux_reset(l, "by a triple fault (KVM_EXIT_SHUTDOWN)");
}

int linux_mode_init(struct el_linux_mode *lx, struct el_loop *l, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(lx, 0, sizeof(*lx));
	frame_split_init(&lx->split, linux_console, l);
	l->lx = lx;
	return 0;
}

void linux_mode_free(struct el_linux_mode *lx)
{
	frame_split_free(&lx->split);
}

static void __attribute__((format(printf, 3, 4)))
fail(struct el_run_result *res, enum el_run_status st, const char *fmt, ...)
{
	va_list ap;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
}

/* The run ended by the exit port: the frames decide, and the port must agree with them. */
static void port_result(struct el_loop *l, const struct frame_scan *s)
{
	struct el_linux_mode *lx = l->lx;
	struct el_run_result *res = l->res;

	frame_result(s, res);
	if (res->status == EL_RUN_GUEST_BAD_IO)
		return; /* a malformed frame, INFO or report: named by frame_result */
	if (!s->count[FRAME_EXIT])
		fail(res, EL_RUN_GUEST_BAD_IO, "the guest wrote 0x%x to the exit port with no EXIT "
		     "frame on COM1 before it (%s); entrylab's /init sends EXIT, then writes the "
		     "port", lx->exit_value, res->have_run ? "after RUN"
		     : res->have_boot ? "after BOOT" : "before any report");
	else if (s->exit_value != lx->exit_value)
		fail(res, EL_RUN_GUEST_BAD_IO, "the exit port says 0x%x, /init's EXIT frame 0x%x: "
		     "they must agree", lx->exit_value, s->exit_value);
	else if (res->status == EL_RUN_OK && !res->have_linux)
		fail(res, EL_RUN_GUEST_BAD_IO, "entrylab's /init exited without its INFO frame "
		     "(what Linux is and how it is set up, linux_init.h)");
	else if (res->status == EL_RUN_OK && !res->have_boot)
		fail(res, EL_RUN_GUEST_BAD_IO, "entrylab's /init exited without its BOOT frame "
		     "(linux_init.h)");
	else if (res->status == EL_RUN_GUEST_CRASH && res->panic_vector == EL_PANIC_SOFTWARE)
		/* Records keep this text: it names EL_PORT_EXIT_PANIC by its old name. */
		fail(res, EL_RUN_GUEST_CRASH, "entrylab's /init gave up (EXIT EL_EXIT_PANIC); it "
		     "says why on the console%s%s", lx->last_line[0] ? ", last: " : "",
		     lx->last_line);
}

/* Any other end stays; the facts /init sent before it still go into the record. */
static void other_end(struct el_loop *l, const struct frame_scan *s)
{
	struct el_run_result *res = l->res;
	enum el_run_status st = res->status;
	int exit_status = res->exit_status;
	uint32_t vector = res->panic_vector;
	char detail[sizeof(res->detail)];
	size_t n;

	memcpy(detail, res->detail, sizeof(detail));
	frame_result(s, res);
	res->status = st;
	res->exit_status = exit_status;
	res->panic_vector = vector;
	memcpy(res->detail, detail, sizeof(detail));
	n = strlen(res->detail);
	if (st == EL_RUN_TIMEOUT && !res->have_boot)
		snprintf(res->detail + n, sizeof(res->detail) - n, "; Linux had not started "
			 "entrylab's /init (no BOOT frame): the console (-v, or the record) shows "
			 "how far it got");
}

void linux_mode_finish(struct el_loop *l)
{
	struct el_linux_mode *lx = l->lx;
	struct el_run_result *res = l->res;
	struct frame_scan s;

	frame_split_finish(&lx->split);
	if (lx->split.overflow) {
		if (lx->by_port)
			fail(res, lx->split.oom ? EL_RUN_VMM_ERROR : EL_RUN_GUEST_BAD_IO,
			     "%s: more than %u MiB of frame lines on COM1 (%llu bytes not kept)",
			     lx->split.oom ? "out of memory" : "the guest flooded its frames",
			     FRAME_SPLIT_MAX >> 20, (unsigned long long)lx->split.frames_dropped);
		return;
	}
	if (frame_decode(lx->split.frames ? lx->split.frames : "", lx->split.frames_len, &s)) {
		if (lx->by_port)
			fail(res, EL_RUN_VMM_ERROR, "%s", s.err);
		frame_scan_free(&s);
		return;
	}
	(lx->by_port ? port_result : other_end)(l, &s);
	frame_scan_free(&s);
}
