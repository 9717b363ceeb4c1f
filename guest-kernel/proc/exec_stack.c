/*
 * The initial stack, from the top down, as Linux lays it out:
 *   AT_EXECFN string, envp strings, argv strings (so argv[0] is lowest),
 *   "x86_64" ("i686" for an i386 program, as Linux's compat loader),
 *   16 random bytes,
 *   then (16-byte aligned at argc) argc, argv[], NULL, envp[], NULL, auxv.
 * An i386 program gets the same block in 4-byte words (compat_elf_addr_t).
 * Everything is written with copy_to_user: the stack area is demand-paged.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/x86.h"
#include "lib/string.h"
#include "proc/exec_stack.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "time/random.h"
#include "time/time.h"

#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SYSINFO 32
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_HWCAP2 26
#define AT_EXECFN 31
#define AT_SYSINFO_EHDR 33
#define AT_MINSIGSTKSZ 51

#define MAX_AUXV 24
#define HWCAP2_FSGSBASE 0x2

const char *const exec_init_env[] = {"HOME=/", "PATH=/bin", "TERM=linux"};
const unsigned exec_init_envc = ARRAY_SIZE(exec_init_env);

struct writer {
	uint64_t sp;
	uint64_t floor; /* the stack may not grow below: its top - STACK_LIMIT */
	int err;
};

/* Pushes len bytes below sp; returns their user address. */
static uint64_t push(struct writer *w, const void *data, size_t len)
{
	if (!w->err && w->sp - len < w->floor)
		w->err = -E2BIG;
	w->sp -= len;
	if (!w->err)
		w->err = copy_to_user(w->sp, data, len);
	return w->sp;
}

static uint64_t push_string(struct writer *w, const char *s)
{
	return push(w, s, strlen(s) + 1);
}

static unsigned fill_auxv(uint64_t *a, const struct exec_image *img, uint64_t random,
			  uint64_t platform, uint64_t execfn)
{
	unsigned n = 0;

#define AUX(type, val) (a[n++] = (type), a[n++] = (val))
	if (img->sysinfo)
		AUX(AT_SYSINFO, img->sysinfo);
	if (img->vdso)
		AUX(AT_SYSINFO_EHDR, img->vdso);
	AUX(AT_HWCAP, cpuid(1, 0).edx);
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, USER_HZ);
	AUX(AT_PHDR, img->phdr);
	AUX(AT_PHENT, img->ia32 ? 32 : 56);
	AUX(AT_PHNUM, img->phnum);
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, img->entry);
	AUX(AT_UID, 0);
	AUX(AT_EUID, 0);
	AUX(AT_GID, 0);
	AUX(AT_EGID, 0);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, random);
	AUX(AT_HWCAP2, (read_cr4() & CR4_FSGSBASE) ? HWCAP2_FSGSBASE : 0);
	AUX(AT_EXECFN, execfn);
	AUX(AT_PLATFORM, platform);
	AUX(AT_MINSIGSTKSZ, signal_min_stack_size());
	AUX(AT_NULL, 0);
#undef AUX
	return n;
}

int exec_build_stack(struct mm *mm, struct exec_image *img, const struct exec_strings *s)
{
	uint64_t ptrs[1 + EXEC_MAX_STRINGS + 1 + EXEC_MAX_STRINGS + 1 + MAX_AUXV * 2];
	uint64_t top = mm_stack_top(mm);
	struct writer w = {top - sizeof(uint64_t), top - STACK_LIMIT, 0};
	uint64_t execfn, platform, random, rnd[2], total;
	const char *const *argv = s->argv, *const *envp = s->envp;
	unsigned i, argc = s->argc, envc = s->envc, env0 = 1 + argc + 1, n = env0 + envc + 1;
	size_t word = img->ia32 ? sizeof(uint32_t) : sizeof(uint64_t);

	if (argc > EXEC_MAX_STRINGS || envc > EXEC_MAX_STRINGS)
		return -E2BIG;
	execfn = push_string(&w, img->execfn);
	/* Pushed from the top down: the last envp string first, argv[0] last. */
	for (i = envc; i-- > 0;)
		ptrs[env0 + i] = push_string(&w, envp[i]);
	for (i = argc; i-- > 0;)
		ptrs[1 + i] = push_string(&w, argv[i]);
	/* The strings lie back to back: argv's, envp's, then execfn (/proc/PID/cmdline, environ). */
	mm->env_end = execfn;
	mm->env_start = mm->arg_end = envc ? ptrs[env0] : execfn;
	mm->arg_start = argc ? ptrs[1] : mm->arg_end;
	ptrs[0] = argc;
	ptrs[1 + argc] = 0;
	ptrs[env0 + envc] = 0;
	platform = push_string(&w, img->ia32 ? "i686" : "x86_64");
	random_bytes(rnd, sizeof(rnd));
	w.sp &= ~15ull;
	random = push(&w, rnd, sizeof(rnd));
	n += fill_auxv(ptrs + n, img, random, platform, execfn);
	/* An i386 program reads 4-byte words: narrowed in place (every value fits). */
	for (i = 0; img->ia32 && i < n; i++) {
		uint32_t v = (uint32_t)ptrs[i];

		memcpy((uint8_t *)ptrs + i * sizeof(v), &v, sizeof(v));
	}
	/* Leave room so that the block ends where it must and starts 16-byte aligned. */
	total = n * word;
	w.sp = ((w.sp - total) & ~15ull) + total;
	push(&w, ptrs, total);
	if (w.err)
		return w.err;
	img->sp = w.sp;
	mm->start_stack = w.sp;
	return 0;
}
