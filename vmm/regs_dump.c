/*
 * Register dump for a guest that stopped abnormally: what a kernel
 * developer looks at first (GPRs, RIP, RFLAGS, control registers, EFER,
 * segments, descriptor tables), one line per group; then why a halted one
 * did not wake (run state, pending event, LAPIC vectors and timer).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "kvm.h"
#include "regs_dump.h"

struct dump {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void put(struct dump *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (d->used >= d->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(d->buf + d->used, d->len - d->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		d->used += (size_t)n < d->len - d->used ? (size_t)n : d->len - d->used - 1;
}

static void put_seg(struct dump *d, const char *name, const struct kvm_segment *s)
{
	put(d, "%-3s=%04x base=%016llx limit=%08x type=%x s=%u dpl=%u p=%u db=%u l=%u g=%u%s\n",
	    name, s->selector, (unsigned long long)s->base, s->limit, s->type, s->s, s->dpl,
	    s->present, s->db, s->l, s->g, s->unusable ? " unusable" : "");
}


static const char *mp_state_name(__u32 s)
{
	static const char *const names[] = {
		[KVM_MP_STATE_RUNNABLE] = "RUNNABLE",	    [KVM_MP_STATE_UNINITIALIZED] = "UNINITIALIZED",
		[KVM_MP_STATE_INIT_RECEIVED] = "INIT_RECEIVED", [KVM_MP_STATE_HALTED] = "HALTED",
		[KVM_MP_STATE_SIPI_RECEIVED] = "SIPI_RECEIVED",
	};

	return s < EL_ARRAY_SIZE(names) && names[s] ? names[s] : "?";
}

static uint32_t lapic_reg(const struct kvm_lapic_state *l, unsigned off)
{
	uint32_t v;

	memcpy(&v, l->regs + off, sizeof(v));
	return v;
}

/* The vectors set in one 256-bit LAPIC bitmap (IRR 0x200, ISR 0x100), as "0x30 0xec" or "-". */
static void put_vectors(struct dump *d, const struct kvm_lapic_state *l, unsigned base)
{
	bool any = false;

	for (unsigned v = 0; v < 256; v++) {
		if (lapic_reg(l, base + (v / 32) * 16) & (1u << (v % 32))) {
			put(d, "%s0x%02x", any ? "," : "", v);
			any = true;
		}
	}
	if (!any)
		put(d, "-");
}

/*
 * Why a halted guest did not wake: the vCPU's run state, the event KVM
 * holds for it (interrupt shadow, an interrupt half injected), and the
 * LAPIC's pending (IRR) and in-service (ISR) vectors and timer.
 */
static void put_wake_state(struct dump *d, int vcpu_fd)
{
	struct kvm_mp_state mp;
	struct kvm_vcpu_events ev;
	static struct kvm_lapic_state l;

	if (__kvm_ioctl(vcpu_fd, KVM_GET_MP_STATE, &mp) == 0)
		put(d, "MP_STATE=%s", mp_state_name(mp.mp_state));
	if (__kvm_ioctl(vcpu_fd, KVM_GET_VCPU_EVENTS, &ev) == 0)
		put(d, " IRQ injected=%u nr=0x%02x shadow=%u soft=%u NMI pending=%u masked=%u",
		    ev.interrupt.injected, ev.interrupt.nr, ev.interrupt.shadow, ev.interrupt.soft,
		    ev.nmi.pending, ev.nmi.masked);
	put(d, "\n");
	if (__kvm_ioctl(vcpu_fd, KVM_GET_LAPIC, &l) < 0)
		return;
	put(d, "LAPIC IRR=");
	put_vectors(d, &l, 0x200);
	put(d, " ISR=");
	put_vectors(d, &l, 0x100);
	put(d, " TPR=%02x LVTT=%08x TMICT=%08x TMCCT=%08x\n", lapic_reg(&l, 0x80),
	    lapic_reg(&l, 0x320), lapic_reg(&l, 0x380), lapic_reg(&l, 0x390));
}

void regs_dump(int vcpu_fd, char *buf, size_t len)
{
	struct dump d = {buf, len, 0};
	struct kvm_regs r;
	struct kvm_sregs s;

	if (!len)
		return;
	buf[0] = '\0';
	if (__kvm_ioctl(vcpu_fd, KVM_GET_REGS, &r) < 0 ||
	    __kvm_ioctl(vcpu_fd, KVM_GET_SREGS, &s) < 0) {
		put(&d, "registers unavailable (KVM_GET_REGS/KVM_GET_SREGS failed)\n");
		return;
	}
	put(&d, "RAX=%016llx RBX=%016llx RCX=%016llx RDX=%016llx\n", r.rax, r.rbx, r.rcx, r.rdx);
	put(&d, "RSI=%016llx RDI=%016llx RBP=%016llx RSP=%016llx\n", r.rsi, r.rdi, r.rbp, r.rsp);
	put(&d, "R8 =%016llx R9 =%016llx R10=%016llx R11=%016llx\n", r.r8, r.r9, r.r10, r.r11);
	put(&d, "R12=%016llx R13=%016llx R14=%016llx R15=%016llx\n", r.r12, r.r13, r.r14, r.r15);
	put(&d, "RIP=%016llx RFLAGS=%08llx\n", r.rip, r.rflags);
	put(&d, "CR0=%08llx CR2=%016llx CR3=%016llx CR4=%08llx EFER=%08llx\n", s.cr0, s.cr2,
	    s.cr3, s.cr4, s.efer);
	put_seg(&d, "CS", &s.cs);
	put_seg(&d, "SS", &s.ss);
	put_seg(&d, "DS", &s.ds);
	put_seg(&d, "TR", &s.tr);
	put(&d, "GDT=%016llx/%04x IDT=%016llx/%04x\n", s.gdt.base, s.gdt.limit, s.idt.base,
	    s.idt.limit);
	put_wake_state(&d, vcpu_fd);
}
