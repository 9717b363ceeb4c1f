/*
 * The entry and exit variants chosen at boot (percpu.entry_flags, EF_*):
 * what entry.S and entry_syscall.S do on every entry and exit.
 */
#ifndef EL_ENTRY_CONFIG_H
#define EL_ENTRY_CONFIG_H

#include "kernel.h"
#include "cmdline.h"

/*
 * After pti_init() and vdso_init() (the SYSRET trampoline is in the vDSO),
 * before the first process: sets the flags and the #PF gate.
 */
void entry_init(const struct el_cmdline *cl);

/* Effective value of EL_CFG_RET or EL_CFG_IRQ_RETURN (knobs.h); EL_CONFIG_UNSET otherwise. */
uint8_t entry_config(unsigned item);

/* At process exit: a line on how returns went where the variant has choices (SYSRET). */
void entry_print_stats(void);

#endif
