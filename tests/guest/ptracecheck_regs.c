/*
 * ptracecheck regs: the tracer reads and writes its stopped child's state.
 * At pt_regs_stop1 (after an INT3; the child loaded RBX RBP R12-R15, XMM0
 * and MXCSR with known values):
 *   - GETREGS shows them, RIP past the INT3, orig_rax -1 (no syscall), CS/SS
 *     and FS base as ours; PEEKUSER of every user_regs_struct word (by
 *     offset) agrees; a misaligned or too large offset is EIO;
 *   - GETFPREGS shows XMM0, MXCSR and the default x87 control word;
 *   - SETREGS changes RBX, POKEUSER R12 (the child sees both); POKEUSER of
 *     RFLAGS cannot clear IF; CS 0 or with RPL 0, and a non-canonical FS base,
 *     are EIO and change nothing.
 * At pt_regs_stop2 SETREGS moves RIP past a store the child then never makes.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ptracecheck.h"

#define SET_RBX 0x5e7b0000000000bbull
#define POKE_R12 0x90ce0000000000ccull
#define ARCH_GET_FS 0x1003
#define OFF(field) offsetof(struct user_regs_struct, field)

static int regs_child(void)
{
	pt_regs_seq();
	if (pt_regs_out[0] != SET_RBX || pt_regs_out[2] != POKE_R12)
		return 1;
	if (pt_regs_out[1] != pt_regs_in[1] || pt_regs_out[3] != pt_regs_in[3] ||
	    pt_regs_out[4] != pt_regs_in[4] || pt_regs_out[5] != pt_regs_in[5])
		return 2;
	if (pt_regs_skipped)
		return 3;
	return 0;
}

static long peek(pid_t pid, size_t off, int *err)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, (void *)off, NULL);
	*err = errno;
	return v;
}

static long poke(pid_t pid, size_t off, unsigned long v)
{
	return ptrace(PTRACE_POKEUSER, pid, (void *)off, (void *)v) ? -errno : 0;
}

static void read_regs(pid_t pid)
{
	struct user_regs_struct r;
	uint16_t cs, ss;
	uint64_t fs = 0;
	int mismatch = -1, err;

	__asm__("movw	%%cs, %0\n\tmovw	%%ss, %1" : "=r"(cs), "=r"(ss));
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	memset(&r, 0, sizeof(r));
	ptrace(PTRACE_GETREGS, pid, NULL, &r);
	el_expect("regs.getregs_values",
		  r.rbx == pt_regs_in[0] && r.rbp == pt_regs_in[1] && r.r12 == pt_regs_in[2] &&
			  r.r13 == pt_regs_in[3] && r.r14 == pt_regs_in[4] && r.r15 == pt_regs_in[5] &&
			  r.rip == (uintptr_t)pt_regs_stop1,
		  "rbx %#lx rbp %#lx r12 %#lx .. r15 %#lx rip %#lx (want %p)", r.rbx, r.rbp, r.r12,
		  r.r15, r.rip, (const void *)pt_regs_stop1);
	el_expect("regs.getregs_no_syscall", (long)r.orig_rax == -1, "orig_rax %ld at an INT3 stop",
		  (long)r.orig_rax);
	el_expect("regs.getregs_segments", r.cs == cs && r.ss == ss && r.fs_base == fs,
		  "cs %#lx ss %#lx fs_base %#lx, want %#x %#x %#llx", r.cs, r.ss, r.fs_base, cs, ss,
		  (unsigned long long)fs);
	for (size_t i = 0; i < sizeof(r) / sizeof(long) && mismatch < 0; i++) {
		long v = peek(pid, i * sizeof(long), &err);

		if (err || (unsigned long)v != ((unsigned long *)&r)[i])
			mismatch = (int)i;
	}
	el_expect("regs.peekuser_every_word", mismatch < 0,
		  "PEEKUSER of word %d differs from GETREGS", mismatch);
	peek(pid, 3, &err);
	el_expect("regs.peekuser_misaligned_eio", err == EIO, "errno %s", strerror(err));
	/* The kernel's struct user ends with error_code and fault_address after u_debugreg. */
	peek(pid, offsetof(struct user, u_debugreg) + 10 * sizeof(long), &err);
	el_expect("regs.peekuser_beyond_eio", err == EIO, "errno %s", strerror(err));
}

