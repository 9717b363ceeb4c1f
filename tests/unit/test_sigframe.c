/*
 * The guest kernel's signal frame (guest-kernel/proc/sigframe.c and
 * signal_frame.h): the layouts against this host's C library, what the
 * frame saves, where it goes, the handler's registers, and what
 * rt_sigreturn accepts and refuses of a context the program edited.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/proc/sigframe.h"
#include "sigframe_host_abi.h"

#define H sigframe_host_abi
#define KERNEL_CS 0x10u
#define USER32_CS 0x23u

/* ---- layouts ---- */

Test(sigframe_abi, siginfo_and_stack_match_the_c_library)
{
	cr_assert_eq(sizeof(struct el_siginfo), H.h_siginfo_size);
	cr_assert_eq(offsetof(struct el_siginfo, u.kill.pid), H.h_si_pid);
	cr_assert_eq(offsetof(struct el_siginfo, u.kill.uid), H.h_si_uid);
	cr_assert_eq(offsetof(struct el_siginfo, u.kill.value), H.h_si_value);
	cr_assert_eq(offsetof(struct el_siginfo, u.chld.status), H.h_si_status);
	cr_assert_eq(offsetof(struct el_siginfo, u.chld.utime), H.h_si_utime);
	cr_assert_eq(offsetof(struct el_siginfo, u.chld.stime), H.h_si_stime);
	cr_assert_eq(offsetof(struct el_siginfo, u.fault.addr), H.h_si_addr);
	cr_assert_eq(sizeof(struct el_stack), H.h_stack_size);
	cr_assert_eq(offsetof(struct el_stack, ss_sp), H.h_ss_sp);
	cr_assert_eq(offsetof(struct el_stack, ss_flags), H.h_ss_flags);
	cr_assert_eq(offsetof(struct el_stack, ss_size), H.h_ss_size);
}

Test(sigframe_abi, ucontext_and_gregs_match_the_c_library)
{
	static const size_t sc[23] = {
		offsetof(struct el_sigcontext, r8),     offsetof(struct el_sigcontext, r9),
		offsetof(struct el_sigcontext, r10),    offsetof(struct el_sigcontext, r11),
		offsetof(struct el_sigcontext, r12),    offsetof(struct el_sigcontext, r13),
		offsetof(struct el_sigcontext, r14),    offsetof(struct el_sigcontext, r15),
		offsetof(struct el_sigcontext, rdi),    offsetof(struct el_sigcontext, rsi),
		offsetof(struct el_sigcontext, rbp),    offsetof(struct el_sigcontext, rbx),
		offsetof(struct el_sigcontext, rdx),    offsetof(struct el_sigcontext, rax),
		offsetof(struct el_sigcontext, rcx),    offsetof(struct el_sigcontext, rsp),
		offsetof(struct el_sigcontext, rip),    offsetof(struct el_sigcontext, eflags),
		offsetof(struct el_sigcontext, cs),     offsetof(struct el_sigcontext, err),
		offsetof(struct el_sigcontext, trapno), offsetof(struct el_sigcontext, oldmask),
		offsetof(struct el_sigcontext, cr2),
	};
	unsigned i;

	for (i = 0; i < 23; i++)
		cr_assert_eq(sc[i], H.h_greg[i], "gregs[%u] at %zu, sigcontext has it at %zu", i,
			     H.h_greg[i], sc[i]);
	cr_assert_eq(offsetof(struct el_sigcontext, fpstate), H.h_fpregs);
	cr_assert_eq(sizeof(struct el_sigcontext), H.h_mcontext_size);
	cr_assert_eq(sizeof(struct el_sigcontext), H.h_sigcontext_size);
	cr_assert_eq(offsetof(struct el_sigcontext, fpstate), H.h_sc_fpstate);
	cr_assert_eq(offsetof(struct el_sigcontext, cs), H.h_sc_cs);
	cr_assert_eq(offsetof(struct el_sigcontext, ss), H.h_sc_pad0_ss, "ss is the old __pad0");
	cr_assert_eq(offsetof(struct el_sigcontext, err), H.h_sc_err);
	cr_assert_eq(offsetof(struct el_sigcontext, trapno), H.h_sc_trapno);
	cr_assert_eq(offsetof(struct el_sigcontext, cr2), H.h_sc_cr2);
	cr_assert_eq(offsetof(struct el_ucontext, uc_link), H.h_uc_link);
	cr_assert_eq(offsetof(struct el_ucontext, uc_stack), H.h_uc_stack);
	cr_assert_eq(offsetof(struct el_ucontext, uc_mcontext), H.h_uc_mcontext);
	cr_assert_eq(offsetof(struct el_ucontext, uc_sigmask), H.h_uc_sigmask);
}

