/*
 * The signal frame's rules (sigframe.h).  Pure C, for the kernel and the
 * host unit tests alike: no user memory, no CPU access.
 */
#include "sigframe.h"

/* Linux errno values (sys/errno.h is the kernel's; this file stays pure). */
#define SF_EPERM 1
#define SF_ENOMEM 12
#define SF_EINVAL 22

#define SF_FRAME_ALIGN 16u
#define SF_FPU_ALIGN 64u
#define SF_MXCSR_DEFAULT 0x1f80u

static uint64_t round_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/* --- registers --- */

uint64_t sigframe_uc_flags(const struct sigframe_regs *r, bool xsave)
{
	uint64_t f = UC_SIGCONTEXT_SS | (xsave ? UC_FP_XSTATE : 0);

	/* Only a signal from 64-bit code promises that its SS is worth restoring as is. */
	if (r->cs == SIGFRAME_USER_CS)
		f |= UC_STRICT_RESTORE_SS;
	return f;
}

void sigframe_save(struct el_sigcontext *sc, const struct sigframe_regs *r,
		   const struct sigframe_trap *trap, uint64_t oldmask, uint64_t fpstate)
{
	*sc = (struct el_sigcontext){
		.r8 = r->r8, .r9 = r->r9, .r10 = r->r10, .r11 = r->r11,
		.r12 = r->r12, .r13 = r->r13, .r14 = r->r14, .r15 = r->r15,
		.rdi = r->rdi, .rsi = r->rsi, .rbp = r->rbp, .rbx = r->rbx,
		.rdx = r->rdx, .rax = r->rax, .rcx = r->rcx, .rsp = r->rsp, .rip = r->rip,
		.eflags = r->rflags,
		.cs = (uint16_t)r->cs, .gs = 0, .fs = 0, .ss = (uint16_t)r->ss,
		.err = trap->err, .trapno = trap->trapno, .oldmask = oldmask, .cr2 = trap->cr2,
		.fpstate = fpstate,
	};
}

/* Linux's force_valid_ss: a selector the CPU would refuse as SS is replaced by the flat one. */
static void force_valid_ss(struct sigframe_regs *r, sigframe_ss_usable_fn *ss_usable)
{
	if (!ss_usable((uint16_t)r->ss))
		r->ss = SIGFRAME_USER_DS;
}

void sigframe_enter_handler(struct sigframe_regs *r, int sig, uint64_t frame, uint64_t handler,
			    sigframe_ss_usable_fn *ss_usable)
{
	r->rdi = (uint64_t)sig;
	r->rsi = frame + offsetof(struct el_rt_sigframe, info);
	r->rdx = frame + offsetof(struct el_rt_sigframe, uc);
	r->rax = 0; /* for handlers declared without a prototype (varargs) */
	r->rip = handler;
	r->rsp = frame;
	/* 64-bit code even if the signal interrupted 32- or 16-bit code. */
	r->cs = SIGFRAME_USER_CS;
	/* Keep a valid SS (DOSEMU reads the register); a bogus one (#GP/#SS from it) is replaced. */
	if (r->ss != SIGFRAME_USER_DS)
		force_valid_ss(r, ss_usable);
	r->rflags &= ~SIGFRAME_HANDLER_CLEAR;
}

void sigframe_restore(struct sigframe_regs *r, const struct el_sigcontext *sc,
		      uint64_t uc_flags, sigframe_ss_usable_fn *ss_usable)
{
	r->rbx = sc->rbx;
	r->rcx = sc->rcx;
	r->rdx = sc->rdx;
	r->rsi = sc->rsi;
	r->rdi = sc->rdi;
	r->rbp = sc->rbp;
	r->rax = sc->rax;
	r->rsp = sc->rsp;
	r->rip = sc->rip;
	r->r8 = sc->r8;
	r->r9 = sc->r9;
	r->r10 = sc->r10;
	r->r11 = sc->r11;
	r->r12 = sc->r12;
	r->r13 = sc->r13;
	r->r14 = sc->r14;
	r->r15 = sc->r15;
	/* Any selector with RPL 3: a bad one faults in IRET and becomes SIGSEGV/SIGBUS there. */
	r->cs = (uint64_t)(sc->cs | 3u);
	r->ss = (uint64_t)(sc->ss | 3u);
	r->rflags = (r->rflags & ~SIGFRAME_FIX_EFLAGS) | (sc->eflags & SIGFRAME_FIX_EFLAGS);
	r->error = (uint64_t)-1; /* no syscall to restart */
	if (!(uc_flags & UC_STRICT_RESTORE_SS) && r->cs == SIGFRAME_USER_CS)
		force_valid_ss(r, ss_usable);
}