static void read_fpregs(pid_t pid)
{
	struct user_fpregs_struct f;
	long r;

	memset(&f, 0, sizeof(f));
	r = ptrace(PTRACE_GETFPREGS, pid, NULL, &f);
	el_expect("regs.getfpregs",
		  r == 0 && !memcmp(f.xmm_space, pt_xmm_in, 16) && f.mxcsr == pt_mxcsr_in &&
			  f.cwd == 0x37f,
		  "ret %ld xmm0 %s mxcsr %#x (want %#x) cwd %#x", r,
		  memcmp(f.xmm_space, pt_xmm_in, 16) ? "differs" : "ok", f.mxcsr, pt_mxcsr_in, f.cwd);
}

static void write_regs(pid_t pid)
{
	struct user_regs_struct r, after;
	unsigned long flags;
	int err;

	ptrace(PTRACE_GETREGS, pid, NULL, &r);
	r.rbx = SET_RBX;
	el_expect("regs.setregs", ptrace(PTRACE_SETREGS, pid, NULL, &r) == 0, "%s", strerror(errno));
	el_expect("regs.pokeuser_r12", poke(pid, OFF(r12), POKE_R12) == 0, "%s", strerror(errno));
	ptrace(PTRACE_GETREGS, pid, NULL, &after);
	el_expect("regs.written_values_read_back", after.rbx == SET_RBX && after.r12 == POKE_R12,
		  "rbx %#lx r12 %#lx", after.rbx, after.r12);

	flags = (unsigned long)peek(pid, OFF(eflags), &err);
	poke(pid, OFF(eflags), 0);
	el_expect("regs.pokeuser_eflags_keeps_if",
		  ((unsigned long)peek(pid, OFF(eflags), &err) & 0x202) == 0x202,
		  "RFLAGS after writing 0: %#lx", (unsigned long)peek(pid, OFF(eflags), &err));
	poke(pid, OFF(eflags), flags);

	el_expect("regs.pokeuser_cs_null_eio", poke(pid, OFF(cs), 0) == -EIO, "CS 0 accepted");
	el_expect("regs.pokeuser_cs_rpl0_eio", poke(pid, OFF(cs), r.cs & ~3ul) == -EIO,
		  "CS %#lx accepted", r.cs & ~3ul);
	el_expect("regs.pokeuser_fs_base_noncanonical_eio",
		  poke(pid, OFF(fs_base), 0x8000000000000000ul) == -EIO,
		  "non-canonical FS base accepted");
	ptrace(PTRACE_GETREGS, pid, NULL, &after);
	el_expect("regs.refused_writes_changed_nothing",
		  after.cs == r.cs && after.fs_base == r.fs_base, "cs %#lx fs_base %#lx", after.cs,
		  after.fs_base);
}

void pt_regs(void)
{
	struct user_regs_struct r;
	pid_t pid;
	int st;

	for (int i = 0; i < 6; i++)
		pt_regs_in[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
	for (int i = 0; i < 16; i++)
		pt_xmm_in[i] = (uint8_t)(0xa0 + i);
	pt_mxcsr_in = 0x7f80;
	pt_regs_skipped = 0;
	pid = pt_child("regs.child", regs_child);
	if (pid < 0)
		return;
	st = pt_resume(pid, PTRACE_CONT, 0);
	if (!el_expect("regs.stop1", WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, "status %#x", st)) {
		pt_abandon(pid);
		return;
	}
	read_regs(pid);
	read_fpregs(pid);
	write_regs(pid);
	st = pt_resume(pid, PTRACE_CONT, 0);
	memset(&r, 0, sizeof(r));
	ptrace(PTRACE_GETREGS, pid, NULL, &r);
	if (!el_expect("regs.stop2", WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP &&
				     r.rip == (uintptr_t)pt_regs_stop2,
		       "status %#x rip %#lx", st, r.rip)) {
		pt_abandon(pid);
		return;
	}
	r.rip = (uintptr_t)pt_regs_skip_to;
	ptrace(PTRACE_SETREGS, pid, NULL, &r);
	st = pt_resume(pid, PTRACE_CONT, 0);
	el_expect("regs.child_saw_the_writes", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "child status %#x (1: RBX/R12 not as written, 2: others changed, 3: RIP not moved)",
		  st);
	if (!WIFEXITED(st) && !WIFSIGNALED(st))
		pt_abandon(pid);
}
