/*
 * The SYSRET trampoline in every built vDSO image: the kernel's lookup
 * (guest-kernel/vdso/vdso_sym.c) finds it, truncated or damaged images make
 * the lookup fail instead of read out of bounds, and the trampoline itself,
 * run on the host from a mapped copy of the image, restores RCX, R11, RIP
 * and RSP from the layout of guest-kernel/vdso/vsysret.h without touching
 * the flags or the red zone.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "array_size.h"
#include "guest-kernel/vdso/vdso_sym.h"
#include "guest-kernel/vdso/vsysret.h"

static const char *const variants[] = {"lfence-branch", "lfence-cmov", "lfence2-branch",
				       "lfence2-cmov", "rdtscp-branch", "rdtscp-cmov",
				       "none-branch", "none-cmov"};

/* The stripped image as the kernel embeds it, in an executable mapping. */
static uint8_t *load(const char *variant, size_t *size)
{
	char path[512];
	uint8_t *img;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/guest-kernel/vdso/vdso-%s.so", EL_BINARY_DIR, variant);
	f = fopen(path, "rb");
	cr_assert(f, "%s: not built", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	img = mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(img, MAP_FAILED);
	cr_assert_eq(fread(img, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return img;
}

Test(vdso_sym, every_image_has_the_trampoline)
{
	static const uint8_t code[] = {0x59, 0x41, 0x5b, 0xc2, VSYSRET_REDZONE, 0x00};

	for (size_t i = 0; i < EL_ARRAY_SIZE(variants); i++) {
		size_t size;
		uint8_t *img = load(variants[i], &size);
		uint64_t off = vdso_sym_find(img, size, VSYSRET_SYMBOL);

		cr_assert(off && off + sizeof(code) <= size, "%s: no %s", variants[i],
			  VSYSRET_SYMBOL);
		cr_expect_eq(memcmp(img + off, code, sizeof(code)), 0,
			     "%s: the trampoline is not POP RCX; POP R11; RET $128", variants[i]);
		cr_expect_neq(vdso_sym_find(img, size, "__vdso_clock_gettime"), 0);
		cr_expect_eq(vdso_sym_find(img, size, "__vdso_sysret"), 0, "a prefix is no match");
		cr_expect_eq(vdso_sym_find(img, size, "no_such_symbol"), 0);
		munmap(img, size);
	}
}

Test(vdso_sym, damaged_images_find_nothing)
{
	size_t size, cut;
	uint8_t *img = load("lfence-branch", &size);
	uint64_t off = vdso_sym_find(img, size, VSYSRET_SYMBOL);

	/* Every truncation either still finds the right value or finds nothing. */
	for (cut = 0; cut < size; cut += 8) {
		uint64_t got = vdso_sym_find(img, cut, VSYSRET_SYMBOL);

		cr_assert(got == 0 || got == off, "cut at %zu: %llx", cut, (unsigned long long)got);
	}
	img[0] = 0; /* not ELF */
	cr_expect_eq(vdso_sym_find(img, size, VSYSRET_SYMBOL), 0);
	munmap(img, size);
}

/*
 * Runs the trampoline as the kernel's SYSRET would enter it: RSP lowered by
 * the red zone and the frame, [RCX, R11, RIP] there, RCX and R11 holding
 * something else.  Returns what came back.
 */
struct tramp_out {
	uint64_t rcx, r11, rsp_before, rsp_after, flags_before, flags_after;
	uint64_t redzone[VSYSRET_REDZONE / 8];
};

static void run_trampoline(void *tramp, struct tramp_out *o)
{
	__asm__ __volatile__(
		/* Away from anything the compiler keeps below RSP in this leaf function. */
		"subq	$512, %%rsp\n\t"
		"movq	%%rsp, 16(%[o])\n\t"
		"stc\n\t"
		"pushfq\n\t"
		"popq	32(%[o])\n\t"
		/* Fill the red zone with a pattern the trampoline must leave alone. */
		"movq	$-16, %%rcx\n"
		"2:\tmovq	%%rcx, (%%rsp, %%rcx, 8)\n\t"
		"incq	%%rcx\n\t"
		"jnz	2b\n\t"
		"leaq	1f(%%rip), %%rax\n\t"
		"leaq	-128(%%rsp), %%rsp\n\t"
		"pushq	%%rax\n\t"             /* RIP */
		"pushq	$0x5151\n\t"           /* R11 */
		"pushq	$0x6161\n\t"           /* RCX */
		"movq	$0xdead, %%rcx\n\t"
		"movq	$0xbeef, %%r11\n\t"
		"stc\n\t"
		"jmp	*%[t]\n"
		"1:\tmovq	%%rsp, 24(%[o])\n\t"
		"movq	%%rcx, 0(%[o])\n\t"
		"movq	%%r11, 8(%[o])\n\t"
		/* Read the red zone back. */
		"movq	$-16, %%rcx\n"
		"3:\tmovq	(%%rsp, %%rcx, 8), %%rax\n\t"
		"movq	%%rax, 48 + 128(%[o], %%rcx, 8)\n\t"
		"incq	%%rcx\n\t"
		"jnz	3b\n\t"
		/* INC and MOV keep CF: it is still what the trampoline left. */
		"pushfq\n\t"
		"popq	40(%[o])\n\t"
		"addq	$512, %%rsp\n\t"
		:
		: [t] "r"(tramp), [o] "r"(o)
		: "rax", "rcx", "r11", "cc", "memory");
}

Test(vdso_sym, trampoline_restores_rcx_r11_rip_rsp)
{
	size_t size;
	uint8_t *img = load("lfence-branch", &size);
	uint64_t off = vdso_sym_find(img, size, VSYSRET_SYMBOL);
	struct tramp_out o;

	_Static_assert(VSYSRET_REDZONE == 128 && VSYSRET_FRAME == 24, "the asm above uses these");
	_Static_assert(sizeof(o.redzone) == 128, "red zone words");
	cr_assert(off);
	cr_assert_eq(mprotect(img, (size + 4095) & ~4095ul, PROT_READ | PROT_EXEC), 0);
	memset(&o, 0, sizeof(o));
	run_trampoline(img + off, &o);
	cr_expect_eq(o.rcx, 0x6161);
	cr_expect_eq(o.r11, 0x5151);
	cr_expect_eq(o.rsp_after, o.rsp_before, "RSP %llx, was %llx",
		     (unsigned long long)o.rsp_after, (unsigned long long)o.rsp_before);
	cr_expect_eq(o.flags_after & 1, 1, "the carry flag set before the jump must survive");
	for (int i = 0; i < 16; i++)
		cr_expect_eq(o.redzone[i], (uint64_t)(i - 16), "red zone word %d", i);
	munmap(img, size);
}
