/*
 * The legacy 8259 PICs of a PC platform.  Under QEMU's PC machine the
 * firmware leaves them programmed with the timer unmasked at vector 8, which
 * would arrive as a "double fault" as soon as user mode runs with IF set.
 * The entrylab VMM emulates no PIC and ends the run on any access to an
 * unknown port, so the kernel touches them only where a platform declares
 * them: when the loader handed over ACPI tables (an RSDP), as firmware does.
 */
#include "arch/x86_64/io.h"
#include "arch/x86_64/legacy_pic.h"
#include "boot/bootinfo.h"
#include "lib/kprintf.h"

#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_DATA 0xa1

void legacy_pic_mask(void)
{
	if (!boot_info.rsdp_paddr)
		return;
	outb(PIC_SLAVE_DATA, 0xff);
	outb(PIC_MASTER_DATA, 0xff);
	kprintf("legacy PIC: all interrupt lines masked (ACPI platform)\n");
}
