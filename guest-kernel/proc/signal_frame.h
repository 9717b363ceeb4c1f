/*
 * What user mode sees of signals on x86-64, byte for byte as Linux has it
 * (arch/x86/include/uapi/asm/sigcontext.h, ucontext.h, signal.h and
 * include/uapi/asm-generic/siginfo.h): the numbers and flags, siginfo_t,
 * stack_t, struct sigcontext (the gregs of glibc's and musl's mcontext_t,
 * in the same order), struct ucontext, the FXSAVE/XSAVE image with its
 * software bytes, and the rt_sigframe a handler finds on its stack.
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it.
 * Every offset user code relies on is checked below against Linux's.
 */
#ifndef EL_PROC_SIGNAL_FRAME_H
#define EL_PROC_SIGNAL_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* --- signal numbers (x86-64) --- */
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define SIGRTMIN 32 /* the kernel's; libc reserves the first few */
#define SIG_NSIG 64 /* _NSIG: the last valid number */

/* A signal's bit in a sigset_t (the first word: signals 1..64). */
#define SIGBIT(sig) (1ull << ((sig) - 1))
/* The signals no handler, mask or ignore can catch. */
#define SIG_KERNEL_ONLY (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))

#define SIG_DFL 0
#define SIG_IGN 1

/* rt_sigprocmask how */
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sa_flags */
#define SA_NOCLDSTOP 0x00000001u
#define SA_NOCLDWAIT 0x00000002u
#define SA_SIGINFO 0x00000004u
#define SA_UNSUPPORTED 0x00000400u
#define SA_EXPOSE_TAGBITS 0x00000800u
#define SA_RESTORER 0x04000000u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u
/* What rt_sigaction keeps (Linux's UAPI_SA_FLAGS on x86): unknown bits read back as 0. */
#define SA_UAPI_FLAGS (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART | \
		       SA_NODEFER | SA_RESETHAND | SA_EXPOSE_TAGBITS | SA_RESTORER)

/* sigaltstack */
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ 2048

/* si_code */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_QUEUE (-1)
#define SI_TKILL (-6)
#define ILL_ILLOPC 1
#define ILL_ILLOPN 2
#define FPE_INTDIV 1
#define FPE_INTOVF 2
#define FPE_FLTDIV 3
#define FPE_FLTOVF 4
#define FPE_FLTUND 5
#define FPE_FLTRES 6
#define FPE_FLTINV 7
#define FPE_FLTSUB 8
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRALN 1
#define BUS_ADRERR 2
#define TRAP_BRKPT 1
#define TRAP_TRACE 2
#define TRAP_HWBKPT 4
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_TRAPPED 4
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

/* uc_flags */
#define UC_FP_XSTATE 0x1u          /* the fpstate is an XSAVE image (the CPU has XSAVE) */
#define UC_SIGCONTEXT_SS 0x2u      /* sigcontext.ss is saved (always, on 64-bit kernels) */
#define UC_STRICT_RESTORE_SS 0x4u  /* sigreturn restores ss as it is (signal came from 64-bit code) */

/* The software bytes in the FXSAVE image, and the magic after an XSAVE image. */
#define FP_XSTATE_MAGIC1 0x46505853u
#define FP_XSTATE_MAGIC2 0x46505845u
#define FP_XSTATE_MAGIC2_SIZE 4u
#define SF_FXSAVE_SIZE 512u
#define SF_XSAVE_HDR_OFFSET 512u
#define SF_XSAVE_HDR_SIZE 64u
#define SF_XFEATURE_FPSSE 0x3ull

/* --- layouts --- */

/* siginfo_t: 128 bytes; the union holds what the signal's kind carries. */
struct el_siginfo {
	int32_t si_signo;
	int32_t si_errno;
	int32_t si_code;
	int32_t _pad0;
	union {
		struct {             /* kill, tkill, sigqueue: SI_USER, SI_TKILL, SI_QUEUE ... */
			int32_t pid;
			uint32_t uid;
			uint64_t value;
		} kill;
		struct {             /* SIGCHLD */
			int32_t pid;
			uint32_t uid;
			int32_t status;
			int32_t _pad;
			int64_t utime, stime;
		} chld;
		struct {             /* SIGSEGV SIGBUS SIGILL SIGFPE SIGTRAP from a fault */
			uint64_t addr;
			uint16_t addr_lsb;
		} fault;
		uint8_t raw[112];
	} u;
};

/* stack_t */
struct el_stack {
	uint64_t ss_sp;
	int32_t ss_flags;
	int32_t _pad;
	uint64_t ss_size;
};

/* struct sigcontext (64-bit): the order of mcontext_t.gregs[REG_R8 ... REG_CR2]. */
struct el_sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip;
	uint64_t eflags;
	uint16_t cs, gs, fs, ss; /* REG_CSGSFS; ss was __pad0 before Linux 4.6 */
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate;        /* user address of the FXSAVE/XSAVE image, 0: none */
	uint64_t reserved1[8];
};

/* struct ucontext as the kernel writes it (uc_sigmask is the kernel's 8-byte sigset). */
struct el_ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	struct el_stack uc_stack;
	struct el_sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

