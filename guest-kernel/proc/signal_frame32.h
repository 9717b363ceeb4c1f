/*
 * What an i386 process sees of signals on a 64-bit Linux kernel, byte for
 * byte (arch/x86/include/asm/sigframe.h, ia32.h, uapi sigcontext.h
 * _fpstate_32, compat_siginfo_t): the layouts of proc/signal32.c, each
 * offset checked below.  Pure C (only <stdint.h>/<stddef.h>).
 */
#ifndef EL_PROC_SIGNAL_FRAME32_H
#define EL_PROC_SIGNAL_FRAME32_H

#include <stddef.h>
#include <stdint.h>

/* Kernel-only sa_flags bit: the action was set through the i386 ABI, its frames are 32-bit. */
#define SA_IA32_ABI 0x02000000u

/* struct sigcontext_32 */
struct sigcontext32 {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate; /* user address of the struct fpstate32_env header, 0: none */
	uint32_t oldmask, cr2;
};

/* compat_stack_t */
struct stack32 {
	uint32_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
};

/* struct ucontext_ia32 */
struct ucontext32 {
	uint32_t uc_flags, uc_link;
	struct stack32 uc_stack;
	struct sigcontext32 uc_mcontext;
	uint32_t uc_sigmask[2];
};

/* compat_siginfo_t: the union right after the three ints */
struct siginfo32 {
	int32_t si_signo, si_errno, si_code;
	union {
		struct { int32_t pid; uint32_t uid; uint32_t value; } kill;
		struct { int32_t pid; uint32_t uid; int32_t status, utime, stime; } chld;
		struct { uint32_t addr; uint16_t addr_lsb; } fault;
		uint8_t raw[116];
	} u;
};

/*
 * The start of struct _fpstate_32: the FSAVE environment and registers
 * (struct user_i387_ia32_struct), status, magic (0: FXSAVE data follow,
 * at the next byte: the FXSAVE/XSAVE image, 64-byte aligned).
 */
struct fpstate32_env {
	uint32_t cwd, swd, twd, fip, fcs, foo, fos;
	uint8_t st_space[80];
	uint16_t status, magic;
};
#define FPSTATE32_SIZE 624 /* sizeof(struct _fpstate_32) */
#define X86_FXSR_MAGIC 0x0000

/* struct sigframe_ia32 (no SA_SIGINFO) */
struct sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	struct sigcontext32 sc;
	uint8_t fpstate_unused[FPSTATE32_SIZE];
	uint32_t extramask[1];
	uint8_t retcode[8];
};

/* struct rt_sigframe_ia32 */
struct rt_sigframe32 {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo, puc;
	struct siginfo32 info;
	struct ucontext32 uc;
	uint8_t retcode[8];
};

#define SF32_CHECK(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field)
SF32_CHECK(sigcontext32, edi, 16);
SF32_CHECK(sigcontext32, eax, 44);
SF32_CHECK(sigcontext32, trapno, 48);
SF32_CHECK(sigcontext32, eip, 56);
SF32_CHECK(sigcontext32, cs, 60);
SF32_CHECK(sigcontext32, eflags, 64);
SF32_CHECK(sigcontext32, esp_at_signal, 68);
SF32_CHECK(sigcontext32, ss, 72);
SF32_CHECK(sigcontext32, fpstate, 76);
SF32_CHECK(sigcontext32, cr2, 84);
_Static_assert(sizeof(struct sigcontext32) == 88, "sigcontext_32");
_Static_assert(sizeof(struct stack32) == 12, "compat_stack_t");
SF32_CHECK(ucontext32, uc_mcontext, 20);
SF32_CHECK(ucontext32, uc_sigmask, 108);
_Static_assert(sizeof(struct ucontext32) == 116, "ucontext_ia32");
SF32_CHECK(siginfo32, u.kill.pid, 12);
SF32_CHECK(siginfo32, u.kill.value, 20);
SF32_CHECK(siginfo32, u.chld.status, 20);
SF32_CHECK(siginfo32, u.fault.addr_lsb, 16);
_Static_assert(sizeof(struct siginfo32) == 128, "compat_siginfo_t");
SF32_CHECK(fpstate32_env, st_space, 28);
SF32_CHECK(fpstate32_env, magic, 110);
_Static_assert(sizeof(struct fpstate32_env) == 112, "struct fregs_state's environment");
SF32_CHECK(sigframe32, sc, 8);
SF32_CHECK(sigframe32, extramask, 720);
SF32_CHECK(sigframe32, retcode, 724);
_Static_assert(sizeof(struct sigframe32) == 732, "sigframe_ia32");
SF32_CHECK(rt_sigframe32, info, 16);
SF32_CHECK(rt_sigframe32, uc, 144);
SF32_CHECK(rt_sigframe32, retcode, 260);
_Static_assert(sizeof(struct rt_sigframe32) == 268, "rt_sigframe_ia32");
#undef SF32_CHECK

#endif
