/*
 * Privileged-instruction accessors.
 *
 * Each instruction that can fault has two forms:
 *   foo_safe(...)  returns 0, or the vector of the exception it raised (the
 *                  instruction then had no effect).  It is how the kernel
 *                  probes what the vCPU really allows.  None of these
 *                  instructions can raise #DE (vector 0), so 0 is unambiguous.
 *   foo(...)       the same, and an exception is a bug: it panics naming the
 *                  instruction, its operand and the exception.
 * Mechanism: the instruction is labelled and an (instruction, resume) address
 * pair goes into .extable (bounded by __extable_start/__extable_end in
 * kernel.ld).  When it faults, trap_dispatch() finds the pair, resumes after
 * the instruction and leaves the vector in RSI, which the asm declares as an
 * in/out operand initialised to 0 (see extable.c).
 * CLI, HLT, PAUSE and PUSHF cannot fault at CPL 0 and have no twins
 * (cpu_nofault.h); cpu_fault_panic() is in cpu_fault.c, a leaf.
 */
#ifndef EL_CPU_H
#define EL_CPU_H

#include "arch/x86_64/cpu_fault.h"
#include "arch/x86_64/cpu_nofault.h"
#include "kernel.h"

#define EXTABLE_ENTRY(insn, resume) \
	".pushsection .extable, \"a\"\n\t.balign 8\n\t.quad " #insn ", " #resume \
	"\n\t.popsection\n\t"
#define ASM_SAFE(insn) "1: " insn "\n2:\n\t" EXTABLE_ENTRY(1b, 2b)

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

struct invpcid_desc {
	uint64_t pcid;
	uint64_t addr;
};

enum invpcid_type {
	INVPCID_ADDR = 0,       /* one address in one PCID */
	INVPCID_CONTEXT = 1,    /* all non-global mappings of one PCID */
	INVPCID_ALL_GLOBAL = 2, /* everything, globals included */
	INVPCID_ALL = 3,        /* all non-global mappings of all PCIDs */
};

/* ---- control registers ------------------------------------------------- */

#define DEFINE_READ_CR(n)                                                              \
	static inline int read_cr##n##_safe(uint64_t *val)                             \
	{                                                                              \
		int vec = 0;                                                           \
		uint64_t v = 0;                                                        \
		__asm__ __volatile__(ASM_SAFE("mov %%cr" #n ", %[v]")                  \
				     : "+S"(vec), [v] "+r"(v));                        \
		*val = v;                                                              \
		return vec;                                                            \
	}                                                                              \
	static inline uint64_t read_cr##n(void)                                        \
	{                                                                              \
		uint64_t v;                                                            \
		int vec = read_cr##n##_safe(&v);                                       \
		if (vec)                                                               \
			cpu_fault_panic("MOV from CR" #n, 0, vec);                     \
		return v;                                                              \
	}

#define DEFINE_WRITE_CR(n)                                                             \
	static inline int write_cr##n##_safe(uint64_t val)                             \
	{                                                                              \
		int vec = 0;                                                           \
		__asm__ __volatile__(ASM_SAFE("mov %[v], %%cr" #n)                     \
				     : "+S"(vec) : [v] "r"(val) : "memory");           \
		return vec;                                                            \
	}                                                                              \
	static inline void write_cr##n(uint64_t val)                                   \
	{                                                                              \
		int vec = write_cr##n##_safe(val);                                     \
		if (vec)                                                               \
			cpu_fault_panic("MOV to CR" #n, val, vec);                     \
	}

DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
DEFINE_WRITE_CR(0)
DEFINE_WRITE_CR(3)
DEFINE_WRITE_CR(4)

/* ---- MSRs ---------------------------------------------------------------- */

static inline int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int vec = 0;
	uint32_t lo = 0, hi = 0;

	__asm__ __volatile__(ASM_SAFE("rdmsr") : "+S"(vec), "+a"(lo), "+d"(hi) : "c"(msr));
	*val = (uint64_t)hi << 32 | lo;
	return vec;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint64_t v;
	int vec = rdmsr_safe(msr, &v);

	if (vec)
		cpu_fault_panic("RDMSR", msr, vec);
	return v;
}

static inline int wrmsr_safe(uint32_t msr, uint64_t val)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("wrmsr")
			     : "+S"(vec)
			     : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			     : "memory");
	return vec;
}

static inline void wrmsr(uint32_t msr, uint64_t val)
{
	int vec = wrmsr_safe(msr, val);

	if (vec)
		cpu_fault_panic("WRMSR", msr, vec);
}

/* ---- CPUID --------------------------------------------------------------- */

static inline int cpuid_safe(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	int vec = 0;
	uint32_t a = leaf, b = 0, c = subleaf, d = 0;

	__asm__ __volatile__(ASM_SAFE("cpuid") : "+S"(vec), "+a"(a), "+b"(b), "+c"(c), "+d"(d));
	*r = (struct cpuid_regs){a, b, c, d};
	return vec;
}

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	int vec = cpuid_safe(leaf, subleaf, &r);

	if (vec)
		cpu_fault_panic("CPUID", leaf, vec);
	return r;
}

/* ---- TLB ------------------------------------------------------------------- */

static inline int invlpg_safe(uint64_t addr)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("invlpg (%[a])") : "+S"(vec) : [a] "r"(addr) : "memory");
	return vec;
}

static inline void invlpg(uint64_t addr)
{
	int vec = invlpg_safe(addr);

	if (vec)
		cpu_fault_panic("INVLPG", addr, vec);
}

static inline int invpcid_safe(enum invpcid_type type, uint64_t pcid, uint64_t addr)
{
	int vec = 0;
	struct invpcid_desc desc = {pcid, addr};

	__asm__ __volatile__(ASM_SAFE("invpcid %[d], %[t]")
			     : "+S"(vec)
			     : [d] "m"(desc), [t] "r"((uint64_t)type)
			     : "memory");
	return vec;
}

static inline void invpcid(enum invpcid_type type, uint64_t pcid, uint64_t addr)
{
	int vec = invpcid_safe(type, pcid, addr);

	if (vec)
		cpu_fault_panic("INVPCID", type, vec);
}

/* ---- descriptor tables ----------------------------------------------------- */

static inline int load_gdt_safe(const struct desc_ptr *p)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("lgdt %[p]") : "+S"(vec) : [p] "m"(*p) : "memory");
	return vec;
}

static inline void load_gdt(const struct desc_ptr *p)
{
	int vec = load_gdt_safe(p);

	if (vec)
		cpu_fault_panic("LGDT", p->base, vec);
}

static inline int load_idt_safe(const struct desc_ptr *p)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("lidt %[p]") : "+S"(vec) : [p] "m"(*p) : "memory");
	return vec;
}

static inline void load_idt(const struct desc_ptr *p)
{
	int vec = load_idt_safe(p);

	if (vec)
		cpu_fault_panic("LIDT", p->base, vec);
}

static inline int load_tr_safe(uint16_t sel)
{
	int vec = 0;

	__asm__ __volatile__(ASM_SAFE("ltr %[s]") : "+S"(vec) : [s] "r"(sel) : "memory");
	return vec;
}

static inline void load_tr(uint16_t sel)
{
	int vec = load_tr_safe(sel);

	if (vec)
		cpu_fault_panic("LTR", sel, vec);
}

#endif
