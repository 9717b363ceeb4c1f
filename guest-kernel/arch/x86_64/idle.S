/*
 * idle_halt (idle.h): the idle loop's halt, with its HLT at a known
 * address so an interrupt that lands between STI and HLT can skip it.
 */
	.text
	.globl idle_halt, idle_halt_insn
idle_halt:
	sti
idle_halt_insn:
	hlt
	cli
	ret
