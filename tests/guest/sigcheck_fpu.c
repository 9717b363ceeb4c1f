/*
 * sigcheck fpu: the FPU/SSE/AVX state around a handler.
 *   - XMM0-15 and MXCSR are the same after a handler that clobbers them, and
 *     the frame's fpstate holds the interrupted values;
 *   - the handler starts with a clean MXCSR (0x1f80), as Linux resets it;
 *   - with OSXSAVE: the fpstate is an XSAVE image with
 *     FP_XSTATE_MAGIC1 in sw_reserved, MAGIC2 after xstate_size, an
 *     xstate_size that holds xfeatures, xfeatures within XCR0, XSTATE_BV
 *     within xfeatures, and the YMM upper halves in the standard-format AVX
 *     area (the frame's values are printed); YMM0-15 survive; without it a
 *     skip says why;
 *   - with OSXSAVE: reserved XSAVE header bytes in the frame make
 *     rt_sigreturn SIGSEGV (Linux's corrupt_xstate_header selftest);
 *   - with AVX-512 in XCR0: ZMM31 and k1 survive too.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/sys.h"
#include "sigcheck.h"

#define FP_XSTATE_MAGIC1 0x46505853u
#define FP_XSTATE_MAGIC2 0x46505845u
#define SW_RESERVED_OFFSET 464
#define XSAVE_HEADER_OFFSET 512

#define FOR16(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
#define LOAD_XMM(n) "movdqu	" #n "*16(%[in]), %%xmm" #n "\n\t"
#define STORE_XMM(n) "movdqu	%%xmm" #n ", " #n "*16(%[out])\n\t"
#define LOAD_YMM(n) "vmovdqu	" #n "*32(%[in]), %%ymm" #n "\n\t"
#define STORE_YMM(n) "vmovdqu	%%ymm" #n ", " #n "*32(%[out])\n\t"
#define ONES_XMM(n) "pcmpeqb	%%xmm" #n ", %%xmm" #n "\n\t"
/*
 * AVX (not AVX2: Sandy Bridge has no 256-bit VPCMPEQB, Bochs's
 * corei7_sandy_bridge_2600k raises #UD for it): zero, then compare-true.
 */
#define ONES_YMM(n) \
	"vxorps	%%ymm" #n ", %%ymm" #n ", %%ymm" #n "\n\t" \
	"vcmptrueps	%%ymm" #n ", %%ymm" #n ", %%ymm" #n "\n\t"
#define XMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
	"xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

static struct {
	int osxsave, avx, avx512;
	uint64_t xcr0;
	unsigned avx_offset;  /* CPUID.(0xd,2).EBX: the AVX area in the standard format */
} cpu;

static uint8_t pattern[16 * 32], after[16 * 32];
static uint8_t frame_xmm[16 * 16], frame_ymm_hi[16 * 16];
static unsigned handler_mxcsr, frame_mxcsr;
static uint32_t sw[5], magic2;
static uint64_t xstate_bv;
static int frame_fp_ok;

static void detect(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	cpu.osxsave = !!(c & bit_OSXSAVE);
	if (cpu.osxsave) {
		unsigned lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		cpu.xcr0 = (uint64_t)hi << 32 | lo;
	}
	cpu.avx = cpu.osxsave && (c & bit_AVX) && (cpu.xcr0 & 6) == 6;
	if (cpu.avx) {
		__cpuid_count(0xd, 2, a, b, c, d);
		cpu.avx_offset = b;
	}
	if (__get_cpuid_max(0, NULL) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		cpu.avx512 = cpu.avx && (b & bit_AVX512F) && (cpu.xcr0 & 0xe6) == 0xe6;
	}
}

