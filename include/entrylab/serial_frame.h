/*
 * Reports as text on COM1, for engines with no hypercall channel (Bochs,
 * `qemu -kernel`): when the EL_HCALL_PROBE read at boot does not answer,
 * the guest kernel writes each report it would have handed over with
 * EL_HC_REPORT, and its exit value, as one framed line on COM1 instead:
 *
 *   "\n" EL_FRAME_TAG KIND " " LEN " " HEX " " CRC "\n"
 *
 *   KIND  "BOOT" or "RUN" (payload: the struct el_report bytes, abi.h, the
 *         kind field agreeing) or "EXIT" (payload: the 32-bit value, little
 *         endian, the guest would write to EL_PORT_EXIT);
 *   LEN   payload bytes, decimal;
 *   HEX   the payload, two lower-case hex digits per byte, no separators;
 *   CRC   CRC-32 (IEEE 802.3, zlib's crc32()) of the payload bytes, eight
 *         lower-case hex digits.
 *
 * The leading newline puts the tag at the start of a line whatever the
 * console printed before.  Both worlds include this file: the guest writes
 * frames (guest-kernel/lib/serial_frame.c), the host decodes them and then
 * validates a BOOT or RUN payload exactly as it validates a report that came
 * by hypercall.  The guest is untrusted: a frame that is cut, malformed,
 * repeated or fails its CRC is an error the host names, never a record.
 */
#ifndef ENTRYLAB_SERIAL_FRAME_H
#define ENTRYLAB_SERIAL_FRAME_H

#include "abi.h"

#define EL_FRAME_TAG "@entrylab-frame-v1 "
#define EL_FRAME_KIND_BOOT "BOOT"
#define EL_FRAME_KIND_RUN "RUN"
#define EL_FRAME_KIND_EXIT "EXIT"
/*
 * Text frames, from entrylab's /init on a Linux guest only (linux_init.h):
 * INFO (KEY=VALUE lines) and KSYMS (kallsyms lines).  Their payload is text
 * of at most EL_FRAME_TEXT_MAX bytes, no NUL.
 */
#define EL_FRAME_KIND_INFO "INFO"
#define EL_FRAME_KIND_KSYMS "KSYMS"
#define EL_FRAME_TEXT_MAX 4096u

/* The longest report payload (BOOT, RUN); the text frames carry up to EL_FRAME_TEXT_MAX. */
#define EL_FRAME_PAYLOAD_MAX 624u
_Static_assert(EL_FRAME_PAYLOAD_MAX >= sizeof(struct el_report), "a report fits a frame");
_Static_assert(EL_FRAME_TEXT_MAX >= EL_FRAME_PAYLOAD_MAX, "the longest frame is a text frame");
#define EL_FRAME_LINE_MAX (sizeof(EL_FRAME_TAG) + 8 + 12 + 2 * EL_FRAME_TEXT_MAX + 10)

/*
 * Bochs's shutdown port (its BIOS's "Shutdown" string port): writing the
 * eight bytes of EL_BOCHS_SHUTDOWN_STR to it, one OUTB each, ends Bochs.
 * The guest writes it after the EXIT frame and after the UART has drained.
 */
#define EL_PORT_BOCHS_SHUTDOWN 0x8900u
#define EL_BOCHS_SHUTDOWN_STR "Shutdown"

#endif
