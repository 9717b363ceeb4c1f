/*
 * compatcheck: the i386 system call ABI in a 64-bit process, as Linux 6.1
 * with IA32 emulation has it (checked under `--guest linux`: this host's
 * kernel runs no 32-bit code).  Every run loads every register with a known
 * value and checks every one after (compatcheck_asm.S):
 *   int80_64.*      int $0x80 from 64-bit code: the i386 table whatever the
 *                   CS; the number is EAX (garbage in RAX's high half
 *                   ignored), the arguments EBX ECX EDX zero-extended (high
 *                   halves ignored), the result in RAX; every other
 *                   register, R8-R11 included, and RFLAGS as they were;
 *                   vm86 (166) is -ENOSYS;
 *   compat.int80    int $0x80 from 32-bit code in USER32_CS (0x23), far
 *                   jumped to with a stack below 4 GiB: EAX the result,
 *                   EBX-EBP, ESP, EFLAGS and (back in 64-bit code) R8-R15
 *                   as they were; write() through it;
 *   compat.int80_ldt the same from a 32-bit code segment in the LDT;
 *   fast.syscall    (AMD, Hygon: Intel raises #UD for SYSCALL in compat
 *                   mode) and fast.sysenter (Intel, Centaur, Zhaoxin: AMD
 *                   raises #UD for SYSENTER in long mode): in a child that
 *                   swaps its vDSO for the 32-bit one (munmap [vdso] and
 *                   [vvar], arch_prctl(ARCH_MAP_VDSO_32)), the sequence of
 *                   __kernel_vsyscall (push ECX EDX EBP; EBP = ECX or ESP)
 *                   then the instruction; the kernel returns to the vdso32
 *                   landing pad, which pops them and returns to the caller:
 *                   every register but EAX as it was, ECX (argument 2, in
 *                   EBP) reaching write().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "compatcheck.h"
#include "lib/sys.h"

#define NR32_write 4
#define NR32_getpid 20
#define NR32_vm86 166
#define ARCH_MAP_VDSO_32 0x2002
#define VDSO32_AT 0x70000000ul
#define FLAGS_IN 0xcd7ul     /* CF PF AF ZF SF DF OF and the fixed bit 1 */
#define FLAGS_CHECKED 0xcd5ul /* what must come back (IF and the rest are the kernel's to keep) */

static const char msg[] = "compatcheck: written through the i386 ABI\n";

/* Distinct values with both halves set, so a lost or swapped half shows. */
static void fill_in(uint64_t nr)
{
	uint64_t *r = &cc_in.rax;

	for (int i = 0; i < 15; i++)
		r[i] = 0x1111111100000000ull * (uint64_t)(i + 1) + 0x01020304ull * (uint64_t)(i + 3);
	cc_in.rax = nr;
	cc_in.rflags = FLAGS_IN | 0x200;
	memset(&cc_out, 0, sizeof(cc_out));
}

static const char *const names[15] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8",
				      "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

/*
 * Compares cc_out with cc_in but RAX (want_rax); compat: RAX-RBP by their
 * low halves (32-bit code cannot see more), ESP against the 32-bit stack;
 * compat 2 (SYSCALL, SYSENTER): not R8-R15 (SYSCALL writes R11; Linux zeroes
 * R8-R10 on SYSRETL and R8-R15 in the frame: invisible to 32-bit code).
 */
static void expect_regs(const char *name, uint64_t want_rax, int compat)
{
	char why[512] = "";
	size_t n = 0;
	const uint64_t *in = &cc_in.rax, *out = &cc_out.rax;
	uint64_t want_rsp = compat ? (uint64_t)(uintptr_t)cc_stack32_top : cc_saved_rsp;

	for (int i = 0; i < 15; i++) {
		uint64_t want = i == 0 ? want_rax : in[i], got = out[i];

		if (compat == 2 && i >= 7)
			continue; /* R8-R15 after SYSCALL/SYSENTER: not the i386 ABI's (Linux clears them) */
		if (compat && i < 7) {
			want = (uint32_t)want;
			got = (uint32_t)got;
		}
		if (got != want && n < sizeof(why) - 64)
			n += (size_t)snprintf(why + n, sizeof(why) - n, " %s %#lx (want %#lx)", names[i],
					      (unsigned long)got, (unsigned long)want);
	}
	if ((uint32_t)cc_out.rsp != (uint32_t)want_rsp || (!compat && cc_out.rsp != want_rsp))
		n += (size_t)snprintf(why + n, sizeof(why) - n, " rsp %#lx (want %#lx)",
				      (unsigned long)cc_out.rsp, (unsigned long)want_rsp);
	if ((cc_out.rflags & FLAGS_CHECKED) != (cc_in.rflags & FLAGS_CHECKED))
		snprintf(why + n, sizeof(why) - n, " rflags %#lx (want %#lx in %#lx)",
			 (unsigned long)cc_out.rflags, (unsigned long)(cc_in.rflags & FLAGS_CHECKED),
			 FLAGS_CHECKED);
	el_expect(name, !why[0], "%s", why);
}