static void fill_pattern(unsigned seed)
{
	for (size_t i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(i * 7 + seed);
	memset(after, 0, sizeof(after));
}

static long self_tid(void)
{
	return el_syscall1(SYS_gettid, 0);
}

/* Copies what the frame says, then clobbers every vector register and MXCSR. */
static void clobber_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint8_t *fp = (uint8_t *)uc->uc_mcontext.fpregs;
	unsigned mx = 0x7f80 ^ 0x6000;

	__asm__ volatile("stmxcsr	%0" : "=m"(handler_mxcsr));
	sc_record(sig, si, ctx);
	frame_fp_ok = fp != NULL;
	if (fp) {
		frame_mxcsr = uc->uc_mcontext.fpregs->mxcsr;
		memcpy(frame_xmm, uc->uc_mcontext.fpregs->_xmm, sizeof(frame_xmm));
		memcpy(sw, fp + SW_RESERVED_OFFSET, sizeof(sw));
		memcpy(&xstate_bv, fp + XSAVE_HEADER_OFFSET, sizeof(xstate_bv));
		if (sw[0] == FP_XSTATE_MAGIC1 && sw[4] >= 576 && sw[4] < (1u << 20))
			memcpy(&magic2, fp + sw[4], sizeof(magic2));
		if (cpu.avx && sw[0] == FP_XSTATE_MAGIC1 && cpu.avx_offset + 256 <= sw[4])
			memcpy(frame_ymm_hi, fp + cpu.avx_offset, sizeof(frame_ymm_hi));
	}
	__asm__ volatile(FOR16(ONES_XMM) "ldmxcsr	%0" : : "m"(mx) : XMM_CLOBBERS);
	if (cpu.avx)
		__asm__ volatile(FOR16(ONES_YMM) "vzeroupper" : : : XMM_CLOBBERS);
}

static void xmm_preserved(void)
{
	unsigned mx = 0x7f80, mx_after = 0, mx_old;
	long nr = SYS_tkill;

	fill_pattern(1);
	sc_install(SIGUSR1, clobber_handler, 0);
	sc_reset();
	__asm__ volatile("stmxcsr	%[old]\n\t"
			 "ldmxcsr	%[mx]\n\t" FOR16(LOAD_XMM) "syscall\n\t" FOR16(STORE_XMM)
			 "stmxcsr	%[mxa]\n\t"
			 "ldmxcsr	%[old]"
			 : [mxa] "=m"(mx_after), [old] "=m"(mx_old), "+a"(nr)
			 : [in] "r"(pattern), [out] "r"(after), [mx] "m"(mx),
			   "D"(self_tid()), "S"((long)SIGUSR1)
			 : "rcx", "r11", "memory", XMM_CLOBBERS);
	el_expect("fpu.handler_ran", sc_seen.count == 1 && frame_fp_ok,
		  "handler ran %d times, fpstate pointer %s", sc_seen.count,
		  frame_fp_ok ? "set" : "NULL");
	el_expect("fpu.xmm_preserved", !memcmp(pattern, after, 16 * 16),
		  "XMM0-15 differ after the handler (first byte %#x, want %#x)", after[0],
		  pattern[0]);
	el_expect("fpu.mxcsr_preserved", mx_after == mx, "MXCSR %#x after, %#x before", mx_after,
		  mx);
	el_expect("fpu.frame_xmm_is_interrupted_state", !memcmp(frame_xmm, pattern, 16 * 16),
		  "the frame's _xmm[] differ from the registers at delivery");
	el_expect("fpu.frame_mxcsr", frame_mxcsr == mx, "frame MXCSR %#x, want %#x", frame_mxcsr, mx);
	el_expect("fpu.handler_starts_with_clean_mxcsr", handler_mxcsr == 0x1f80,
		  "MXCSR at handler entry %#x (want 0x1f80)", handler_mxcsr);
	sc_default(SIGUSR1);
}

/* The end of the last standard-format component in features (CPUID.(0xd,i) EBX + EAX). */
static unsigned xstate_end(uint64_t features)
{
	unsigned a, b, c, d, end = 576;

	for (unsigned i = 2; i < 63; i++) {
		if (!(features & (1ull << i)))
			continue;
		__cpuid_count(0xd, i, a, b, c, d);
		if (b + a > end)
			end = b + a;
	}
	return end;
}

