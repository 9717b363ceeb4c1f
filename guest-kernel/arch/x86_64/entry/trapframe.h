/*
 * The trap frame: what the entry asm saves on every exception, interrupt
 * (entry.S, entry_irq.S) and SYSCALL (entry_syscall.S), in the order of
 * Linux's pt_regs.
 *
 * Every offset the asm uses is defined here and checked against the struct
 * (below); the asm checks its push and pop order against the offsets at
 * assembly time (PUSH_AT in entry_syscall.S, POP_AT in calling.h).
 */
#ifndef EL_TRAPFRAME_H
#define EL_TRAPFRAME_H

#define TF_R15 0
#define TF_R14 8
#define TF_R13 16
#define TF_R12 24
#define TF_RBP 32
#define TF_RBX 40
#define TF_R11 48
#define TF_R10 56
#define TF_R9 64
#define TF_R8 72
#define TF_RAX 80
#define TF_RCX 88
#define TF_RDX 96
#define TF_RSI 104
#define TF_RDI 112
#define TF_VECTOR 120 /* pushed by the stub */
#define TF_ERROR 128  /* pushed by the CPU, or 0 by the stub */
#define TF_RIP 136    /* hardware frame from here on */
#define TF_CS 144
#define TF_RFLAGS 152
#define TF_RSP 160
#define TF_SS 168
#define TF_SIZE 176

/* Vectors for which the CPU pushes an error code: 8, 10-14, 17, 21, 29, 30. */
#define X86_ERROR_CODE_VECTORS 0x60227d00

#define NR_EXCEPTIONS 32

/*
 * Frames built by the SYSCALL entry carry this in the vector slot and the
 * syscall number as the user passed it (Linux's orig_ax) in the error slot;
 * RCX and R11 hold the user RIP and RFLAGS, as the instruction left them.
 */
#define TF_VECTOR_SYSCALL 0x100
/*
 * Frames of the compat entries (int $0x80 from any CS, compat SYSCALL,
 * SYSENTER: entry_compat.S) carry this one instead, the i386 number in the
 * error slot: the frame itself says which table the call used (Linux's
 * in_ia32_syscall()).  tf_syscall_vector() tests for either.
 */
#define TF_VECTOR_SYSCALL32 0x101

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct trap_frame {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi;
	uint64_t vector;
	uint64_t error;
	uint64_t rip, cs, rflags, rsp, ss;
};

#define TF_CHECK(field, off) \
	_Static_assert(offsetof(struct trap_frame, field) == (off), "trap_frame." #field)
TF_CHECK(r15, TF_R15);
TF_CHECK(r14, TF_R14);
TF_CHECK(r13, TF_R13);
TF_CHECK(r12, TF_R12);
TF_CHECK(rbp, TF_RBP);
TF_CHECK(rbx, TF_RBX);
TF_CHECK(r11, TF_R11);
TF_CHECK(r10, TF_R10);
TF_CHECK(r9, TF_R9);
TF_CHECK(r8, TF_R8);
TF_CHECK(rax, TF_RAX);
TF_CHECK(rcx, TF_RCX);
TF_CHECK(rdx, TF_RDX);
TF_CHECK(rsi, TF_RSI);
TF_CHECK(rdi, TF_RDI);
TF_CHECK(vector, TF_VECTOR);
TF_CHECK(error, TF_ERROR);
TF_CHECK(rip, TF_RIP);
TF_CHECK(cs, TF_CS);
TF_CHECK(rflags, TF_RFLAGS);
TF_CHECK(rsp, TF_RSP);
TF_CHECK(ss, TF_SS);
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "trap_frame size");
/* The CPU aligns the hardware frame to 16; the frame keeps the C call aligned. */
_Static_assert(TF_SIZE % 16 == 0, "trap_frame keeps RSP 16-byte aligned");
#undef TF_CHECK

static inline int trap_from_user(const struct trap_frame *tf)
{
	return (tf->cs & 3) != 0;
}

/* A frame built by a syscall entry, 64-bit or compat. */
static inline int tf_syscall_vector(const struct trap_frame *tf)
{
	return (tf->vector | 1) == TF_VECTOR_SYSCALL32;
}

#endif

#endif
