/*
 * Local APIC driver.  x2APIC whenever CPUID offers it: its registers are
 * MSRs, which KVM's in-kernel APIC handles without decoding an instruction
 * (and the self-IPI is one WRMSR to SELF_IPI).  Otherwise xAPIC: the 4 KiB
 * register page at the APIC base, mapped uncached (PCD|PWT) at its
 * direct-map address — the RAM hole below 4 GiB is never direct-mapped, so
 * the slot is free.  Every local interrupt source (timer, LINT0/1, error)
 * stays masked: the only interrupts are the IPIs the kernel sends itself.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "lib/kprintf.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/pgtable.h"

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_EXTD BIT(10) /* x2APIC mode */
#define APIC_BASE_EN BIT(11)   /* APIC globally enabled */
#define APIC_BASE_ADDR 0xfffff000ull

/* Register offsets in the xAPIC page; the x2APIC MSR is 0x800 + offset / 16. */
#define APIC_VERSION 0x030
#define APIC_TPR 0x080
#define APIC_SVR 0x0f0
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370

#define SVR_ENABLE BIT(8)
#define LVT_MASKED BIT(16)

/* Read by the inline EOI and self-IPI (apic.h). */
struct apic_state apic = {APIC_NONE, 0};

static const char *const mode_names[] = {
	[APIC_NONE] = "none",
	[APIC_XAPIC] = "xAPIC (MMIO)",
	[APIC_X2APIC] = "x2APIC (MSRs)",
};

static const uint32_t masked_lvts[] = {APIC_LVT_TIMER, APIC_LVT_LINT0, APIC_LVT_LINT1,
				       APIC_LVT_ERROR};

static void apic_write(uint32_t off, uint32_t val)
{
	if (apic.mode == APIC_X2APIC)
		wrmsr(X2APIC_MSR(off), val);
	else
		apic.xapic_regs[off / 4] = val;
}

static uint32_t apic_read(uint32_t off)
{
	if (apic.mode == APIC_X2APIC)
		return (uint32_t)rdmsr(X2APIC_MSR(off));
	return apic.xapic_regs[off / 4];
}

/* The xAPIC page of this CPU's APIC base, uncached; false if it cannot be mapped. */
static bool xapic_map(uint64_t base)
{
	uint64_t pa = base & APIC_BASE_ADDR, va = DIRECT_MAP_BASE + pa;

	if (!paging_map_kernel_page(va, pa, PTE_W | PTE_PCD | PTE_PWT | kpaging.nx)) {
		kprintf("apic: cannot map the xAPIC page at %lx: no interrupts\n", pa);
		return false;
	}
	apic.xapic_regs = (volatile uint32_t *)va;
	return true;
}

void apic_init(uint8_t spurious_vector)
{
	uint64_t base;
	unsigned i;

	if (!cpu_has(CAP_APIC) || rdmsr_safe(MSR_APIC_BASE, &base)) {
		kprintf("apic: the vCPU has no local APIC: no interrupts, self-IPIs unavailable\n");
		return;
	}
	base |= APIC_BASE_EN;
	if (cpu_has(EL_FEAT_X2APIC)) {
		/* xAPIC -> x2APIC is the one allowed direction: EN first, then EXTD with it. */
		wrmsr(MSR_APIC_BASE, base & ~APIC_BASE_EXTD);
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EXTD);
		apic.mode = APIC_X2APIC;
	} else {
		wrmsr(MSR_APIC_BASE, base);
		if (!xapic_map(base))
			return;
		apic.mode = APIC_XAPIC;
	}
	for (i = 0; i < ARRAY_SIZE(masked_lvts); i++)
		apic_write(masked_lvts[i], LVT_MASKED);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_SVR, SVR_ENABLE | spurious_vector);
	kprintf("apic: %s, version 0x%x, spurious vector 0x%x\n", mode_names[apic.mode],
		apic_read(APIC_VERSION) & 0xff, spurious_vector);
}

enum apic_mode apic_mode(void)
{
	return apic.mode;
}

const char *apic_mode_name(void)
{
	return mode_names[apic.mode];
}

/*
 * The timer, periodic count-down mode, for every use (timer.h): the first
 * interrupt comes one period after arming, and then again every period
 * until it is re-armed or stopped.  The repeat is the backstop: an
 * interrupt that is lost or delivered late is followed by the next one a
 * period later, so no wait depends on a single interrupt arriving.  TSC-deadline mode cannot
 * repeat, so it is not used.  The count rate is measured against the TSC
 * the first time the timer is armed (not at boot: most runs never sleep).
 */
#define APIC_TIMER_INITIAL 0x380
#define APIC_TIMER_CURRENT 0x390
#define APIC_TIMER_DIVIDE 0x3e0
#define LVT_TIMER_PERIODIC (1u << 17)
#define TIMER_DIVIDE_BY_1 0xb

static struct {
	uint8_t vector;
	uint64_t ticks_per_ms; /* APIC timer ticks per ms (0: not measured yet) */
} timer;

static uint64_t tsc_now(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

bool apic_timer_init(uint8_t vector)
{
	if (apic.mode == APIC_NONE)
		return false;
	timer.vector = vector;
	apic_write(APIC_LVT_TIMER, LVT_MASKED | vector);
	return true;
}

static void timer_measure(uint64_t tsc_khz)
{
	uint64_t t0, left;

	apic_write(APIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_1);
	apic_write(APIC_LVT_TIMER, LVT_MASKED | timer.vector);
	apic_write(APIC_TIMER_INITIAL, 0xffffffffu);
	t0 = tsc_now();
	while (tsc_now() - t0 < tsc_khz)
		__asm__ __volatile__("pause");
	left = apic_read(APIC_TIMER_CURRENT);
	apic_write(APIC_TIMER_INITIAL, 0);
	timer.ticks_per_ms = 0xffffffffull - left;
	if (!timer.ticks_per_ms)
		timer.ticks_per_ms = 1;
	kprintf("apic: timer periodic count-down mode, %lu ticks per ms\n", timer.ticks_per_ms);
}

void apic_timer_arm(uint64_t period_ns, uint64_t tsc_khz)
{
	uint64_t ticks;

	if (apic.mode == APIC_NONE)
		return;
	if (!timer.ticks_per_ms)
		timer_measure(tsc_khz);
	ticks = period_ns * timer.ticks_per_ms / 1000000 + 1;
	apic_write(APIC_LVT_TIMER, LVT_TIMER_PERIODIC | timer.vector);
	apic_write(APIC_TIMER_INITIAL, ticks > 0xffffffffull ? 0xffffffffu : (uint32_t)ticks);
}

void apic_timer_stop(void)
{
	if (apic.mode == APIC_NONE)
		return;
	apic_write(APIC_TIMER_INITIAL, 0);
	apic_write(APIC_LVT_TIMER, LVT_MASKED | timer.vector);
}