Test(sigframe_abi, fpstate_matches_the_c_library)
{
	cr_assert_eq(sizeof(struct el_fpstate), H.h_fpstate_size);
	cr_assert_eq(offsetof(struct el_fpstate, mxcsr), H.h_fp_mxcsr);
	cr_assert_eq(offsetof(struct el_fpstate, mxcsr_mask), H.h_fp_mxcsr_mask);
	cr_assert_eq(offsetof(struct el_fpstate, st_space), H.h_fp_st);
	cr_assert_eq(offsetof(struct el_fpstate, xmm_space), H.h_fp_xmm);
	cr_assert_eq(sizeof(struct el_fpx_sw_bytes), H.h_sw_bytes_size);
	cr_assert_eq(FP_XSTATE_MAGIC1, H.h_magic1);
	cr_assert_eq(FP_XSTATE_MAGIC2, H.h_magic2);
	cr_assert_eq(FP_XSTATE_MAGIC2_SIZE, H.h_magic2_size);
}

Test(sigframe_abi, numbers_match_the_c_library)
{
	cr_assert_eq(SA_SIGINFO, H.h_sa_siginfo);
	cr_assert_eq(SA_ONSTACK, H.h_sa_onstack);
	cr_assert_eq(SA_RESTART, H.h_sa_restart);
	cr_assert_eq(SA_NODEFER, H.h_sa_nodefer);
	cr_assert_eq(SA_RESETHAND, H.h_sa_resethand);
	cr_assert_eq(SA_RESTORER, H.h_sa_restorer);
	cr_assert_eq(SA_NOCLDSTOP, H.h_sa_nocldstop);
	cr_assert_eq(SA_NOCLDWAIT, H.h_sa_nocldwait);
	cr_assert_eq(SS_ONSTACK, H.h_ss_onstack);
	cr_assert_eq(SS_DISABLE, H.h_ss_disable);
	cr_assert_eq((long)SS_AUTODISARM, H.h_ss_autodisarm);
	cr_assert_eq(SI_USER, H.h_si_user);
	cr_assert_eq(SI_KERNEL, H.h_si_kernel);
	cr_assert_eq(SI_TKILL, H.h_si_tkill);
	cr_assert_eq(SI_QUEUE, H.h_si_queue);
	cr_assert_eq(SEGV_MAPERR, H.h_segv_maperr);
	cr_assert_eq(SEGV_ACCERR, H.h_segv_accerr);
	cr_assert_eq(BUS_ADRALN, H.h_bus_adraln);
	cr_assert_eq(ILL_ILLOPN, H.h_ill_illopn);
	cr_assert_eq(FPE_INTDIV, H.h_fpe_intdiv);
	cr_assert_eq(FPE_FLTDIV, H.h_fpe_fltdiv);
	cr_assert_eq(FPE_FLTINV, H.h_fpe_fltinv);
	cr_assert_eq(TRAP_BRKPT, H.h_trap_brkpt);
	cr_assert_eq(TRAP_TRACE, H.h_trap_trace);
	cr_assert_eq(CLD_EXITED, H.h_cld_exited);
	cr_assert_eq(CLD_KILLED, H.h_cld_killed);
	cr_assert_eq(SIG_BLOCK, H.h_sig_block);
	cr_assert_eq(SIG_UNBLOCK, H.h_sig_unblock);
	cr_assert_eq(SIG_SETMASK, H.h_sig_setmask);
	cr_assert_eq(SIGSEGV, H.h_sigsegv);
	cr_assert_eq(SIGCHLD, H.h_sigchld);
	cr_assert_eq(SIGCONT, H.h_sigcont);
	cr_assert_eq(SIGSTOP, H.h_sigstop);
	cr_assert_eq(SIGSYS, H.h_sigsys);
	cr_assert_eq(SIGRTMIN, H.h_sigrtmin_kernel);
}

Test(sigframe_abi, rt_sigframe_is_linux_s)
{
	cr_assert_eq(sizeof(struct el_rt_sigframe), 440);
	cr_assert_eq(offsetof(struct el_rt_sigframe, uc), 8);
	cr_assert_eq(offsetof(struct el_rt_sigframe, info), 312);
	cr_assert_eq(offsetof(struct el_fpstate, sw_reserved), 464);
}

/* ---- registers ---- */

static unsigned ss_checks;
static bool ss_ok_answer;

static bool ss_usable_fake(uint16_t sel)
{
	(void)sel;
	ss_checks++;
	return ss_ok_answer;
}

/* Every register a distinct value, as a 64-bit user context after an interrupt. */
static struct sigframe_regs sample_regs(void)
{
	struct sigframe_regs r;
	uint64_t *w = (uint64_t *)&r;
	unsigned i;