/* --- the alternate stack --- */

void sigframe_altstack_reset(struct sigframe_altstack *a)
{
	a->sp = 0;
	a->size = 0;
	a->flags = SS_DISABLE;
}

bool sigframe_altstack_contains(const struct sigframe_altstack *a, uint64_t sp)
{
	/* The stack grows down: its top (sp + size) belongs to it, its bottom does not. */
	return sp > a->sp && sp - a->sp <= a->size;
}

bool sigframe_altstack_on(const struct sigframe_altstack *a, uint64_t sp)
{
	/* With SS_AUTODISARM a handler never runs on it while armed, whatever RSP says. */
	if (a->flags & SS_AUTODISARM)
		return false;
	return sigframe_altstack_contains(a, sp);
}

int sigframe_altstack_mode(const struct sigframe_altstack *a, uint64_t sp)
{
	if (!a->size)
		return SS_DISABLE;
	return sigframe_altstack_on(a, sp) ? SS_ONSTACK : 0;
}

void sigframe_altstack_get(const struct sigframe_altstack *a, uint64_t sp, struct el_stack *out)
{
	*out = (struct el_stack){
		.ss_sp = a->sp,
		.ss_flags = (int32_t)((uint32_t)sigframe_altstack_mode(a, sp) |
				      (a->flags & SS_AUTODISARM)),
		.ss_size = a->size,
	};
}

int sigframe_altstack_set(struct sigframe_altstack *a, uint64_t sp, const struct el_stack *ss,
			  uint64_t min_size)
{
	uint32_t flags = (uint32_t)ss->ss_flags, mode = flags & ~SS_AUTODISARM;
	uint64_t nsp = ss->ss_sp, nsize = ss->ss_size;

	if (sigframe_altstack_on(a, sp))
		return -SF_EPERM;
	if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
		return -SF_EINVAL;
	if (a->sp == nsp && a->size == nsize && a->flags == flags)
		return 0;
	if (mode == SS_DISABLE) {
		nsp = 0;
		nsize = 0;
	} else if (nsize < min_size) {
		return -SF_ENOMEM;
	}
	a->sp = nsp;
	a->size = nsize;
	a->flags = flags;
	return 0;
}

/* --- placing the frame --- */

bool sigframe_place(const struct sigframe_altstack *a, uint64_t user_sp, bool onstack,
		    uint32_t fp_bytes, struct sigframe_layout *out)
{
	bool nested = sigframe_altstack_on(a, user_sp), entering = false;
	uint64_t sp = user_sp - SIGFRAME_REDZONE;

	if (onstack && sigframe_altstack_mode(a, sp) == 0) {
		sp = a->sp + a->size;
		entering = true;
	}
	sp = round_down(sp - fp_bytes, SF_FPU_ALIGN);
	out->fpstate = sp;
	/* As after a CALL: RSP + 8 is 16-byte aligned at the handler's first instruction. */
	sp = round_down(sp - sizeof(struct el_rt_sigframe), SF_FRAME_ALIGN) - 8;
	out->frame = sp;
	return !((nested || entering) && !sigframe_altstack_contains(a, sp));
}

/* --- the FPU image --- */

uint32_t sigframe_fpu_frame_bytes(const struct sigframe_fpu_cfg *c)
{
	return c->size + (c->xsave ? FP_XSTATE_MAGIC2_SIZE : 0);
}

/* Linux's struct sigframe_ia32 (8-byte aligned by _fpstate_32's u64) and struct fregs_state. */
#define SF_IA32_SIGFRAME_SIZE 736u
#define SF_FREGS_STATE_SIZE 112u

uint64_t sigframe_min_stack_size(const struct sigframe_fpu_cfg *c)
{
	uint64_t n = SF_IA32_SIGFRAME_SIZE + (SF_FRAME_ALIGN - 1) + sigframe_fpu_frame_bytes(c) +
		     SF_FREGS_STATE_SIZE + (SF_FPU_ALIGN - 1);

	return round_down(n + SF_FRAME_ALIGN - 1, SF_FRAME_ALIGN);
}

uint32_t sigframe_fpu_xsave_size(const struct sigframe_fpu_cfg *c, uint64_t features)
{
	uint32_t size = SF_XSAVE_HDR_OFFSET + SF_XSAVE_HDR_SIZE;
	unsigned i;

	for (i = 2; i < SIGFRAME_XFEATURES_MAX; i++)
		if ((features & (1ull << i)) && c->comp_end[i] > size)
			size = c->comp_end[i];
	return size;
}

