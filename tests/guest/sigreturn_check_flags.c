/*
 * sigreturn_check flags: rt_sigreturn takes from the frame only the RFLAGS
 * bits Linux lets user space change (FIX_EFLAGS: CF PF AF ZF SF TF DF OF RF
 * AC); IF, IOPL, NT, ID, VIF, VIP keep the values the program had.  Seen by
 * the PUSHFQ right after the SYSCALL (RF never shows in a PUSHFQ image).
 */
#include "sigreturn_check.h"

#define FL_CF 0x1ull
#define FL_PF 0x4ull
#define FL_AF 0x10ull
#define FL_ZF 0x40ull
#define FL_SF 0x80ull
#define FL_IF 0x200ull
#define FL_DF 0x400ull
#define FL_OF 0x800ull
#define FL_IOPL 0x3000ull
#define FL_NT 0x4000ull
#define FL_AC 0x40000ull
#define FL_VIF 0x80000ull
#define FL_VIP 0x100000ull
#define FL_ID 0x200000ull
#define FIX (FL_CF | FL_PF | FL_AF | FL_ZF | FL_SF | X86_TF | FL_DF | FL_OF | X86_RF | FL_AC)

static uint64_t edited;

/* Sets the arithmetic flags, DF and AC, and tries IOPL 3, NT, VIF, VIP, toggling ID, clearing IF. */
static void edit_set(ucontext_t *uc)
{
	uint64_t f = (uint64_t)uc->uc_mcontext.gregs[REG_EFL];

	f |= FL_CF | FL_PF | FL_AF | FL_ZF | FL_SF | FL_DF | FL_OF | FL_AC;
	f |= FL_IOPL | FL_NT | FL_VIF | FL_VIP;
	f ^= FL_ID;
	f &= ~FL_IF;
	edited = f;
	uc->uc_mcontext.gregs[REG_EFL] = (greg_t)f;
}

static void edit_clear(ucontext_t *uc)
{
	uint64_t f = (uint64_t)uc->uc_mcontext.gregs[REG_EFL] & ~(FIX & ~X86_TF);

	edited = f;
	uc->uc_mcontext.gregs[REG_EFL] = (greg_t)f;
}

static void check(const char *name, void (*edit)(ucontext_t *))
{
	uint64_t orig, want;

	sr_run(edit);
	orig = (uint64_t)sr_before[REG_EFL];
	want = ((orig & ~FIX) | (edited & FIX)) & ~X86_RF;
	el_expect(name, sr_fault.count == 0 && sr_out[SR_FLAGS] == want,
		  "RFLAGS before %#llx, frame edited to %#llx: after %#llx, want %#llx "
		  "(%d faults)",
		  (unsigned long long)orig, (unsigned long long)edited,
		  (unsigned long long)sr_out[SR_FLAGS], (unsigned long long)want, sr_fault.count);
}

void sr_flags(void)
{
	check("flags.user_bits_set_others_kept", edit_set);
	check("flags.user_bits_cleared", edit_clear);
}