	for (i = 0; i < sizeof(r) / 8; i++)
		w[i] = 0x1111111111111111ull * (i + 1);
	r.vector = 32;
	r.error = 0;
	r.cs = SIGFRAME_USER_CS;
	r.ss = SIGFRAME_USER_DS;
	r.rflags = 0x246; /* IF ZF PF */
	r.rip = 0x401000;
	r.rsp = 0x7ffffffde000;
	return r;
}

Test(sigframe_regs, save_puts_every_register_in_its_greg)
{
	struct sigframe_regs r = sample_regs();
	struct sigframe_trap trap = {.trapno = 14, .err = 6, .cr2 = 0xdead000};
	struct el_sigcontext sc;

	memset(&sc, 0xa5, sizeof(sc));
	sigframe_save(&sc, &r, &trap, 0x5555, 0x7fff0000);
	cr_assert_eq(sc.r8, r.r8);
	cr_assert_eq(sc.r9, r.r9);
	cr_assert_eq(sc.r10, r.r10);
	cr_assert_eq(sc.r11, r.r11);
	cr_assert_eq(sc.r12, r.r12);
	cr_assert_eq(sc.r13, r.r13);
	cr_assert_eq(sc.r14, r.r14);
	cr_assert_eq(sc.r15, r.r15);
	cr_assert_eq(sc.rdi, r.rdi);
	cr_assert_eq(sc.rsi, r.rsi);
	cr_assert_eq(sc.rbp, r.rbp);
	cr_assert_eq(sc.rbx, r.rbx);
	cr_assert_eq(sc.rdx, r.rdx);
	cr_assert_eq(sc.rax, r.rax);
	cr_assert_eq(sc.rcx, r.rcx);
	cr_assert_eq(sc.rsp, r.rsp);
	cr_assert_eq(sc.rip, r.rip);
	cr_assert_eq(sc.eflags, r.rflags);
	cr_assert_eq(sc.cs, SIGFRAME_USER_CS);
	cr_assert_eq(sc.ss, SIGFRAME_USER_DS);
	cr_assert_eq(sc.fs, 0);
	cr_assert_eq(sc.gs, 0);
	cr_assert_eq(sc.trapno, 14);
	cr_assert_eq(sc.err, 6);
	cr_assert_eq(sc.cr2, 0xdead000);
	cr_assert_eq(sc.oldmask, 0x5555);
	cr_assert_eq(sc.fpstate, 0x7fff0000);
	cr_assert_eq(sc.reserved1[0], 0);
	cr_assert_eq(sc.reserved1[7], 0);
}

Test(sigframe_regs, uc_flags_strict_ss_only_from_64_bit_code)
{
	struct sigframe_regs r = sample_regs();

	cr_assert_eq(sigframe_uc_flags(&r, false), UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS);
	cr_assert_eq(sigframe_uc_flags(&r, true),
		     UC_FP_XSTATE | UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS);
	r.cs = USER32_CS;
	cr_assert_eq(sigframe_uc_flags(&r, false), UC_SIGCONTEXT_SS);
}

Test(sigframe_regs, handler_entry_registers)
{
	struct sigframe_regs r = sample_regs(), before;

	r.rflags |= SF_RFLAGS_TF | SF_RFLAGS_DF | SF_RFLAGS_RF | SF_RFLAGS_CF;
	before = r;
	ss_checks = 0;
	sigframe_enter_handler(&r, 11, 0x7fffffffd008, 0x401234, ss_usable_fake);
	cr_assert_eq(r.rdi, 11);
	cr_assert_eq(r.rsi, 0x7fffffffd008 + 312, "rsi = &frame->info");
	cr_assert_eq(r.rdx, 0x7fffffffd008 + 8, "rdx = &frame->uc");
	cr_assert_eq(r.rax, 0);
	cr_assert_eq(r.rip, 0x401234);
	cr_assert_eq(r.rsp, 0x7fffffffd008);
	cr_assert_eq(r.cs, SIGFRAME_USER_CS);
	cr_assert_eq(r.ss, SIGFRAME_USER_DS);
	cr_assert_eq(ss_checks, 0, "the flat SS needs no check");
	cr_assert_eq(r.rflags, (before.rflags & ~(SF_RFLAGS_TF | SF_RFLAGS_DF | SF_RFLAGS_RF)),
		     "TF, DF, RF cleared, the rest kept: %#lx", (unsigned long)r.rflags);
	cr_assert_eq(r.rbx, before.rbx, "callee registers untouched");
	cr_assert_eq(r.r12, before.r12);
}

