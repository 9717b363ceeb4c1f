/*
 * sigcheck frame: the signal frame as Linux x86-64 builds it.  A handler
 * written in assembly records the registers at its first instruction:
 *   RSP % 16 == 8 (a call's alignment); [RSP] = the SA_RESTORER address;
 *   RDI = signo, RDX = &uc = RSP + 8, RSI = &info = RSP + 8 + 304 (the
 *   kernel's struct ucontext), RAX = 0; DF, TF clear even when the
 *   interrupted code had DF set.
 * And in the ucontext: uc_flags with UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS
 * (and UC_FP_XSTATE exactly when the CPU has OSXSAVE), uc_link NULL, CS and
 * SS equal to the live selectors, the fpstate above the frame and the whole
 * frame below the interrupted RSP's red zone.
 */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/sys.h"
#include "sigcheck.h"

#define UC_FP_XSTATE 0x1ul
#define UC_SIGCONTEXT_SS 0x2ul
#define UC_STRICT_RESTORE_SS 0x4ul
#define KERNEL_UCONTEXT_SIZE 304 /* uc_flags, uc_link, stack_t, sigcontext, 64-bit sigset */
#define X86_DF 0x400ul
#define X86_TF 0x100ul

/* At the handler's first instruction: rsp, rdi, rsi, rdx, rax, rflags, [rsp]. */
uint64_t sc_entry[7];
void sc_entry_probe(int);

__asm__(".text\n"
	".globl	sc_entry_probe\n"
	"sc_entry_probe:\n\t"
	"movq	%rsp, sc_entry+0(%rip)\n\t"
	"movq	%rdi, sc_entry+8(%rip)\n\t"
	"movq	%rsi, sc_entry+16(%rip)\n\t"
	"movq	%rdx, sc_entry+24(%rip)\n\t"
	"movq	%rax, sc_entry+32(%rip)\n\t"
	"pushfq\n\t"
	"popq	sc_entry+40(%rip)\n\t"
	"movq	(%rsp), %rax\n\t"
	"movq	%rax, sc_entry+48(%rip)\n\t"
	"ret\n");

struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static int cpu_osxsave(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE);
}

/* tkill(self, SIGUSR1) with DF set around the SYSCALL (RAX nonzero going in). */
static void raise_with_df(void)
{
	long tid = el_syscall1(SYS_gettid, 0), ret;

	__asm__ volatile("std\n\t"
			 "syscall\n\t"
			 "cld"
			 : "=a"(ret)
			 : "0"((long)SYS_tkill), "D"(tid), "S"((long)SIGUSR1)
			 : "rcx", "r11", "memory", "cc");
	(void)ret;
}

static void entry_registers(void)
{
	struct k_sigaction k;
	struct sigaction sa;
	uint64_t rsp;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sc_entry_probe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	memset(&k, 0, sizeof(k));
	el_syscall4(SYS_rt_sigaction, SIGUSR1, 0, (long)&k, 8);
	memset(sc_entry, 0, sizeof(sc_entry));
	raise_with_df();
	rsp = sc_entry[0];
	el_expect("frame.entry_rsp_alignment", rsp % 16 == 8, "RSP at entry %#llx",
		  (unsigned long long)rsp);
	el_expect("frame.pretcode_is_restorer", sc_entry[6] == (uint64_t)k.restorer && k.restorer,
		  "[RSP] %#llx, sa_restorer %p", (unsigned long long)sc_entry[6], k.restorer);
	el_expect("frame.rdi_signo", sc_entry[1] == SIGUSR1, "RDI %llu",
		  (unsigned long long)sc_entry[1]);
	el_expect("frame.rdx_ucontext", sc_entry[3] == rsp + 8, "RDX %#llx, RSP + 8 = %#llx",
		  (unsigned long long)sc_entry[3], (unsigned long long)rsp + 8);
	el_expect("frame.rsi_siginfo", sc_entry[2] == rsp + 8 + KERNEL_UCONTEXT_SIZE,
		  "RSI %#llx, RSP + 8 + %d = %#llx", (unsigned long long)sc_entry[2],
		  KERNEL_UCONTEXT_SIZE, (unsigned long long)rsp + 8 + KERNEL_UCONTEXT_SIZE);
	el_expect("frame.rax_zero", sc_entry[4] == 0, "RAX %#llx", (unsigned long long)sc_entry[4]);
	el_expect("frame.df_tf_clear_in_handler", !(sc_entry[5] & (X86_DF | X86_TF)),
		  "RFLAGS at entry %#llx", (unsigned long long)sc_entry[5]);
	sc_default(SIGUSR1);
}

static ucontext_t *seen_uc;
static uintptr_t seen_info;
static ucontext_t seen_copy;

static void keep_uc(int sig, siginfo_t *si, void *ctx)
{
	sc_record(sig, si, ctx);
	seen_uc = ctx;
	seen_info = (uintptr_t)si;
	memcpy(&seen_copy, ctx, sizeof(seen_copy));
}

static void context_fields(void)
{
	unsigned long want = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	unsigned short cs, ss;
	greg_t csgsfs, rsp;
	uintptr_t fp;

	__asm__("movw	%%cs, %0\n\tmovw	%%ss, %1" : "=r"(cs), "=r"(ss));
	if (cpu_osxsave())
		want |= UC_FP_XSTATE;
	sc_install(SIGUSR1, keep_uc, 0);
	sc_reset();
	raise_with_df();
	csgsfs = seen_copy.uc_mcontext.gregs[REG_CSGSFS];
	rsp = seen_copy.uc_mcontext.gregs[REG_RSP];
	fp = (uintptr_t)seen_copy.uc_mcontext.fpregs;
	el_expect("frame.uc_flags", seen_copy.uc_flags == want, "uc_flags %#lx, want %#lx",
		  seen_copy.uc_flags, want);
	el_expect("frame.uc_link_null", seen_copy.uc_link == NULL, "uc_link %p", (void *)seen_copy.uc_link);
	el_expect("frame.cs_ss_live", (csgsfs & 0xffff) == cs && ((csgsfs >> 48) & 0xffff) == ss,
		  "frame CS %#llx SS %#llx, live %#x %#x", (unsigned long long)(csgsfs & 0xffff),
		  (unsigned long long)((csgsfs >> 48) & 0xffff), cs, ss);
	el_expect("frame.df_saved", (seen_copy.uc_mcontext.gregs[REG_EFL] & X86_DF) != 0,
		  "interrupted RFLAGS %#llx lack the DF that was set",
		  (unsigned long long)seen_copy.uc_mcontext.gregs[REG_EFL]);
	el_expect("frame.fpstate_above_siginfo", fp >= seen_info + sizeof(siginfo_t),
		  "fpstate %#lx, siginfo %#lx", (unsigned long)fp, (unsigned long)seen_info);
	el_expect("frame.below_red_zone", fp + 512 <= (uintptr_t)rsp - 128 && (uintptr_t)seen_uc < fp,
		  "fpstate %#lx ucontext %p, interrupted RSP %#llx", (unsigned long)fp,
		  (void *)seen_uc, (unsigned long long)rsp);
	el_expect("frame.fpstate_aligned", fp % (cpu_osxsave() ? 64 : 16) == 0, "fpstate %#lx",
		  (unsigned long)fp);
	sc_default(SIGUSR1);
}

void sc_frame(void)
{
	entry_registers();
	context_fields();
}
