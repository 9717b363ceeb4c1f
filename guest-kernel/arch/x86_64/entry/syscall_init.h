/*
 * The MSRs of the SYSCALL instruction (syscall_init.c).
 */
#ifndef EL_SYSCALL_INIT_H
#define EL_SYSCALL_INIT_H

/* STAR, LSTAR, CSTAR, SFMASK, SYSENTER_CS and EFER.SCE; after cpu_setup(). */
void syscall_init(void);

#endif