Test(sigframe_regs, handler_entry_from_32_bit_code_with_odd_ss)
{
	struct sigframe_regs r = sample_regs();

	r.cs = USER32_CS;
	r.ss = 0x37; /* an LDT data segment */
	ss_ok_answer = true;
	sigframe_enter_handler(&r, 5, 0x1008, 0x2000, ss_usable_fake);
	cr_assert_eq(r.cs, SIGFRAME_USER_CS, "handlers always run 64-bit");
	cr_assert_eq(r.ss, 0x37, "a usable SS is kept (DOSEMU reads it)");
	r.ss = 0x3f;
	ss_ok_answer = false;
	sigframe_enter_handler(&r, 5, 0x1008, 0x2000, ss_usable_fake);
	cr_assert_eq(r.ss, SIGFRAME_USER_DS, "a bogus SS is replaced");
}

/* ---- rt_sigreturn: accepted ---- */

static struct el_sigcontext context_of(const struct sigframe_regs *r)
{
	struct sigframe_trap trap = {0};
	struct el_sigcontext sc;

	sigframe_save(&sc, r, &trap, 0, 0);
	return sc;
}

Test(sigreturn_accepts, an_unchanged_context_comes_back_exactly)
{
	struct sigframe_regs r = sample_regs(), k = sample_regs();
	struct el_sigcontext sc = context_of(&r);

	k.rip = 0x55; /* the restorer's syscall frame: everything but RFLAGS is replaced */
	k.rcx = 0x56;
	k.vector = 0x100;
	k.error = 15;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS, ss_usable_fake);
	r.error = (uint64_t)-1;
	r.vector = 0x100;
	cr_assert_eq(memcmp(&k, &r, sizeof(r)), 0, "every register, RCX and R11 included");
}

Test(sigreturn_accepts, edits_of_registers_rip_rsp_and_user_flags)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);
	uint64_t user_flags = SIGFRAME_FIX_EFLAGS;

	sc.rip = 0x402000;
	sc.rsp = 0x7ffff000;
	sc.rcx = 1;
	sc.r11 = 2;
	sc.eflags = user_flags;
	k.rflags = 0x202;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.rip, 0x402000);
	cr_assert_eq(k.rsp, 0x7ffff000);
	cr_assert_eq(k.rcx, 1);
	cr_assert_eq(k.r11, 2);
	cr_assert_eq(k.rflags, 0x202 | SIGFRAME_FIX_EFLAGS,
		     "AC OF DF TF SF ZF AF PF CF RF from the user: %#lx", (unsigned long)k.rflags);
	cr_assert(k.rflags & SF_RFLAGS_TF, "TF is the user's to set: a trap after one instruction");
	cr_assert_eq(k.error, (uint64_t)-1, "no syscall restart after sigreturn");
}

Test(sigreturn_accepts, a_non_canonical_rip_is_for_iret_to_refuse)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	sc.rip = 1ull << 47;
	sigframe_restore(&k, &sc, UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.rip, 1ull << 47, "Linux restores it: the return faults, SIGSEGV");
}

Test(sigreturn_accepts, a_32_bit_code_segment)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	sc.cs = USER32_CS;
	sc.ss = SIGFRAME_USER_DS;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS, ss_usable_fake);
	cr_assert_eq(k.cs, USER32_CS);
	cr_assert_eq(k.ss, SIGFRAME_USER_DS);
}

/* ---- rt_sigreturn: refused ---- */

Test(sigreturn_refuses, privileged_and_system_flags)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	k.rflags = 0x202; /* IF */
	/* IOPL 3, NT, VM, VIF, VIP, ID, and IF cleared: none of them is the user's. */
	sc.eflags = 0x3000 | 0x4000 | 0x20000 | 0x80000 | 0x100000 | 0x200000;
	sigframe_restore(&k, &sc, UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.rflags, 0x202, "only FIX_EFLAGS bits change: %#lx", (unsigned long)k.rflags);
}

Test(sigreturn_refuses, kernel_privilege_in_cs_and_ss)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	sc.cs = KERNEL_CS;
	sc.ss = 0x18;
	sigframe_restore(&k, &sc, UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.cs, KERNEL_CS | 3, "RPL 3 forced: IRET refuses the DPL-0 segment");
	cr_assert_eq(k.ss, 0x18 | 3);
	sc.cs = 0x30;
	sigframe_restore(&k, &sc, UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.cs, SIGFRAME_USER_CS);
}

Test(sigreturn_refuses, a_bogus_ss_without_strict_restore_from_64_bit_code)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	sc.ss = 0;
	ss_ok_answer = false;
	ss_checks = 0;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS, ss_usable_fake);
	cr_assert_eq(k.ss, SIGFRAME_USER_DS, "DOSEMU's case: the flat SS instead");
	cr_assert_eq(ss_checks, 1);
}

