/* regcheck: the events: what goes in before each one and what must come out after. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <entrylab/abi.h>

#include "regcheck.h"

#define VSYSCALL_BASE 0xffffffffff600000ul
#define PAGE 4096ul
#define POOL_PAGES 64ul
#define CALLEE_SAVED                                                                    \
	(1u << RC_RBX | 1u << RC_RBP | 1u << RC_R12 | 1u << RC_R13 | 1u << RC_R14 |       \
	 1u << RC_R15)

struct pool {
	int prot;
	char *base;
	unsigned long next;
};

static struct pool ro_pool = { PROT_READ, NULL, POOL_PAGES };
static struct pool rw_pool = { PROT_READ | PROT_WRITE, NULL, POOL_PAGES };
static uint64_t last_page, pid;
static struct timeval call_tv;
static unsigned call_cpu, call_node;

/* A page of anonymous memory nobody has touched since it was mapped. */
static uint64_t fresh_page(struct pool *p)
{
	if (p->next == POOL_PAGES) {
		if (p->base)
			munmap(p->base, POOL_PAGES * PAGE);
		p->base = mmap(NULL, POOL_PAGES * PAGE, p->prot, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p->base == MAP_FAILED) {
			perror("regcheck: mmap");
			_exit(1);
		}
		p->next = 0;
	}
	return (uint64_t)(p->base + PAGE * p->next++);
}

/* RFLAGS after DEC took the counter from 1 to 0: ZF and PF set, SF, OF, AF clear, CF kept. */
static uint64_t after_dec(uint64_t flags)
{
	return (flags & ~(F_OF | F_SF | F_ZF | F_AF | F_PF)) | F_ZF | F_PF;
}

static void setup_syscall(const struct rc_opts *o, unsigned long r)
{
	(void)o, (void)r;
	if (!pid)
		pid = (uint64_t)getpid();
	el_rc[RC_IN + RC_RAX] = SYS_getpid;
}

static void expect_syscall(struct rc_expect *e, unsigned long r)
{
	(void)r;
	e->exp[RC_RAX] = pid;
	e->exp[RC_RCX] = (uint64_t)el_rc_after_syscall;
	e->exp[RC_R11] = el_rc[RC_FLAGS_AT];
}

static void setup_read_fault(const struct rc_opts *o, unsigned long r)
{
	(void)o, (void)r;
	el_rc[RC_IN + RC_R15] = last_page = fresh_page(&ro_pool);
}

static void expect_read_fault(struct rc_expect *e, unsigned long r)
{
	(void)e, (void)r;
	if (el_rc[RC_XMM0] != 0)
		rc_detail("  read_fault: fresh page %#llx read %#llx, not zero\n",
		       (unsigned long long)last_page, (unsigned long long)el_rc[RC_XMM0]);
	e->failed = el_rc[RC_XMM0] != 0;
}

static void setup_write_fault(const struct rc_opts *o, unsigned long r)
{
	(void)o, (void)r;
	el_rc[RC_IN + RC_R15] = last_page = fresh_page(&rw_pool);
}

static void expect_write_fault(struct rc_expect *e, unsigned long r)
{
	(void)r;
	if (*(volatile uint64_t *)last_page != e->exp[RC_R14]) {
		rc_detail("  write_fault: page %#llx holds %#llx, not the stored r14\n",
		       (unsigned long long)last_page,
		       (unsigned long long)*(volatile uint64_t *)last_page);
		e->failed = 1;
	}
}

static void setup_spin_loop(const struct rc_opts *o, unsigned long r)
{
	(void)r;
	el_rc[RC_IN + RC_RCX] = o->spin;
}

static void expect_spin_loop(struct rc_expect *e, unsigned long r)
{
	(void)r;
	e->exp[RC_RCX] = 0;
}

static void setup_spin_dec(const struct rc_opts *o, unsigned long r)
{
	(void)r;
	el_rc[RC_IN + RC_RAX] = o->spin;
}

