/*
 * Silencing the legacy 8259 PICs where the platform has them (legacy_pic.c).
 */
#ifndef EL_LEGACY_PIC_H
#define EL_LEGACY_PIC_H

/* Masks every 8259 line when the loader passed ACPI tables; else does nothing. */
void legacy_pic_mask(void);

#endif