Test(sigreturn_refuses, nothing_else_about_ss)
{
	struct sigframe_regs k = sample_regs();
	struct el_sigcontext sc = context_of(&k);

	/* Strict: the bogus SS is restored, and the IRET faults (SIGSEGV) as on Linux. */
	sc.ss = 0x4;
	ss_ok_answer = false;
	ss_checks = 0;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS, ss_usable_fake);
	cr_assert_eq(k.ss, 0x7);
	cr_assert_eq(ss_checks, 0);
	/* Not strict but 32-bit code: kept as well (its SS matters). */
	sc.cs = USER32_CS;
	sigframe_restore(&k, &sc, UC_SIGCONTEXT_SS, ss_usable_fake);
	cr_assert_eq(k.ss, 0x7);
	cr_assert_eq(ss_checks, 0);
	/* Not strict, 64-bit, usable: kept. */
	sc.cs = SIGFRAME_USER_CS;
	sc.ss = 0x37;
	ss_ok_answer = true;
	sigframe_restore(&k, &sc, 0, ss_usable_fake);
	cr_assert_eq(k.ss, 0x37);
}

/* ---- the alternate stack ---- */

#define ALT_SP 0x10000ull
#define ALT_SIZE 0x4000ull

static struct sigframe_altstack alt_set(uint32_t flags)
{
	struct sigframe_altstack a;
	struct el_stack ss = {.ss_sp = ALT_SP, .ss_flags = (int32_t)flags, .ss_size = ALT_SIZE};

	sigframe_altstack_reset(&a);
	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), 0);
	return a;
}

Test(altstack, none_at_first)
{
	struct sigframe_altstack a;
	struct el_stack o;

	sigframe_altstack_reset(&a);
	sigframe_altstack_get(&a, 0x1234, &o);
	cr_assert_eq(o.ss_flags, SS_DISABLE);
	cr_assert_eq(o.ss_sp, 0);
	cr_assert_eq(o.ss_size, 0);
}

Test(altstack, on_it_is_reported_top_inclusive_bottom_exclusive)
{
	struct sigframe_altstack a = alt_set(0);
	struct el_stack o;

	cr_assert(sigframe_altstack_contains(&a, ALT_SP + ALT_SIZE));
	cr_assert(!sigframe_altstack_contains(&a, ALT_SP));
	cr_assert(sigframe_altstack_contains(&a, ALT_SP + 1));
	cr_assert(!sigframe_altstack_contains(&a, ALT_SP + ALT_SIZE + 1));
	sigframe_altstack_get(&a, ALT_SP + 0x100, &o);
	cr_assert_eq(o.ss_flags, SS_ONSTACK);
	sigframe_altstack_get(&a, 0x7fff0000, &o);
	cr_assert_eq(o.ss_flags, 0);
	cr_assert_eq(o.ss_sp, ALT_SP);
	cr_assert_eq(o.ss_size, ALT_SIZE);
}

Test(altstack, refused_settings)
{
	struct sigframe_altstack a = alt_set(0);
	struct el_stack ss = {.ss_sp = 0x20000, .ss_flags = 0, .ss_size = MINSIGSTKSZ - 1};

	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), -12, "ENOMEM");
	ss.ss_size = MINSIGSTKSZ;
	ss.ss_flags = 4;
	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), -22, "EINVAL");
	ss.ss_flags = 0;
	cr_assert_eq(sigframe_altstack_set(&a, ALT_SP + 0x10, &ss, MINSIGSTKSZ), -1,
		     "EPERM while running on it");
	cr_assert_eq(a.sp, ALT_SP, "unchanged after refusals");
	cr_assert_eq(a.size, ALT_SIZE);
}

Test(altstack, accepted_settings)
{
	struct sigframe_altstack a = alt_set(0);
	struct el_stack ss = {.ss_sp = 0x99, .ss_flags = SS_DISABLE, .ss_size = 5}, o;

	/* SS_ONSTACK as a request means 0 (old programs pass it). */
	ss.ss_flags = SS_ONSTACK;
	ss.ss_size = MINSIGSTKSZ;
	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), 0);
	cr_assert_eq(a.size, MINSIGSTKSZ);
	ss.ss_flags = SS_DISABLE;
	ss.ss_size = 5;
	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), 0,
		     "disabling ignores the size");
	sigframe_altstack_get(&a, 0x7fff0000, &o);
	cr_assert_eq(o.ss_flags, SS_DISABLE);
	cr_assert_eq(o.ss_sp, 0);
	cr_assert_eq(o.ss_size, 0);
}