static void expect_spin_dec(struct rc_expect *e, unsigned long r)
{
	(void)r;
	e->exp[RC_RAX] = 0;
	e->flags = after_dec(e->flags);
}

static void setup_self_ipi(const struct rc_opts *o, unsigned long r)
{
	(void)r;
	el_rc[RC_IN + RC_RAX] = EL_SYS_SELF_IPI;
	el_rc[RC_IN + RC_RDI] = o->ipis;
	el_rc[RC_IN + RC_RSI] = 0;
	el_rc[RC_SPIN] = o->spin;
}

static void expect_self_ipi(struct rc_expect *e, unsigned long r)
{
	(void)r;
	if (el_rc[RC_RET] != 0) {
		long long ret = (long long)el_rc[RC_RET];

		rc_detail("  self_ipi: EL_SYS_SELF_IPI returned %lld%s\n", ret,
		       ret == -ENOSYS ? " (ENOSYS: not the entrylab kernel?)" : "");
		e->failed = 1;
	}
	e->exp[RC_RAX] = 0;
	e->exp[RC_RCX] = (uint64_t)el_rc_after_ipi;
	e->exp[RC_R11] = el_rc[RC_FLAGS_AT];
	e->flags = after_dec(e->flags);
}

/* Round r calls entry r % 3: gettimeofday(&tv, NULL), time(NULL), getcpu(&cpu, &node, NULL). */
static void setup_call(const struct rc_opts *o, unsigned long r)
{
	(void)o;
	call_tv.tv_sec = 0;
	call_cpu = ~0u;
	el_rc[RC_IN + RC_RAX] = VSYSCALL_BASE + 0x400 * (r % 3);
	el_rc[RC_IN + RC_RDI] = r % 3 == 0 ? (uint64_t)&call_tv :
				r % 3 == 1 ? 0 : (uint64_t)&call_cpu;
	el_rc[RC_IN + RC_RSI] = r % 3 == 2 ? (uint64_t)&call_node : 0;
	el_rc[RC_IN + RC_RDX] = 0;
	el_rc[RC_IN_FLAGS] &= ~(F_DF | F_AC); /* the C ABI wants DF clear at a call */
}

static void expect_call(struct rc_expect *e, unsigned long r)
{
	long long now = time(NULL), ret = (long long)el_rc[RC_OUT + RC_RAX];
	int ok = r % 3 == 0 ? ret == 0 && call_tv.tv_sec - now <= 1 && now - call_tv.tv_sec <= 1 :
		 r % 3 == 1 ? ret - now <= 1 && now - ret <= 1 :
			      ret == 0 && call_cpu < 4096;

	if (!ok) {
		rc_detail("  vsyscall: entry %#llx returned %lld (time %lld, tv %lld, cpu %u)\n",
		       (unsigned long long)el_rc[RC_IN + RC_RAX], ret, now,
		       (long long)call_tv.tv_sec, call_cpu);
		e->failed = 1;
	}
	e->mask = CALLEE_SAVED;
	e->flags = 0;
	e->flags_mask = F_DF;
	/* The return address went below RSP: the red zone is the callee's. */
	e->redzone = 0;
}

struct rc_event rc_events[RC_EV_COUNT] = {
	[RC_EV_SYSCALL] = { "syscall", setup_syscall, expect_syscall, 0, 0 },
	[RC_EV_READ_FAULT] = { "read_fault", setup_read_fault, expect_read_fault, 0, 0 },
	[RC_EV_WRITE_FAULT] = { "write_fault", setup_write_fault, expect_write_fault, 0, 0 },
	[RC_EV_SPIN_LOOP] = { "spin_loop", setup_spin_loop, expect_spin_loop, 0, 0 },
	[RC_EV_SPIN_DEC] = { "spin_dec", setup_spin_dec, expect_spin_dec, 0, 0 },
	[RC_EV_SELF_IPI] = { "self_ipi", setup_self_ipi, expect_self_ipi, 0, 0 },
	[RC_EV_CALL] = { "vsyscall", setup_call, expect_call, 0, 0 },
};
