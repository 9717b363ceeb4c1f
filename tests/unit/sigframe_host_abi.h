/*
 * Linux's user-visible signal layouts as this host's C library declares
 * them (sigframe_host_abi.c), for test_sigframe.c to compare with the guest
 * kernel's signal_frame.h: the two sets of headers cannot meet in one file
 * (they define the same macro names).
 */
#ifndef EL_TEST_SIGFRAME_HOST_ABI_H
#define EL_TEST_SIGFRAME_HOST_ABI_H

#include <stddef.h>

struct sigframe_host_abi {
	size_t h_siginfo_size, h_si_pid, h_si_uid, h_si_status, h_si_utime, h_si_stime,
		h_si_addr, h_si_value;
	size_t h_stack_size, h_ss_sp, h_ss_flags, h_ss_size;
	size_t h_mcontext_size, h_uc_mcontext, h_uc_stack, h_uc_link, h_uc_sigmask;
	/* byte offsets of gregs[REG_R8 ... REG_CR2] in mcontext_t, and of fpregs */
	size_t h_greg[23], h_fpregs;
	size_t h_sigcontext_size, h_sc_fpstate, h_sc_cs, h_sc_pad0_ss, h_sc_err, h_sc_trapno,
		h_sc_cr2;
	size_t h_fpstate_size, h_fp_mxcsr, h_fp_mxcsr_mask, h_fp_st, h_fp_xmm;
	size_t h_sw_bytes_size;
	unsigned long h_magic1, h_magic2, h_magic2_size;
	unsigned long h_sa_siginfo, h_sa_onstack, h_sa_restart, h_sa_nodefer, h_sa_resethand,
		h_sa_restorer;
	unsigned long h_sa_nocldstop, h_sa_nocldwait;
	long h_ss_onstack, h_ss_disable, h_ss_autodisarm;
	long h_si_user, h_si_kernel, h_si_tkill, h_si_queue;
	long h_segv_maperr, h_segv_accerr, h_bus_adraln, h_ill_illopn, h_fpe_intdiv,
		h_fpe_fltdiv, h_fpe_fltinv;
	long h_trap_brkpt, h_trap_trace, h_cld_exited, h_cld_killed;
	long h_sig_block, h_sig_unblock, h_sig_setmask;
	long h_sigsegv, h_sigchld, h_sigcont, h_sigstop, h_sigsys, h_sigrtmin_kernel;
};

extern const struct sigframe_host_abi sigframe_host_abi;

#endif