Test(altstack, autodisarm_is_never_on_and_is_reported)
{
	struct sigframe_altstack a = alt_set(SS_AUTODISARM);
	struct el_stack o, ss = {.ss_sp = 0x50000, .ss_size = ALT_SIZE};

	cr_assert(!sigframe_altstack_on(&a, ALT_SP + 0x100));
	sigframe_altstack_get(&a, ALT_SP + 0x100, &o);
	cr_assert_eq((uint32_t)o.ss_flags, SS_AUTODISARM, "not SS_ONSTACK, the flag kept");
	cr_assert_eq(sigframe_altstack_set(&a, ALT_SP + 0x100, &ss, MINSIGSTKSZ), 0,
		     "may change it from on it");
}

/* ---- placing the frame ---- */

static void check_layout(const struct sigframe_layout *l, uint32_t fp_bytes, uint64_t top)
{
	cr_assert_eq(l->frame % 16, 8, "RSP as after a CALL: %#lx", (unsigned long)l->frame);
	cr_assert_eq(l->fpstate % 64, 0);
	cr_assert_geq(l->fpstate, l->frame + sizeof(struct el_rt_sigframe));
	cr_assert_leq(l->fpstate + fp_bytes, top);
}

Test(sigframe_place, below_the_red_zone)
{
	struct sigframe_altstack a;
	struct sigframe_layout l;
	uint64_t sp = 0x7ffffffde123;

	sigframe_altstack_reset(&a);
	cr_assert(sigframe_place(&a, sp, true, 516, &l), "SA_ONSTACK without a stack: the normal one");
	check_layout(&l, 516, sp - 128);
	cr_assert_eq(l.fpstate, (sp - 128 - 516) & ~63ull);
	cr_assert_eq(l.frame, ((l.fpstate - 440) & ~15ull) - 8);
}

Test(sigframe_place, on_the_alternate_stack)
{
	struct sigframe_altstack a = alt_set(0);
	struct sigframe_layout l, l2;

	cr_assert(sigframe_place(&a, 0x7ffffffde000, true, 512, &l));
	check_layout(&l, 512, ALT_SP + ALT_SIZE);
	cr_assert(sigframe_altstack_contains(&a, l.frame));
	cr_assert(sigframe_place(&a, 0x7ffffffde000, false, 512, &l2));
	cr_assert(!sigframe_altstack_contains(&a, l2.frame), "without SA_ONSTACK: the normal stack");
	/* A nested signal continues below the handler's RSP on it. */
	cr_assert(sigframe_place(&a, l.frame, true, 512, &l2));
	cr_assert_lt(l2.frame, l.frame);
	check_layout(&l2, 512, l.frame - 128);
}

Test(sigframe_place, overflowing_the_alternate_stack_is_refused)
{
	struct sigframe_altstack a;
	struct el_stack ss = {.ss_sp = ALT_SP, .ss_size = 2049};
	struct sigframe_layout l;

	sigframe_altstack_reset(&a);
	cr_assert_eq(sigframe_altstack_set(&a, 0x7fff0000, &ss, MINSIGSTKSZ), 0);
	cr_assert(sigframe_place(&a, 0x7fff0000, true, 516, &l), "an FXSAVE frame fits 2049");
	cr_assert(!sigframe_place(&a, 0x7fff0000, true, 2700, &l), "an AVX-512 one does not");
	/* Nested deep on it: refused too, even without SA_ONSTACK. */
	cr_assert(!sigframe_place(&a, ALT_SP + 0x200, false, 516, &l));
}

Test(sigframe_place, autodisarm_starts_again_at_the_top)
{
	struct sigframe_altstack a = alt_set(SS_AUTODISARM);
	struct sigframe_layout l;

	cr_assert(sigframe_place(&a, ALT_SP + 0x800, true, 512, &l));
	check_layout(&l, 512, ALT_SP + ALT_SIZE);
	cr_assert_gt(l.frame, ALT_SP + 0x800, "not below the interrupted RSP");
}

/* ---- the FPU image ---- */

#define XSAVE_AVX_SIZE 832u /* legacy + header + YMM_Hi128 (256 bytes at 576) */

static struct sigframe_fpu_cfg fx_cfg(void)
{
	return (struct sigframe_fpu_cfg){.xsave = false, .size = 512, .xfeatures = 3,
					 .mxcsr_mask = 0xffff};
}

static struct sigframe_fpu_cfg xs_cfg(void)
{
	struct sigframe_fpu_cfg c = {.xsave = true, .size = XSAVE_AVX_SIZE, .xfeatures = 7,
				     .mxcsr_mask = 0xffff};

	c.comp_end[2] = 576 + 256;
	return c;
}

static uint8_t img[4096] __attribute__((aligned(64)));

