/*
 * The host C library's view of the signal ABI (sigframe_host_abi.h): what a
 * program compiled here uses to read and edit a signal frame.
 */
#include <signal.h>
#include <stddef.h>
#include <sys/ucontext.h>

#include "sigframe_host_abi.h"

#define GREG(r) [r] = offsetof(mcontext_t, gregs) + (r) * sizeof(greg_t)

const struct sigframe_host_abi sigframe_host_abi = {
	.h_siginfo_size = sizeof(siginfo_t),
	.h_si_pid = offsetof(siginfo_t, si_pid),
	.h_si_uid = offsetof(siginfo_t, si_uid),
	.h_si_status = offsetof(siginfo_t, si_status),
	.h_si_utime = offsetof(siginfo_t, si_utime),
	.h_si_stime = offsetof(siginfo_t, si_stime),
	.h_si_addr = offsetof(siginfo_t, si_addr),
	.h_si_value = offsetof(siginfo_t, si_value),
	.h_stack_size = sizeof(stack_t),
	.h_ss_sp = offsetof(stack_t, ss_sp),
	.h_ss_flags = offsetof(stack_t, ss_flags),
	.h_ss_size = offsetof(stack_t, ss_size),
	.h_mcontext_size = sizeof(mcontext_t),
	.h_uc_mcontext = offsetof(ucontext_t, uc_mcontext),
	.h_uc_stack = offsetof(ucontext_t, uc_stack),
	.h_uc_link = offsetof(ucontext_t, uc_link),
	.h_uc_sigmask = offsetof(ucontext_t, uc_sigmask),
	.h_greg = {GREG(REG_R8), GREG(REG_R9), GREG(REG_R10), GREG(REG_R11), GREG(REG_R12),
		 GREG(REG_R13), GREG(REG_R14), GREG(REG_R15), GREG(REG_RDI), GREG(REG_RSI),
		 GREG(REG_RBP), GREG(REG_RBX), GREG(REG_RDX), GREG(REG_RAX), GREG(REG_RCX),
		 GREG(REG_RSP), GREG(REG_RIP), GREG(REG_EFL), GREG(REG_CSGSFS), GREG(REG_ERR),
		 GREG(REG_TRAPNO), GREG(REG_OLDMASK), GREG(REG_CR2)},
	.h_fpregs = offsetof(mcontext_t, fpregs),
	.h_sigcontext_size = sizeof(struct sigcontext),
	.h_sc_fpstate = offsetof(struct sigcontext, fpstate),
	.h_sc_cs = offsetof(struct sigcontext, cs),
	.h_sc_pad0_ss = offsetof(struct sigcontext, __pad0),
	.h_sc_err = offsetof(struct sigcontext, err),
	.h_sc_trapno = offsetof(struct sigcontext, trapno),
	.h_sc_cr2 = offsetof(struct sigcontext, cr2),
	.h_fpstate_size = sizeof(struct _fpstate),
	.h_fp_mxcsr = offsetof(struct _fpstate, mxcsr),
	.h_fp_mxcsr_mask = offsetof(struct _fpstate, mxcr_mask),
	.h_fp_st = offsetof(struct _fpstate, _st),
	.h_fp_xmm = offsetof(struct _fpstate, _xmm),
	.h_sw_bytes_size = sizeof(struct _fpx_sw_bytes),
	.h_magic1 = FP_XSTATE_MAGIC1,
	.h_magic2 = FP_XSTATE_MAGIC2,
	.h_magic2_size = FP_XSTATE_MAGIC2_SIZE,
	.h_sa_siginfo = SA_SIGINFO,
	.h_sa_onstack = SA_ONSTACK,
	.h_sa_restart = SA_RESTART,
	.h_sa_nodefer = SA_NODEFER,
	.h_sa_resethand = SA_RESETHAND,
	.h_sa_restorer = 0x04000000, /* not in the C library's headers: the kernel's uapi value */
	.h_sa_nocldstop = SA_NOCLDSTOP,
	.h_sa_nocldwait = SA_NOCLDWAIT,
	.h_ss_onstack = SS_ONSTACK,
	.h_ss_disable = SS_DISABLE,
#ifdef SS_AUTODISARM
	.h_ss_autodisarm = (long)(unsigned)SS_AUTODISARM,
#else
	.h_ss_autodisarm = (long)(1u << 31),
#endif
	.h_si_user = SI_USER,
	.h_si_kernel = SI_KERNEL,
	.h_si_tkill = SI_TKILL,
	.h_si_queue = SI_QUEUE,
	.h_segv_maperr = SEGV_MAPERR,
	.h_segv_accerr = SEGV_ACCERR,
	.h_bus_adraln = BUS_ADRALN,
	.h_ill_illopn = ILL_ILLOPN,
	.h_fpe_intdiv = FPE_INTDIV,
	.h_fpe_fltdiv = FPE_FLTDIV,
	.h_fpe_fltinv = FPE_FLTINV,
	.h_trap_brkpt = TRAP_BRKPT,
	.h_trap_trace = TRAP_TRACE,
	.h_cld_exited = CLD_EXITED,
	.h_cld_killed = CLD_KILLED,
	.h_sig_block = SIG_BLOCK,
	.h_sig_unblock = SIG_UNBLOCK,
	.h_sig_setmask = SIG_SETMASK,
	.h_sigsegv = SIGSEGV,
	.h_sigchld = SIGCHLD,
	.h_sigcont = SIGCONT,
	.h_sigstop = SIGSTOP,
	.h_sigsys = SIGSYS,
	.h_sigrtmin_kernel = 32, /* SIGRTMIN is a function of libc's reservations */
};