static void xstate_frame(void)
{
	uint64_t xfeatures = (uint64_t)sw[3] << 32 | sw[2];

	if (!cpu.osxsave) {
		/*
		 * Linux writes the software bytes even without XSAVE (save_sw_bytes),
		 * describing the 512-byte FXSAVE image alone; either way no XSAVE
		 * area may be claimed.
		 */
		el_expect("fpu.fxsave_only_frame", sw[0] != FP_XSTATE_MAGIC1 || sw[4] == 512,
			  "an FXSAVE-only frame claims xstate_size %u", sw[4]);
		el_skip("fpu.xsave_frame", "CPUID.1:ECX.OSXSAVE is clear: the kernel saves with FXSAVE "
			"and the frame has no XSAVE area (entrylab: see its fpu: console line)");
		return;
	}
	el_expect("fpu.xstate_magic1", sw[0] == FP_XSTATE_MAGIC1, "sw_reserved.magic1 %#x", sw[0]);
	el_expect("fpu.xstate_sizes", sw[4] >= 576 && sw[1] == sw[4] + 4,
		  "extended_size %u xstate_size %u", sw[1], sw[4]);
	el_expect("fpu.xstate_magic2", magic2 == FP_XSTATE_MAGIC2, "magic2 %#x at +%u", magic2,
		  sw[4]);
	el_expect("fpu.xfeatures_within_xcr0",
		  (sw[2] & 3) == 3 && !(((uint64_t)sw[3] << 32 | sw[2]) & ~cpu.xcr0),
		  "xfeatures %#llx, XCR0 %#llx", (unsigned long long)((uint64_t)sw[3] << 32 | sw[2]),
		  (unsigned long long)cpu.xcr0);
	el_expect("fpu.xstate_bv_within_xfeatures",
		  !(xstate_bv & ~((uint64_t)sw[3] << 32 | sw[2])),
		  "xstate_bv %#llx", (unsigned long long)xstate_bv);
	el_expect("fpu.xstate_size_holds_xfeatures", xstate_end(xfeatures) <= sw[4],
		  "xstate_size %u, the last component of xfeatures %#llx ends at %u", sw[4],
		  (unsigned long long)xfeatures, xstate_end(xfeatures));
	printf("fpu: the XSAVE frame: magic1 %#x, xstate_size %u, extended_size %u, xfeatures "
	       "%#llx, XSTATE_BV %#llx, magic2 %#x at +%u (XCR0 %#llx)\n", sw[0], sw[4], sw[1],
	       (unsigned long long)xfeatures, (unsigned long long)xstate_bv, magic2, sw[4],
	       (unsigned long long)cpu.xcr0);
}

static int corrupt_segv;

static void wreck_header(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_record(sig, si, ctx);
	/* Bytes 16-23 of the XSAVE header are reserved: XRSTOR would #GP on them. */
	memcpy((uint8_t *)uc->uc_mcontext.fpregs + XSAVE_HEADER_OFFSET + 16,
	       &(uint64_t){0xfffffff}, sizeof(uint64_t));
}

static void count_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)sig, (void)si, (void)ctx;
	corrupt_segv++;
}

/*
 * Linux's corrupt_xstate_header selftest: rt_sigreturn with reserved
 * header bytes set is SIGSEGV (the registers already restored, so its
 * handler returns to after the raise), and the program goes on.
 */