static uint32_t rd32(uint32_t off)
{
	uint32_t v;

	memcpy(&v, img + off, 4);
	return v;
}

static uint64_t rd64(uint32_t off)
{
	uint64_t v;

	memcpy(&v, img + off, 8);
	return v;
}

static void wr32(uint32_t off, uint32_t v)
{
	memcpy(img + off, &v, 4);
}

static void wr64(uint32_t off, uint64_t v)
{
	memcpy(img + off, &v, 8);
}

/* A saved image as the CPU leaves it: MXCSR default, AVX in use, garbage in the SW bytes. */
static void saved_image(const struct sigframe_fpu_cfg *c)
{
	memset(img, 0, sizeof(img));
	wr32(24, 0x1f80);
	memset(img + 464, 0xee, 48);
	if (c->xsave) {
		wr64(512, 0x4); /* only AVX non-init: FP/SSE bits clear */
		wr64(520, 0x99); /* an XCOMP_BV the frame must not carry */
	}
}

Test(sigframe_fpu, export_fxsave)
{
	struct sigframe_fpu_cfg c = fx_cfg();
	const struct el_fpx_sw_bytes *sw = (const void *)(img + 464);

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	cr_assert_eq(sw->magic1, FP_XSTATE_MAGIC1);
	cr_assert_eq(sw->extended_size, 512 + 4);
	cr_assert_eq(sw->xstate_size, 512);
	cr_assert_eq(sw->xfeatures, 3);
	cr_assert_eq(sw->padding[6], 0);
	cr_assert_eq(sigframe_fpu_frame_bytes(&c), 512, "no magic2 without XSAVE");
}

Test(sigframe_fpu, export_xsave)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	const struct el_fpx_sw_bytes *sw = (const void *)(img + 464);

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	cr_assert_eq(sw->magic1, FP_XSTATE_MAGIC1);
	cr_assert_eq(sw->xstate_size, XSAVE_AVX_SIZE);
	cr_assert_eq(sw->extended_size, XSAVE_AVX_SIZE + 4);
	cr_assert_eq(sw->xfeatures, 7);
	cr_assert_eq(rd64(512), 0x7, "FP|SSE always marked present");
	cr_assert_eq(rd64(520), 0, "the rest of the header zeroed");
	cr_assert_eq(sigframe_fpu_frame_bytes(&c), XSAVE_AVX_SIZE + 4);
	cr_assert_eq(sigframe_fpu_xsave_size(&c, 3), 576);
	cr_assert_eq(sigframe_fpu_xsave_size(&c, 7), XSAVE_AVX_SIZE);
}

/* Linux's get_sigframe_size(), checked against what Linux reports (AT_MINSIGSTKSZ). */
Test(sigframe_fpu, min_stack_size_is_linux_s)
{
	struct sigframe_fpu_cfg fx = fx_cfg(), avx = xs_cfg(), avx512 = xs_cfg();

	avx512.size = 2432;
	cr_assert_eq(sigframe_min_stack_size(&avx512), 3376,
		     "Linux 6.18 with XCR0 0xe7 (2432-byte image) reports 3376");
	cr_assert_eq(sigframe_min_stack_size(&avx), 1776, "736+15+832+4+112+63 rounded up to 16");
	cr_assert_eq(sigframe_min_stack_size(&fx), 1440, "736+15+512+112+63 (no magic2) rounded");
}

/* The kernel's sigreturn path on img: plan from the magic2 the frame holds, then import. */
static bool sigreturn_fpu(const struct sigframe_fpu_cfg *c, uint32_t magic2,
			  struct sigframe_fpu_plan *p)
{
	uint32_t off = sigframe_fpu_magic2_offset(c, img);

	if (off)
		cr_assert_eq(off, ((const struct el_fpx_sw_bytes *)(img + 464))->xstate_size);
	if (!sigframe_fpu_plan(c, img, off ? magic2 : 0, p))
		return false;
	memset(img + p->copy, 0, c->size - p->copy);
	return sigframe_fpu_import(c, p, img);
}

Test(sigframe_fpu_accepts, an_unchanged_fxsave_image)
{
	struct sigframe_fpu_cfg c = fx_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	cr_assert(sigreturn_fpu(&c, 0, &p));
	cr_assert(p.fx_only);
	cr_assert_eq(p.copy, 512);
	cr_assert_eq(rd32(24), 0x1f80);
}

Test(sigframe_fpu_accepts, an_unchanged_xsave_image)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert(!p.fx_only);
	cr_assert_eq(p.copy, XSAVE_AVX_SIZE);
	cr_assert_eq(p.mask, 7);
	cr_assert_eq(rd64(512), 7, "XSTATE_BV as the frame has it");
}

