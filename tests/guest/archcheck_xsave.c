/*
 * archcheck xsave: XSAVE enabled as CPUID offers it, and vector state kept
 * per process.
 *   - CPUID.1:ECX.XSAVE -> the kernel set CR4.OSXSAVE (CPUID shows it) and
 *     XCR0 (XGETBV) holds x87|SSE, AVX where CPUID has AVX, the AVX-512 trio
 *     where it has AVX512F, nothing CPUID.(0xd,0) does not support; the
 *     XSAVE size for XCR0 is sane;
 *   - two processes on CPU 0 each load their own YMM0-15 (XMM without AVX)
 *     and sched_yield to each other 200 times: each must find its own values
 *     every time.
 */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include "archcheck.h"

#define FOR16(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define LOAD_YMM(n) "vmovdqu	" #n "*32(%[in]), %%ymm" #n "\n\t"
#define STORE_YMM(n) "vmovdqu	%%ymm" #n ", " #n "*32(%[out])\n\t"
#define LOAD_XMM(n) "movdqu	" #n "*16(%[in]), %%xmm" #n "\n\t"
#define STORE_XMM(n) "movdqu	%%xmm" #n ", " #n "*16(%[out])\n\t"
#define XMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
	"xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

static int avx;

/* Loads the vector registers from `in`, yields, stores them to `out`. */
static void load_yield_store(const uint8_t *in, uint8_t *out)
{
	long nr = 24; /* SYS_sched_yield */

	if (avx)
		__asm__ volatile(FOR16(LOAD_YMM) "syscall\n\t" FOR16(STORE_YMM) "vzeroupper"
				 : "+a"(nr)
				 : [in] "r"(in), [out] "r"(out)
				 : "rcx", "r11", "memory", XMM_CLOBBERS);
	else
		__asm__ volatile(FOR16(LOAD_XMM) "syscall\n\t" FOR16(STORE_XMM)
				 : "+a"(nr)
				 : [in] "r"(in), [out] "r"(out)
				 : "rcx", "r11", "memory", XMM_CLOBBERS);
}

/* 200 rounds with our own pattern; the number of rounds that found something else. */
static int rounds(unsigned seed)
{
	uint8_t in[512], out[512];
	size_t n = avx ? 512 : 256;
	int bad = 0;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 13 + seed);
	for (int r = 0; r < 200; r++) {
		memset(out, 0, sizeof(out));
		load_yield_store(in, out);
		bad += memcmp(in, out, n) != 0;
	}
	return bad;
}

static void switch_keeps_state(void)
{
	pid_t pid;
	int st = -1, bad, pinned = ac_pin_cpu0();

	pid = fork();
	if (pid == 0)
		_exit(rounds(0x55) ? 1 : 0);
	bad = rounds(0xaa);
	waitpid(pid, &st, 0);
	el_expect(avx ? "xsave.ymm_kept_across_switches" : "xsave.xmm_kept_across_switches",
		  pid > 0 && bad == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "parent: %d of 200 rounds saw other values; child status %#x (1: it did); pinned "
		  "to CPU 0: %s",
		  bad, st, pinned ? "no" : "yes");
}

void ac_xsave(void)
{
	unsigned a = 0, b = 0, c = 0, d = 0, sa, sb, sc, sd;
	uint64_t xcr0, supported, want = 3;
	int avx512 = 0;

	__get_cpuid(1, &a, &b, &c, &d);
	if (!(c & bit_XSAVE)) {
		el_skip("xsave.enabled", "CPUID.1:ECX.XSAVE is clear on this CPU");
		switch_keeps_state();
		return;
	}
	if (!(c & bit_OSXSAVE)) {
		/*
		 * entrylab clears CR4.OSXSAVE when XCR0 does not survive VM exits (a KVM
		 * nested under QEMU < 8.2 that was not given its XCR0) and says so on its
		 * console; Linux disables XSAVE there too, for the same cause.
		 */
		el_skip("xsave.osxsave", "CPUID offers XSAVE but OSXSAVE is clear: the kernel "
			"chose FXSAVE (see its fpu: console line)");
		switch_keeps_state();
		return;
	}
	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	xcr0 = (uint64_t)d << 32 | a;
	__cpuid_count(0xd, 0, sa, sb, sc, sd);
	supported = (uint64_t)sd << 32 | sa;
	if (c & bit_AVX)
		want |= 4;
	if (__get_cpuid_max(0, NULL) >= 7) {
		unsigned b7, c7, d7, a7;

		__cpuid_count(7, 0, a7, b7, c7, d7);
		avx512 = (b7 & bit_AVX512F) && (c & bit_AVX);
		(void)a7, (void)c7, (void)d7;
	}
	if (avx512)
		want |= 0xe0;
	el_expect("xsave.xcr0", (xcr0 & want) == want && !(xcr0 & ~supported),
		  "XCR0 %#llx: want at least %#llx, nothing outside CPUID.(0xd,0) %#llx",
		  (unsigned long long)xcr0, (unsigned long long)want,
		  (unsigned long long)supported);
	el_expect("xsave.size", sb >= 576 && sb <= sc && sb < (1u << 20),
		  "XSAVE size for XCR0 %u, maximum %u", sb, sc);
	avx = (c & bit_AVX) && (xcr0 & 6) == 6;
	switch_keeps_state();
}
