/*
 * sigreturn_check regs: rt_sigreturn restores every general register and
 * RSP exactly as the frame says, including RCX != RIP and R11 != RFLAGS,
 * which SYSRET cannot return (it loads RIP from RCX and RFLAGS from R11):
 * a kernel returning with SYSRET here must notice and use IRET.
 */
#include <stdio.h>

#include "sigreturn_check.h"

static const int greg_of[15] = {
	[SR_RAX] = REG_RAX, [SR_RBX] = REG_RBX, [SR_RCX] = REG_RCX, [SR_RDX] = REG_RDX,
	[SR_RSI] = REG_RSI, [SR_RDI] = REG_RDI, [SR_RBP] = REG_RBP, [SR_R8] = REG_R8,
	[SR_R9] = REG_R9,   [SR_R10] = REG_R10, [SR_R11] = REG_R11, [SR_R12] = REG_R12,
	[SR_R13] = REG_R13, [SR_R14] = REG_R14, [SR_R15] = REG_R15,
};
static const char *const names[15] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8",
				      "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

static uint64_t pattern(int i)
{
	return 0x0101010101010101ull * (uint64_t)(i + 1) ^ 0x8000000000000000ull;
}

static void edit_all(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;

	for (int i = 0; i < 15; i++)
		g[greg_of[i]] = (greg_t)pattern(i);
	g[REG_RSP] -= 64;
}

static void unedited(void)
{
	int bad = -1;

	sr_run(NULL);
	for (int i = 0; i < 15 && bad < 0; i++)
		if (sr_out[i] != (uint64_t)sr_before[greg_of[i]])
			bad = i;
	el_expect("regs.unedited_frame_round_trip",
		  sr_fault.count == 0 && bad < 0 && sr_out[SR_RSP] == (uint64_t)sr_before[REG_RSP],
		  "faults %d; %s %#llx after, frame %#llx", sr_fault.count, bad < 0 ? "-" : names[bad],
		  bad < 0 ? 0ull : (unsigned long long)sr_out[bad],
		  bad < 0 ? 0ull : (unsigned long long)sr_before[greg_of[bad]]);
	el_expect("regs.frame_rcx_r11_from_syscall",
		  (uint64_t)sr_before[REG_RCX] == (uint64_t)(uintptr_t)sr_after_syscall &&
			  sr_before[REG_R11] == sr_before[REG_EFL] && sr_before[REG_RAX] == 0,
		  "frame RCX %#llx (RIP after SYSCALL %p) R11 %#llx RFLAGS %#llx RAX %lld",
		  (unsigned long long)sr_before[REG_RCX], (const void *)sr_after_syscall,
		  (unsigned long long)sr_before[REG_R11], (unsigned long long)sr_before[REG_EFL],
		  (long long)sr_before[REG_RAX]);
}

static void all_edited(void)
{
	char why[160] = "";

	sr_run(edit_all);
	for (int i = 0; i < 15 && !why[0]; i++)
		if (sr_out[i] != pattern(i))
			snprintf(why, sizeof(why), "%s %#llx, the frame said %#llx", names[i],
				 (unsigned long long)sr_out[i], (unsigned long long)pattern(i));
	if (!why[0] && sr_out[SR_RSP] != (uint64_t)sr_before[REG_RSP] - 64)
		snprintf(why, sizeof(why), "rsp %#llx, the frame said %#llx",
			 (unsigned long long)sr_out[SR_RSP],
			 (unsigned long long)sr_before[REG_RSP] - 64);
	el_expect("regs.every_register_restored_rcx_r11_too", sr_fault.count == 0 && !why[0],
		  "faults %d; %s", sr_fault.count, why);
}

void sr_regs(void)
{
	unedited();
	all_edited();
}
