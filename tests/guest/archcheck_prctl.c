/*
 * archcheck prctl: arch_prctl as Linux has it.
 *   - ARCH_GET_FS is musl's thread pointer (pthread_self());
 *   - ARCH_SET_GS moves %gs:0 onto a buffer, ARCH_GET_GS gives it back, and it
 *     survives a system call and sched_yield;
 *   - ARCH_SET_FS to a block of ours reads through %fs and is put back (in one
 *     asm statement: musl's TLS is %fs);
 *   - a non-canonical base is EPERM, an unknown code EINVAL;
 *   - FSGSBASE: where CPUID offers it the kernel enables it (AT_HWCAP2 bit 1);
 *     then RDFSBASE agrees with ARCH_GET_FS and a WRGSBASE value is kept
 *     across a system call and shows in ARCH_GET_GS.
 */
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "archcheck.h"
#include "lib/sys.h"

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define HWCAP2_FSGSBASE 2ul

static long arch_prctl(long code, long arg)
{
	return el_syscall2(SYS_arch_prctl, code, arg);
}

static uint64_t gs0(void)
{
	uint64_t v;

	__asm__ volatile("movq	%%gs:0, %0" : "=r"(v) : : "memory");
	return v;
}

static void fs_and_gs(void)
{
	static uint64_t gsbuf[4] = {0x6565656565656565ull}, fsbuf[4];
	uint64_t fs = 0, gs = 0, fs_self, fs_word1, fs_back = 0;
	long r;

	arch_prctl(ARCH_GET_FS, (long)&fs);
	el_expect("prctl.get_fs_is_thread_pointer", fs && fs == (uintptr_t)pthread_self(),
		  "ARCH_GET_FS %#llx, pthread_self() %p", (unsigned long long)fs,
		  (void *)pthread_self());

	r = arch_prctl(ARCH_SET_GS, (long)gsbuf);
	arch_prctl(ARCH_GET_GS, (long)&gs);
	el_expect("prctl.set_gs", r == 0 && gs == (uintptr_t)gsbuf && gs0() == gsbuf[0],
		  "SET_GS %ld, GET_GS %#llx (want %p), %%gs:0 %#llx", r, (unsigned long long)gs,
		  (void *)gsbuf, (unsigned long long)gs0());
	getppid();
	sched_yield();
	gs = 0;
	arch_prctl(ARCH_GET_GS, (long)&gs);
	el_expect("prctl.gs_kept", gs == (uintptr_t)gsbuf && gs0() == gsbuf[0],
		  "after a syscall and sched_yield: GET_GS %#llx, %%gs:0 %#llx",
		  (unsigned long long)gs, (unsigned long long)gs0());
	arch_prctl(ARCH_SET_GS, 0);

	fsbuf[0] = (uintptr_t)fsbuf;
	fsbuf[1] = 0x4646464646464646ull;
	__asm__ volatile("movl	%[set], %%edi\n\t"
			 "movq	%[new], %%rsi\n\t"
			 "movl	%[nr], %%eax\n\t"
			 "syscall\n\t"
			 "movq	%%fs:0, %[self]\n\t"
			 "movq	%%fs:8, %[w1]\n\t"
			 "movl	%[set], %%edi\n\t"
			 "movq	%[old], %%rsi\n\t"
			 "movl	%[nr], %%eax\n\t"
			 "syscall"
			 : [self] "=&r"(fs_self), [w1] "=&r"(fs_word1)
			 : [set] "i"(ARCH_SET_FS), [nr] "i"(SYS_arch_prctl), [new] "r"(fsbuf),
			   [old] "r"(fs)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r11", "memory");
	arch_prctl(ARCH_GET_FS, (long)&fs_back);
	el_expect("prctl.set_fs", fs_self == (uintptr_t)fsbuf && fs_word1 == fsbuf[1] && fs_back == fs,
		  "%%fs:0 %#llx (want %p) %%fs:8 %#llx; FS put back %#llx (was %#llx)",
		  (unsigned long long)fs_self, (void *)fsbuf, (unsigned long long)fs_word1,
		  (unsigned long long)fs_back, (unsigned long long)fs);

	r = arch_prctl(ARCH_SET_GS, (long)0x8000000000000000ul);
	el_expect("prctl.noncanonical_gs_eperm", r == -EPERM, "SET_GS non-canonical: %ld", r);
	r = arch_prctl(ARCH_SET_FS, (long)0x8000000000000000ul);
	el_expect("prctl.noncanonical_fs_eperm", r == -EPERM, "SET_FS non-canonical: %ld", r);
	r = arch_prctl(0x1234, 0);
	el_expect("prctl.unknown_code_einval", r == -EINVAL, "code 0x1234: %ld", r);
}

static void fsgsbase(void)
{
	unsigned a, b = 0, c, d;
	unsigned long hw2 = getauxval(AT_HWCAP2);
	uint64_t fs = 0, rd, gs = 0, val = 0x00007f0012345000ull;

	if (__get_cpuid_max(0, NULL) >= 7)
		__cpuid_count(7, 0, a, b, c, d);
	if (!(b & 1)) {
		el_skip("prctl.fsgsbase", "CPUID.7.0:EBX.FSGSBASE is clear on this CPU");
		return;
	}
	if (!el_expect("prctl.fsgsbase_enabled", hw2 & HWCAP2_FSGSBASE,
		       "CPUID offers FSGSBASE but AT_HWCAP2 %#lx lacks HWCAP2_FSGSBASE", hw2))
		return;
	arch_prctl(ARCH_GET_FS, (long)&fs);
	__asm__ volatile("rdfsbase	%0" : "=r"(rd));
	el_expect("prctl.rdfsbase", rd == fs, "RDFSBASE %#llx, ARCH_GET_FS %#llx",
		  (unsigned long long)rd, (unsigned long long)fs);
	__asm__ volatile("wrgsbase	%0" : : "r"(val) : "memory");
	getppid();
	sched_yield();
	__asm__ volatile("rdgsbase	%0" : "=r"(rd));
	arch_prctl(ARCH_GET_GS, (long)&gs);
	el_expect("prctl.wrgsbase_kept", rd == val && gs == val,
		  "RDGSBASE %#llx, ARCH_GET_GS %#llx, wrote %#llx", (unsigned long long)rd,
		  (unsigned long long)gs, (unsigned long long)val);
	__asm__ volatile("wrgsbase	%0" : : "r"(0ull) : "memory");
}

void ac_prctl(void)
{
	fs_and_gs();
	fsgsbase();
}
