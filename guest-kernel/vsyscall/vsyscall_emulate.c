/*
 * Emulation of legacy vsyscall calls (emulate and xonly modes), from the
 * page-fault handler, with Linux's checks:
 *   - only user-mode instruction fetches (fault address == RIP) are calls;
 *     reads, writes and any access with vsyscall=none are refused;
 *   - only the three entry points (0x...600000, 400, 800) are calls;
 *   - the return address at the user RSP must be readable;
 *   - output pointers must lie in user memory and be writable (the call
 *     itself faulting on them is refused too);
 * then the caller sees what a `ret` from the page leaves: RAX = result,
 * RIP = the return address, RSP += 8.  Every refusal prints why; the
 * process then dies as SIGSEGV (status 139), as on Linux.  Each emulated
 * call is one page fault in the region counters.
 */
#include "arch/x86_64/trap_pf.h"
#include "entrylab/knobs.h"
#include "lib/kprintf.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess_range.h"
#include "sys/uaccess_u64.h"
#include "time/time.h"
#include "vsyscall/vsyscall.h"

#define ENTRY_MASK 0xc00u /* the entry points are 1 KiB apart */

/*
 * What an entry point does once its output pointers passed the range check:
 * the syscall's work without checking them again (only a fault on them is
 * caught, and the caller turns it into the SIGSEGV).
 */
typedef long vsyscall_fn(uint64_t a0, uint64_t a1);

static long emulate_time(uint64_t tloc, uint64_t unused)
{
	(void)unused;
	return time_time_checked(tloc);
}

static long emulate_getcpu(uint64_t cpu, uint64_t node)
{
	return sys_getcpu(cpu, node, 0, 0, 0, 0);
}

/* The entry points, by (address - VSYSCALL_ADDR) / 1 KiB. */
static const struct vsyscall_entry {
	const char *name;
	vsyscall_fn *fn;
	/*
	 * Per argument (RDI, RSI): the highest address an output of its size
	 * may start at to lie in user memory (OUT: user_range_ok() as one
	 * compare), ANY for an argument that is not an output.
	 */
	uint64_t arg_max[2];
} entries[] = {
#define OUT(size) (TASK_SIZE_MAX - (size))
#define ANY UINT64_MAX
	{"gettimeofday", time_gettimeofday_checked, {OUT(16), OUT(8)}}, /* timeval, timezone */
	{"time", emulate_time, {OUT(8), ANY}},                          /* time_t */
	{"getcpu", emulate_getcpu, {OUT(4), OUT(4)}},                   /* unsigned cpu, node */
#undef OUT
#undef ANY
};

/* Why a non-call access is refused, by mode (knobs.h). */
static const char *const access_refused[] = {
	[EL_VSYSCALL_NATIVE] = "unexpected fault on the native page",
	[EL_VSYSCALL_EMULATE] = "unexpected read fault on the readable page",
	[EL_VSYSCALL_XONLY] = "read denied: vsyscall=xonly makes the page execute-only "
			      "(vsyscall=emulate makes it readable)",
	[EL_VSYSCALL_NONE] = "access denied: vsyscall=none maps nothing there (vsyscall=xonly "
			     "or emulate allow calls)",
};

/*
 * Every refusal: prints why (the fault address is tf->rip for a call), the
 * caller kills.  Cold: the emulation keeps nothing live just for these.
 */
static __printf(3, 4) __attribute__((cold)) enum vsyscall_verdict refuse(
	const struct trap_frame *tf, uint64_t addr, const char *fmt, ...)
{
	va_list ap;

	kprintf("%s[%d]: vsyscall at %lx (rip %lx rsp %lx): ", current->comm, current->pid, addr,
		tf->rip, tf->rsp);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	return VSYSCALL_DENIED;
}

/* An access that is not a call, or a call in a mode that refuses calls. */
static __attribute__((cold)) enum vsyscall_verdict refuse_access(const struct trap_frame *tf,
								 uint64_t addr, uint8_t mode)
{
	if (tf->error & X86_PF_WRITE)
		return refuse(tf, addr, "write to the page (it is never writable)");
	if (addr == tf->rip && mode == EL_VSYSCALL_NONE)
		return refuse(tf, addr, "call refused: vsyscall=none disables legacy vsyscalls "
			      "(boot with vsyscall=xonly or emulate to allow them)");
	return refuse(tf, addr, "%s", access_refused[mode]);
}

static bool canonical(uint64_t va)
{
	return (uint64_t)((int64_t)(va << 16) >> 16) == va;
}

/* A call at tf->rip (the fault address) in a mode that emulates calls. */
static enum vsyscall_verdict emulate_call(struct trap_frame *tf)
{
	const struct vsyscall_entry *e;
	uint64_t offset = tf->rip - VSYSCALL_ADDR, nr = offset >> 10, caller;
	long ret;

	if (offset & ~(uint64_t)ENTRY_MASK || nr >= ARRAY_SIZE(entries))
		return refuse(tf, tf->rip, "call into the page at offset 0x%lx, not at an entry "
			      "point (0x000 gettimeofday, 0x400 time, 0x800 getcpu)", offset);
	e = &entries[nr];
	if (get_user_u64(&caller, tf->rsp))
		return refuse(tf, tf->rip, "the return address at rsp %lx is not readable",
			      tf->rsp);
	if (!canonical(caller))
		return refuse(tf, tf->rip, "the return address %lx is not canonical", caller);
	if (tf->rdi > e->arg_max[0] || tf->rsi > e->arg_max[1])
		return refuse(tf, tf->rip, "output pointer %lx is not in user memory",
			      tf->rdi > e->arg_max[0] ? tf->rdi : tf->rsi);
	ret = e->fn(tf->rdi, tf->rsi);
	if (ret == -EFAULT)
		return refuse(tf, tf->rip, "an output pointer is not writable (rdi %lx rsi %lx)",
			      tf->rdi, tf->rsi);
	tf->rax = (uint64_t)ret;
	tf->rip = caller;
	tf->rsp += 8;
	return VSYSCALL_EMULATED;
}

/* Which modes emulate a call (knobs.h): emulate and xonly. */
static const bool calls_emulated[] = {
	[EL_VSYSCALL_EMULATE] = true,
	[EL_VSYSCALL_XONLY] = true,
	[EL_VSYSCALL_NATIVE] = false,
	[EL_VSYSCALL_NONE] = false,
};

enum vsyscall_verdict vsyscall_fault(struct trap_frame *tf, uint64_t addr)
{
	uint8_t mode = vsyscall_effective_mode();

	if (ALIGN_DOWN(addr, PAGE_SIZE) != VSYSCALL_ADDR || !trap_from_user(tf) || !current)
		return VSYSCALL_NOT_MINE;
	/* Only an instruction fetch at the faulting RIP is a call: reads, writes are refused. */
	if ((tf->error & X86_PF_WRITE) || addr != tf->rip || !calls_emulated[mode])
		return refuse_access(tf, addr, mode);
	return emulate_call(tf);
}
