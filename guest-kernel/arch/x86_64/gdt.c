/*
 * GDT (Linux's layout, segment.h), the TSS with its I/O bitmaps (ioport.c),
 * the IST stacks, and the LDT descriptor the running process's LDT uses
 * (ldt.c).
 *
 * All of it lives in .bss..entry: page-table isolation maps it into the
 * user page tables, since the CPU reads GDT and TSS on every entry.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/segment.h"
#include "lib/string.h"

#define IST_STACK_SIZE 8192

extern char boot_stack_top[];

static uint64_t gdt[GDT_ENTRIES] __entry_bss __aligned(64);
struct tss_area cpu_tss __entry_bss __aligned(128);
/* IST stacks: #DF, NMI, #DB and #MC each get their own (IST_DF.. in segment.h). */
static uint8_t ist_stacks[IST_COUNT][IST_STACK_SIZE] __entry_bss __aligned(4096);

/* Access byte and flags nibble of each code/data segment. */
struct seg_desc {
	unsigned index;
	uint8_t access; /* P, DPL, S, type */
	uint8_t flags;  /* G, D/B, L */
};

#define SEG_ACCESS(dpl, type) (0x80 | (dpl) << 5 | 0x10 | (type))
#define SEG_CODE 0xb /* execute/read, accessed */
#define SEG_DATA 0x3 /* read/write, accessed */
#define SEG_G 0x8
#define SEG_DB 0x4
#define SEG_L 0x2

static const struct seg_desc segments[] = {
	{GDT_ENTRY_KERNEL32_CS, SEG_ACCESS(0, SEG_CODE), SEG_G | SEG_DB},
	{GDT_ENTRY_KERNEL_CS, SEG_ACCESS(0, SEG_CODE), SEG_G | SEG_L},
	{GDT_ENTRY_KERNEL_DS, SEG_ACCESS(0, SEG_DATA), SEG_G | SEG_DB},
	{GDT_ENTRY_USER32_CS, SEG_ACCESS(3, SEG_CODE), SEG_G | SEG_DB},
	{GDT_ENTRY_USER_DS, SEG_ACCESS(3, SEG_DATA), SEG_G | SEG_DB},
	{GDT_ENTRY_USER_CS, SEG_ACCESS(3, SEG_CODE), SEG_G | SEG_L},
};

/* Flat segment: base 0, limit 0xfffff pages. */
static uint64_t seg_encode(uint8_t access, uint8_t flags)
{
	return 0xffffull | (uint64_t)access << 40 | 0xfull << 48 | (uint64_t)flags << 52;
}

#define SYS_TSS_AVAILABLE 0x89 /* present, DPL 0, available 64-bit TSS */
#define SYS_LDT 0x82           /* present, DPL 0, LDT */

/* A 16-byte system descriptor (TSS, LDT) at entries index and index + 1. */
static void gdt_set_system(unsigned index, uint64_t base, uint32_t limit, uint8_t access)
{
	gdt[index] = (limit & 0xffff) | (base & 0xffffff) << 16 | (uint64_t)access << 40 |
		     (uint64_t)((limit >> 16) & 0xf) << 48 | ((base >> 24) & 0xff) << 56;
	gdt[index + 1] = base >> 32;
}

/*
 * Reload CS through a far return (there is no far jump to an immediate in
 * 64-bit mode), then the data segments.  FS and GS get the null selector
 * before their base MSRs are written (percpu.c), since loading a selector
 * may reset the base.
 */
static void segments_reload(void)
{
	__asm__ __volatile__("pushq %[cs]\n\t"
			     "leaq 1f(%%rip), %%rax\n\t"
			     "pushq %%rax\n\t"
			     "lretq\n"
			     "1:\n\t"
			     "movl %[ds], %%eax\n\t"
			     "movl %%eax, %%ds\n\t"
			     "movl %%eax, %%es\n\t"
			     "movl %%eax, %%ss\n\t"
			     "xorl %%eax, %%eax\n\t"
			     "movl %%eax, %%fs\n\t"
			     "movl %%eax, %%gs\n\t"
			     :
			     : [cs] "i"(KERNEL_CS), [ds] "i"(KERNEL_DS)
			     : "rax", "memory");
}

void tss_set_rsp0(uint64_t rsp0)
{
	cpu_tss.hw.rsp[0] = rsp0;
}

void tss_set_iomap_base(uint16_t offset)
{
	cpu_tss.hw.iomap_base = offset;
}

void gdt_set_tls(const uint64_t *tls)
{
	memcpy(&gdt[GDT_ENTRY_TLS_MIN], tls, GDT_ENTRY_TLS_ENTRIES * sizeof(gdt[0]));
}

/* LLDT reads the descriptor now; later changes to it need another LLDT. */
void gdt_load_ldt(const uint64_t *entries, unsigned n)
{
	uint16_t sel = 0;

	if (n) {
		gdt_set_system(GDT_ENTRY_LDT, (uint64_t)entries, n * 8 - 1, SYS_LDT);
		sel = LDT_SEL;
	}
	__asm__ __volatile__("lldt %0" : : "r"(sel) : "memory");
}

void gdt_init(void)
{
	struct desc_ptr p = {sizeof(gdt) - 1, (uint64_t)gdt};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(segments); i++)
		gdt[segments[i].index] = seg_encode(segments[i].access, segments[i].flags);
	for (i = 0; i < IST_COUNT; i++)
		cpu_tss.hw.ist[i] = (uint64_t)ist_stacks[i] + IST_STACK_SIZE;
	/*
	 * No I/O bitmap until a task asks (ioport.c): the base points past the
	 * limit, so user port I/O faults.  Both bitmaps end with the all-ones
	 * byte the CPU reads for the last port; the copy starts all denied.
	 */
	memset(cpu_tss.io_map, 0xff, sizeof(cpu_tss.io_map));
	cpu_tss.io_all[IO_BITMAP_BYTES] = 0xff;
	tss_set_iomap_base(IO_BITMAP_OFFSET_INVALID);
	tss_set_rsp0((uint64_t)boot_stack_top);
	gdt_set_system(GDT_ENTRY_TSS, (uint64_t)&cpu_tss, sizeof(cpu_tss) - 1, SYS_TSS_AVAILABLE);

	load_gdt(&p);
	segments_reload();
	load_tr(TSS_SEL);
	gdt_load_ldt(0, 0);
}