void sigframe_fpu_export(const struct sigframe_fpu_cfg *c, uint8_t *img)
{
	struct el_fpx_sw_bytes sw = {
		.magic1 = FP_XSTATE_MAGIC1,
		.extended_size = c->size + FP_XSTATE_MAGIC2_SIZE,
		.xfeatures = c->xfeatures,
		.xstate_size = c->size,
	};
	uint8_t *hdr = img + SF_XSAVE_HDR_OFFSET;

	__builtin_memcpy(img + offsetof(struct el_fpstate, sw_reserved), &sw, sizeof(sw));
	if (!c->xsave)
		return;
	/*
	 * FP and SSE always marked present: a program that edits only the
	 * legacy area (and knows nothing of XSTATE_BV) still gets its edit.
	 */
	put64(hdr, get64(hdr) | (SF_XFEATURE_FPSSE & c->xfeatures));
	__builtin_memset(hdr + 8, 0, SF_XSAVE_HDR_SIZE - 8);
}

static const struct el_fpx_sw_bytes *sw_bytes(const uint8_t *legacy)
{
	return (const struct el_fpx_sw_bytes *)(legacy + offsetof(struct el_fpstate, sw_reserved));
}

/* The extended information is usable (before the magic2 check). */
static bool sw_bytes_ok(const struct sigframe_fpu_cfg *c, const struct el_fpx_sw_bytes *sw)
{
	return sw->magic1 == FP_XSTATE_MAGIC1 &&
	       sw->xstate_size >= SF_XSAVE_HDR_OFFSET + SF_XSAVE_HDR_SIZE &&
	       sw->xstate_size <= c->size &&
	       sw->extended_size >= sw->xstate_size + FP_XSTATE_MAGIC2_SIZE;
}

uint32_t sigframe_fpu_magic2_offset(const struct sigframe_fpu_cfg *c, const uint8_t *legacy)
{
	const struct el_fpx_sw_bytes *sw = sw_bytes(legacy);

	return c->xsave && sw_bytes_ok(c, sw) ? sw->xstate_size : 0;
}

bool sigframe_fpu_plan(const struct sigframe_fpu_cfg *c, const uint8_t *legacy, uint32_t magic2,
		       struct sigframe_fpu_plan *p)
{
	const struct el_fpx_sw_bytes *sw = sw_bytes(legacy);

	/* Legacy programs copy only the FXSAVE area: FX only, the rest in init state. */
	*p = (struct sigframe_fpu_plan){true, SF_FXSAVE_SIZE, SF_XFEATURE_FPSSE};
	if (!c->xsave || !sw_bytes_ok(c, sw) || magic2 != FP_XSTATE_MAGIC2)
		return true;
	p->fx_only = false;
	p->copy = sw->xstate_size;
	p->mask = sw->xfeatures & c->xfeatures;
	if (sw->xstate_size != c->size || sw->xfeatures != c->xfeatures) {
		uint32_t need = sigframe_fpu_xsave_size(c, p->mask);

		/* An image that claims features it has no room for is refused, not guessed at. */
		if (sw->xstate_size < need)
			return false;
		p->copy = need;
	}
	return true;
}

bool sigframe_fpu_import(const struct sigframe_fpu_cfg *c, const struct sigframe_fpu_plan *p,
			 uint8_t *img)
{
	uint8_t *mxcsr = img + offsetof(struct el_fpstate, mxcsr), *hdr = img + SF_XSAVE_HDR_OFFSET;
	uint64_t bv, mask = p->mask & c->xfeatures;

	if (!c->xsave)
		return !(get32(mxcsr) & ~c->mxcsr_mask); /* FXRSTOR #GP */
	if (p->fx_only) {
		/* What FXRSTOR plus an init of every other feature would leave. */
		__builtin_memset(hdr, 0, c->size - SF_XSAVE_HDR_OFFSET);
		put64(hdr, SF_XFEATURE_FPSSE & c->xfeatures);
		return !(get32(mxcsr) & ~c->mxcsr_mask);
	}
	bv = get64(hdr);
	/* The standard form of XRSTOR: XSTATE_BV within XCR0, bytes 23:8 of the header zero. */
	if ((bv & ~c->xfeatures) || get64(hdr + 8) || get64(hdr + 16))
		return false;
	/* MXCSR is loaded with SSE or AVX state only; otherwise it takes its init value. */
	if (mask & 0x6) {
		if (get32(mxcsr) & ~c->mxcsr_mask)
			return false;
	} else {
		put32(mxcsr, SF_MXCSR_DEFAULT);
	}
	/* Features outside the mask come back in their init state, as Linux restores them. */
	put64(hdr, bv & mask);
	return true;
}
