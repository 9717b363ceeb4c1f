/* regcheck: the rounds: fresh random state in, one event, every difference reported. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "regcheck.h"

#define MAX_DETAILS 20

/* Indices into reg_names[] (and bits of event.what) beyond the registers. */
#define WHAT_RFLAGS RC_NREGS
#define WHAT_RSP (RC_NREGS + 1)
#define WHAT_REDZONE (RC_NREGS + 2)
#define WHAT_RESULT (RC_NREGS + 3)
#define WHAT_COUNT (RC_NREGS + 4)

static const char *const reg_names[WHAT_COUNT] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13",
	"r14", "r15", "rflags", "rsp", "red zone", "result",
};

static uint64_t rng = 0x9e3779b97f4a7c15ull, base_flags;
static unsigned details;
static int ac_seen;

void rc_detail(const char *fmt, ...)
{
	va_list ap;

	if (details++ >= MAX_DETAILS)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static unsigned round_diffs; /* differences in the current round */

/* Records a difference (bit `which` of event.what) and prints the first few. */
static void differs(struct rc_event *ev, unsigned long r, unsigned which, uint64_t got,
		    uint64_t want)
{
	round_diffs++;
	ev->what |= 1u << which;
	rc_detail("  %s round %lu: %s is %#llx, expected %#llx\n", ev->name, r, reg_names[which],
	       (unsigned long long)got, (unsigned long long)want);
}

/* One event, one round; returns whether anything differed. */
static bool run_round(struct rc_event *ev, int id, const struct rc_opts *o, unsigned long r)
{
	struct rc_expect e = { .mask = ALL_REGS, .flags_mask = ~0ull, .redzone = 1 };

	round_diffs = 0;
	for (int i = 0; i < RC_NREGS; i++)
		el_rc[RC_IN + i] = rnd();
	el_rc[RC_IN_FLAGS] = (base_flags & ~F_LOADED) | (rnd() & F_LOADED);
	for (int i = 0; i < RC_REDZONE_WORDS; i++)
		el_rc[RC_REDZONE_IN + i] = rnd();
	memset(&el_rc[RC_OUT], 0x5a, 8 * (RC_NREGS + 1));
	ev->setup(o, r);

	el_rc_run(id);

	ac_seen |= (el_rc[RC_FLAGS_AT] & F_AC) != 0;
	memcpy(e.exp, &el_rc[RC_IN], sizeof(e.exp));
	e.flags = el_rc[RC_FLAGS_AT];
	ev->expect(&e, r);
	for (unsigned i = 0; i < RC_NREGS; i++)
		if ((e.mask >> i & 1) && el_rc[RC_OUT + i] != e.exp[i])
			differs(ev, r, i, el_rc[RC_OUT + i], e.exp[i]);
	if ((el_rc[RC_OUT_FLAGS] ^ e.flags) & e.flags_mask)
		differs(ev, r, WHAT_RFLAGS, el_rc[RC_OUT_FLAGS], e.flags);
	if (el_rc[RC_RSP_OUT] != el_rc[RC_RSP_IN])
		differs(ev, r, WHAT_RSP, el_rc[RC_RSP_OUT], el_rc[RC_RSP_IN]);
	for (int i = 0; e.redzone && i < RC_REDZONE_WORDS; i++)
		if (el_rc[RC_REDZONE_OUT + i] != el_rc[RC_REDZONE_IN + i])
			differs(ev, r, WHAT_REDZONE, el_rc[RC_REDZONE_OUT + i],
				el_rc[RC_REDZONE_IN + i]);
	if (e.failed)
		ev->what |= 1u << WHAT_RESULT;
	return e.failed || round_diffs;
}

static void report(const struct rc_event *ev, int enabled, unsigned long rounds)
{
	char name[32], list[160] = "";

	snprintf(name, sizeof(name), "regcheck.%s", ev->name);
	if (!enabled) {
		el_skip(name, "%s",
			ev == &rc_events[RC_EV_CALL] ? "no --vsyscall" : "no --self-ipi");
		return;
	}
	for (unsigned i = 0; i < WHAT_COUNT; i++)
		if (ev->what >> i & 1)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 *list ? ", " : "", reg_names[i]);
	el_expect(name, ev->mismatched_rounds == 0, "%lu of %lu rounds differ (%s)",
		  ev->mismatched_rounds, rounds, list);
}

void rc_run_all(const struct rc_opts *o)
{
	int enabled[RC_EV_COUNT];

	base_flags = __builtin_ia32_readeflags_u64();
	for (int id = 0; id < RC_EV_COUNT; id++)
		enabled[id] = (id != RC_EV_SELF_IPI || o->ipis) &&
			      (id != RC_EV_CALL || o->vsyscall);

	/* Round-robin, so each path runs right after every other one. */
	for (unsigned long r = 0; r < o->rounds; r++)
		for (int id = 0; id < RC_EV_COUNT; id++)
			if (enabled[id] && run_round(&rc_events[id], id, o, r))
				rc_events[id].mismatched_rounds++;

	for (int id = 0; id < RC_EV_COUNT; id++)
		report(&rc_events[id], enabled[id], o->rounds);
	printf("regcheck: RFLAGS.AC %s (DF, NT and the status flags were loaded too)\n",
	       ac_seen ? "was set in some rounds" : "could not be set: not checked");
}
