/*
 * GDT layout and selectors (C and asm).  Linux's layout, so that STAR is
 * programmed the way Linux does it (syscall_init.c):
 *   SYSCALL loads CS = STAR[47:32] = KERNEL_CS, SS = KERNEL_CS + 8 = KERNEL_DS;
 *   SYSRET  loads CS = STAR[63:48] + 16 = USER_CS, SS = STAR[63:48] + 8 = USER_DS,
 *   with STAR[63:48] = USER32_CS.
 * boot.S uses entries 1-3 of its own boot GDT with the same meaning.
 */
#ifndef EL_SEGMENT_H
#define EL_SEGMENT_H

#define GDT_ENTRY_KERNEL32_CS 1
#define GDT_ENTRY_KERNEL_CS 2
#define GDT_ENTRY_KERNEL_DS 3
#define GDT_ENTRY_USER32_CS 4
#define GDT_ENTRY_USER_DS 5
#define GDT_ENTRY_USER_CS 6
#define GDT_ENTRY_TSS 8 /* 16-byte system descriptor: entries 8 and 9 */
#define GDT_ENTRY_LDT 10 /* 16-byte system descriptor: entries 10 and 11 (ldt.c) */
/* Thread-local storage (set_thread_area, tls.c): each thread's own three descriptors. */
#define GDT_ENTRY_TLS_MIN 12
#define GDT_ENTRY_TLS_ENTRIES 3
#define GDT_ENTRY_TLS_MAX (GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)
/* Entry 15 is Linux's CPUNODE segment (vgetcpu's LSL); none here: the null descriptor. */
#define GDT_ENTRIES 16

#define KERNEL32_CS 0x08
#define KERNEL_CS 0x10
#define KERNEL_DS 0x18
#define USER32_CS 0x23
#define USER_DS 0x2b
#define USER_CS 0x33
#define TSS_SEL 0x40
#define LDT_SEL 0x50

/* Selector fields: requested privilege level, table indicator (1: the LDT). */
#define SEL_RPL_MASK 0x3
#define SEL_TI_LDT 0x4

/* Interrupt stack table slots (1-based as in the IDT gate). */
#define IST_DF 1
#define IST_NMI 2
#define IST_DB 3
#define IST_MC 4
#define IST_COUNT 4

/* The vectors whose gates use an IST stack (idt.c): entry.S sends them to its paranoid entry. */
#define IST_VECTORS ((1 << 1) | (1 << 2) | (1 << 8) | (1 << 18))

#ifndef __ASSEMBLER__
_Static_assert(KERNEL_CS == GDT_ENTRY_KERNEL_CS * 8, "KERNEL_CS");
_Static_assert(KERNEL_DS == GDT_ENTRY_KERNEL_DS * 8 && KERNEL_DS == KERNEL_CS + 8, "KERNEL_DS");
_Static_assert(USER32_CS == (GDT_ENTRY_USER32_CS * 8 | 3), "USER32_CS");
_Static_assert(USER_DS == (GDT_ENTRY_USER_DS * 8 | 3) && USER_DS == USER32_CS + 8, "USER_DS");
_Static_assert(USER_CS == (GDT_ENTRY_USER_CS * 8 | 3) && USER_CS == USER32_CS + 16, "USER_CS");
_Static_assert(TSS_SEL == GDT_ENTRY_TSS * 8, "TSS_SEL");
_Static_assert(LDT_SEL == GDT_ENTRY_LDT * 8, "LDT_SEL");
#endif

#endif