static void corrupt_header(void)
{
	if (!cpu.osxsave) {
		el_skip("fpu.corrupt_xstate_header", "CPUID.1:ECX.OSXSAVE is clear (Linux's "
			"selftest says \"CR4.OSXSAVE disabled\")");
		return;
	}
	sc_install(SIGUSR1, wreck_header, 0);
	sc_install(SIGSEGV, count_segv, 0);
	sc_reset();
	corrupt_segv = 0;
	raise(SIGUSR1);
	el_expect("fpu.corrupt_xstate_header", sc_seen.count == 1 && corrupt_segv == 1,
		  "SIGUSR1 handler ran %d times, SIGSEGV %d times (want 1 and 1)", sc_seen.count,
		  corrupt_segv);
	sc_default(SIGUSR1);
	sc_default(SIGSEGV);
}

static void ymm_preserved(void)
{
	long nr = SYS_tkill;

	if (!cpu.avx) {
		el_skip("fpu.ymm", "no AVX enabled (CPUID.1:ECX.AVX/OSXSAVE, XCR0 bits 1-2)");
		return;
	}
	fill_pattern(3);
	sc_install(SIGUSR1, clobber_handler, 0);
	sc_reset();
	memset(frame_ymm_hi, 0, sizeof(frame_ymm_hi));
	__asm__ volatile(FOR16(LOAD_YMM) "syscall\n\t" FOR16(STORE_YMM) "vzeroupper"
			 : "+a"(nr)
			 : [in] "r"(pattern), [out] "r"(after),
			   "D"(self_tid()), "S"((long)SIGUSR1)
			 : "rcx", "r11", "memory", XMM_CLOBBERS);
	el_expect("fpu.ymm_preserved", sc_seen.count == 1 && !memcmp(pattern, after, sizeof(after)),
		  "YMM0-15 differ after the handler");
	{
		int hi_ok = 1;

		for (int r = 0; r < 16; r++)
			hi_ok &= !memcmp(frame_ymm_hi + r * 16, pattern + r * 32 + 16, 16);
		el_expect("fpu.frame_ymm_upper_halves", hi_ok && (xstate_bv & 4),
			  "the AVX area at +%u does not hold the upper halves (xstate_bv %#llx)",
			  cpu.avx_offset, (unsigned long long)xstate_bv);
	}
	sc_default(SIGUSR1);
}

static void zmm_clobber(int sig, siginfo_t *si, void *ctx)
{
	sc_record(sig, si, ctx);
	__asm__ volatile("vpternlogd	$0xff, %%zmm31, %%zmm31, %%zmm31\n\t"
			 "kxnorw	%%k1, %%k1, %%k1\n\t"
			 "vzeroupper" ::: "memory");
}

static void zmm_preserved(void)
{
	uint16_t k_in = 0xa5c3, k_out = 0;
	long nr = SYS_tkill;

	if (!cpu.avx512) {
		el_skip("fpu.zmm", "no AVX-512 state in XCR0 (bits 5-7)");
		return;
	}
	fill_pattern(5);
	sc_install(SIGUSR1, zmm_clobber, 0);
	sc_reset();
	__asm__ volatile("vmovdqu64	(%[in]), %%zmm31\n\t"
			 "kmovw	%[kin], %%k1\n\t"
			 "syscall\n\t"
			 "vmovdqu64	%%zmm31, (%[out])\n\t"
			 "kmovw	%%k1, %[kout]\n\t"
			 "vzeroupper"
			 : [kout] "=m"(k_out), "+a"(nr)
			 : [in] "r"(pattern), [out] "r"(after), [kin] "m"(k_in),
			   "D"(self_tid()), "S"((long)SIGUSR1)
			 : "rcx", "r11", "memory");
	el_expect("fpu.zmm31_k1_preserved",
		  sc_seen.count == 1 && !memcmp(pattern, after, 64) && k_out == k_in,
		  "ZMM31 %s, k1 %#x (want %#x)", memcmp(pattern, after, 64) ? "differs" : "same",
		  k_out, k_in);
	sc_default(SIGUSR1);
}

void sc_fpu(void)
{
	detect();
	xmm_preserved();
	xstate_frame();
	corrupt_header();
	ymm_preserved();
	zmm_preserved();
}