/* The software-reserved bytes at offset 464 of the FXSAVE image (struct _fpx_sw_bytes). */
struct el_fpx_sw_bytes {
	uint32_t magic1;        /* FP_XSTATE_MAGIC1 */
	uint32_t extended_size; /* the image plus FP_XSTATE_MAGIC2_SIZE */
	uint64_t xfeatures;     /* the XSAVE features the image may hold */
	uint32_t xstate_size;   /* the XSAVE image without the magic2 */
	uint32_t padding[7];
};

/* The FXSAVE legacy area (struct _fpstate_64); an XSAVE image starts with it. */
struct el_fpstate {
	uint16_t cwd, swd, twd, fop;
	uint64_t rip, rdp;
	uint32_t mxcsr, mxcsr_mask;
	uint32_t st_space[32];
	uint32_t xmm_space[64];
	uint32_t reserved2[12];
	struct el_fpx_sw_bytes sw_reserved;
};

/* What the handler's RSP points at: the return address (sa_restorer), then ucontext and siginfo. */
struct el_rt_sigframe {
	uint64_t pretcode;
	struct el_ucontext uc;
	struct el_siginfo info;
	/* the fpstate follows, 64-byte aligned, above */
};

/* --- Linux's offsets --- */
#define SF_CHECK(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field)

SF_CHECK(el_siginfo, si_signo, 0x00);
SF_CHECK(el_siginfo, si_errno, 0x04);
SF_CHECK(el_siginfo, si_code, 0x08);
SF_CHECK(el_siginfo, u.kill.pid, 0x10);
SF_CHECK(el_siginfo, u.kill.uid, 0x14);
SF_CHECK(el_siginfo, u.kill.value, 0x18);
SF_CHECK(el_siginfo, u.chld.status, 0x18);
SF_CHECK(el_siginfo, u.chld.utime, 0x20);
SF_CHECK(el_siginfo, u.chld.stime, 0x28);
SF_CHECK(el_siginfo, u.fault.addr, 0x10);
SF_CHECK(el_siginfo, u.fault.addr_lsb, 0x18);
_Static_assert(sizeof(struct el_siginfo) == 128, "siginfo_t is 128 bytes");

SF_CHECK(el_stack, ss_sp, 0);
SF_CHECK(el_stack, ss_flags, 8);
SF_CHECK(el_stack, ss_size, 16);
_Static_assert(sizeof(struct el_stack) == 24, "stack_t");

SF_CHECK(el_sigcontext, r8, 0);
SF_CHECK(el_sigcontext, r15, 56);
SF_CHECK(el_sigcontext, rdi, 64);
SF_CHECK(el_sigcontext, rsi, 72);
SF_CHECK(el_sigcontext, rbp, 80);
SF_CHECK(el_sigcontext, rbx, 88);
SF_CHECK(el_sigcontext, rdx, 96);
SF_CHECK(el_sigcontext, rax, 104);
SF_CHECK(el_sigcontext, rcx, 112);
SF_CHECK(el_sigcontext, rsp, 120);
SF_CHECK(el_sigcontext, rip, 128);
SF_CHECK(el_sigcontext, eflags, 136);
SF_CHECK(el_sigcontext, cs, 144);
SF_CHECK(el_sigcontext, gs, 146);
SF_CHECK(el_sigcontext, fs, 148);
SF_CHECK(el_sigcontext, ss, 150);
SF_CHECK(el_sigcontext, err, 152);
SF_CHECK(el_sigcontext, trapno, 160);
SF_CHECK(el_sigcontext, oldmask, 168);
SF_CHECK(el_sigcontext, cr2, 176);
SF_CHECK(el_sigcontext, fpstate, 184);
SF_CHECK(el_sigcontext, reserved1, 192);
_Static_assert(sizeof(struct el_sigcontext) == 256, "sigcontext");

SF_CHECK(el_ucontext, uc_flags, 0);
SF_CHECK(el_ucontext, uc_link, 8);
SF_CHECK(el_ucontext, uc_stack, 16);
SF_CHECK(el_ucontext, uc_mcontext, 40);
SF_CHECK(el_ucontext, uc_sigmask, 296);
_Static_assert(sizeof(struct el_ucontext) == 304, "ucontext");

SF_CHECK(el_fpstate, mxcsr, 24);
SF_CHECK(el_fpstate, mxcsr_mask, 28);
SF_CHECK(el_fpstate, st_space, 32);
SF_CHECK(el_fpstate, xmm_space, 160);
SF_CHECK(el_fpstate, sw_reserved, 464);
SF_CHECK(el_fpx_sw_bytes, extended_size, 4);
SF_CHECK(el_fpx_sw_bytes, xfeatures, 8);
SF_CHECK(el_fpx_sw_bytes, xstate_size, 16);
_Static_assert(sizeof(struct el_fpx_sw_bytes) == 48, "_fpx_sw_bytes");
_Static_assert(sizeof(struct el_fpstate) == SF_FXSAVE_SIZE, "FXSAVE image");

SF_CHECK(el_rt_sigframe, pretcode, 0);
SF_CHECK(el_rt_sigframe, uc, 8);
SF_CHECK(el_rt_sigframe, info, 312);
_Static_assert(sizeof(struct el_rt_sigframe) == 440, "rt_sigframe");
#undef SF_CHECK

#endif