Test(sigframe_fpu_accepts, a_legacy_image_without_magic_as_fx_only)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	wr32(464, 0); /* a program that copied a bare FXSAVE image */
	wr64(512, 0xffff);
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert(p.fx_only);
	cr_assert_eq(rd64(512), 3, "FP|SSE from the image, the rest in init state");
	cr_assert_eq(rd64(520), 0);
}

Test(sigframe_fpu_accepts, a_missing_magic2_as_fx_only)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	cr_assert(sigreturn_fpu(&c, 0x12345678, &p));
	cr_assert(p.fx_only);
	cr_assert_eq(rd64(512), 3);
}

Test(sigframe_fpu_accepts, oversized_claims_as_fx_only)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct el_fpx_sw_bytes *sw = (void *)(img + 464);
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	sw->xstate_size = XSAVE_AVX_SIZE + 64; /* more than this CPU saves */
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert(p.fx_only);
	sigframe_fpu_export(&c, img);
	sw->extended_size = sw->xstate_size; /* no room for the magic2 */
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert(p.fx_only);
}

Test(sigframe_fpu_accepts, fewer_features_puts_the_others_in_init_state)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct el_fpx_sw_bytes *sw = (void *)(img + 464);
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	sw->xfeatures = 3;
	sw->xstate_size = 576;
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert(!p.fx_only);
	cr_assert_eq(p.copy, 576);
	cr_assert_eq(p.mask, 3);
	cr_assert_eq(rd64(512), 3, "AVX dropped from XSTATE_BV: init state");
}

Test(sigframe_fpu_accepts, no_sse_mask_takes_the_default_mxcsr)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct el_fpx_sw_bytes *sw = (void *)(img + 464);
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	sw->xfeatures = 1;
	sw->xstate_size = 576;
	wr32(24, 0xffffffff); /* not loaded when neither SSE nor AVX is restored */
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert_eq(rd32(24), 0x1f80);
	cr_assert_eq(rd64(512), 1);
}

Test(sigframe_fpu_refuses, reserved_mxcsr_bits)
{
	struct sigframe_fpu_cfg fx = fx_cfg(), xs = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&fx);
	sigframe_fpu_export(&fx, img);
	wr32(24, 0x10000);
	cr_assert(!sigreturn_fpu(&fx, 0, &p), "FXRSTOR would #GP");
	saved_image(&xs);
	sigframe_fpu_export(&xs, img);
	wr32(24, 0x1f80 | 0x40000);
	cr_assert(!sigreturn_fpu(&xs, FP_XSTATE_MAGIC2, &p), "XRSTOR would #GP");
	sigframe_fpu_export(&xs, img);
	wr32(464, 0);
	cr_assert(!sigreturn_fpu(&xs, FP_XSTATE_MAGIC2, &p), "FX only: FXRSTOR would #GP");
	xs.mxcsr_mask = 0xffbf; /* a CPU without DAZ */
	saved_image(&xs);
	sigframe_fpu_export(&xs, img);
	wr32(24, 0x1f80 | 0x40);
	cr_assert(!sigreturn_fpu(&xs, FP_XSTATE_MAGIC2, &p));
}

Test(sigframe_fpu_refuses, xstate_bv_beyond_xcr0)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	wr64(512, 0x7 | 0x200);
	cr_assert(!sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
}

Test(sigframe_fpu_refuses, a_compacted_or_dirty_header)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	wr64(520, 1ull << 63 | 7);
	cr_assert(!sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p), "XCOMP_BV set");
	sigframe_fpu_export(&c, img);
	wr64(528, 1);
	cr_assert(!sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p), "header bytes 23:16 set");
}

Test(sigframe_fpu_refuses, features_claimed_without_room)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct el_fpx_sw_bytes *sw = (void *)(img + 464);
	struct sigframe_fpu_plan p;

	saved_image(&c);
	sigframe_fpu_export(&c, img);
	sw->xstate_size = 600; /* AVX claimed, 832 needed */
	cr_assert(!sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
}

Test(sigframe_fpu, export_marks_only_features_the_cpu_saves)
{
	struct sigframe_fpu_cfg c = xs_cfg();
	struct sigframe_fpu_plan p;

	/* XCR0 as a nested hypervisor may leave it: x87 only. */
	c.xfeatures = 1;
	c.size = 576;
	saved_image(&c);
	wr64(512, 1);
	sigframe_fpu_export(&c, img);
	cr_assert_eq(rd64(512), 1, "SSE is not claimed when XSAVE cannot restore it");
	cr_assert(sigreturn_fpu(&c, FP_XSTATE_MAGIC2, &p));
	cr_assert_eq(rd64(512), 1);
}
