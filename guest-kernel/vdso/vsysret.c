/*
 * The vDSO's SYSRET trampoline (layout: vsysret.h).  Exported so that the
 * kernel finds it in whichever image it maps (vdso_sym.c) and debuggers
 * can name it; the CFI describes the stacked registers like a signal
 * frame, so backtraces taken inside it reach the interrupted code.
 */
#include "vdso/vsysret.h"

#define STR(x) #x
#define XSTR(x) STR(x)

__asm__(".pushsection .text\n\t"
	".balign 16\n\t"
	".globl __vdso_sysret_trampoline\n\t"
	".type __vdso_sysret_trampoline, @function\n"
	"__vdso_sysret_trampoline:\n\t"
	".cfi_startproc simple\n\t"
	".cfi_signal_frame\n\t"
	".cfi_def_cfa %rsp, " XSTR(VSYSRET_FRAME + VSYSRET_REDZONE) "\n\t"
	".cfi_offset %rcx, -(" XSTR(VSYSRET_FRAME + VSYSRET_REDZONE) ")\n\t"
	".cfi_offset %r11, -(" XSTR(VSYSRET_FRAME + VSYSRET_REDZONE - 8) ")\n\t"
	".cfi_offset %rip, -(" XSTR(VSYSRET_FRAME + VSYSRET_REDZONE - 16) ")\n\t"
	"popq %rcx\n\t"
	".cfi_restore %rcx\n\t"
	".cfi_def_cfa_offset " XSTR(VSYSRET_FRAME + VSYSRET_REDZONE - 8) "\n\t"
	"popq %r11\n\t"
	".cfi_restore %r11\n\t"
	".cfi_def_cfa_offset " XSTR(VSYSRET_FRAME + VSYSRET_REDZONE - 16) "\n\t"
	"retq $" XSTR(VSYSRET_REDZONE) "\n\t"
	".cfi_endproc\n\t"
	".size __vdso_sysret_trampoline, . - __vdso_sysret_trampoline\n\t"
	".popsection");