static void check_int80_64(void)
{
	long pid = getpid();

	fill_in(0xffffffff00000000ull | NR32_getpid);
	cc_int80_64();
	expect_regs("int80_64.getpid", (uint64_t)pid, 0);

	fill_in(NR32_write);
	cc_in.rbx = 0xdead000000000001ull;
	cc_in.rcx = 0xbeef000000000000ull | (uint64_t)(uintptr_t)msg;
	cc_in.rdx = 0xf00d000000000000ull | (sizeof(msg) - 1);
	cc_int80_64();
	expect_regs("int80_64.write", sizeof(msg) - 1, 0);

	fill_in(NR32_vm86);
	cc_int80_64();
	expect_regs("int80_64.vm86_enosys", (uint64_t)-ENOSYS, 0);
}

static void compat_getpid_and_write(const char *what, uint16_t sel, enum cc_how how)
{
	char name[64];
	long pid = getpid();

	cc_code32_sel = sel;
	cc_how = how;
	fill_in(NR32_getpid);
	cc_compat_run();
	snprintf(name, sizeof(name), "%s.getpid", what);
	expect_regs(name, (uint64_t)pid, how == CC_INT80 ? 1 : 2);

	fill_in(NR32_write);
	cc_in.rbx = 1;
	cc_in.rcx = (uint64_t)(uintptr_t)msg;
	cc_in.rdx = sizeof(msg) - 1;
	cc_compat_run();
	snprintf(name, sizeof(name), "%s.write", what);
	expect_regs(name, sizeof(msg) - 1, how == CC_INT80 ? 1 : 2);
}

struct user_desc32 {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1, lm : 1;
};

static void check_ldt(void)
{
	struct user_desc32 d = {.entry_number = 0, .base_addr = 0, .limit = 0xfffff, .seg_32bit = 1,
				.contents = 2 /* code */, .limit_in_pages = 1, .useable = 1};
	long r = el_syscall3(SYS_modify_ldt, 0x11, (long)&d, sizeof(d));

	if (r != 0) {
		el_fail("compat.int80_ldt.getpid", "modify_ldt: %ld", r);
		return;
	}
	compat_getpid_and_write("compat.int80_ldt", 0 << 3 | 4 | 3, CC_INT80);
}

static void cpu_vendor(char v[13])
{
	unsigned a = 0, b, c, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = 0;
}

/* The child's half: drop the 64-bit vDSO, map the 32-bit one (Linux refuses while one is there). */
static int swap_vdso(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	long r;

	if (!f) {
		el_fail("fast.vdso32", "/proc/self/maps: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if ((strstr(line, "[vdso") || strstr(line, "[vvar")) &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			munmap((void *)lo, hi - lo);
	fclose(f);
	r = el_syscall2(SYS_arch_prctl, ARCH_MAP_VDSO_32, VDSO32_AT);
	if (r <= 0) { /* Linux answers the image's size */
		el_fail("fast.vdso32", "arch_prctl(ARCH_MAP_VDSO_32, %#lx): %ld", VDSO32_AT, r);
		return -1;
	}
	return 0;
}

static void check_fast(const char *name, enum cc_how how)
{
	pid_t c;
	int st = 0;

	fflush(stdout);
	c = fork();
	if (c == 0) {
		if (swap_vdso())
			_exit(1);
		compat_getpid_and_write(name, 0x23, how);
		_exit(el_summary(name) ? 1 : 0);
	}
	if (c < 0 || waitpid(c, &st, 0) != c) {
		el_fail(name, "fork/wait: %s", strerror(errno));
		return;
	}
	el_expect(name, WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %s %d (its lines above)",
		  WIFSIGNALED(st) ? "killed by signal" : "exit",
		  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

int main(void)
{
	char v[13];
	int amd, intel;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cpu_vendor(v);
	amd = !strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine");
	intel = !strcmp(v, "GenuineIntel") || !strcmp(v, "CentaurHauls") ||
		!strcmp(v, "  Shanghai  ");
	check_int80_64();
	compat_getpid_and_write("compat.int80", 0x23, CC_INT80);
	check_ldt();
	if (amd)
		check_fast("fast.syscall", CC_SYSCALL);
	else
		el_skip("fast.syscall", "%s: SYSCALL in compatibility mode is #UD (AMD only)", v);
	if (intel)
		check_fast("fast.sysenter", CC_SYSENTER);
	else
		el_skip("fast.sysenter", "%s: SYSENTER in long mode is #UD (Intel only)", v);
	return el_summary("compatcheck");
}
