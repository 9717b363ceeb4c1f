/*
 * Framed lines for COM1 (the format: include/entrylab/serial_frame.h): how
 * the kernel hands its reports and its exit value to a host that has no
 * hypercall channel (Bochs, `qemu -kernel`).  Pure (only <stdint.h> and
 * <stddef.h>): the host unit tests and entrylab's /init for Linux
 * (guest/linux/frames.c) run the same encoder.
 */
#ifndef EL_LIB_SERIAL_FRAME_H
#define EL_LIB_SERIAL_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32, IEEE 802.3 (zlib's crc32(0, p, len)), bitwise. */
uint32_t serial_frame_crc32(const void *p, size_t len);

/*
 * Formats "\n" EL_FRAME_TAG kind " " len " " hex " " crc "\n" into out
 * (no NUL).  Returns the line's length, or 0 when len exceeds
 * EL_FRAME_TEXT_MAX (the longest payload of any kind: the text frames of
 * entrylab's Linux /init; the decoder holds each kind to its own length)
 * or the line does not fit size bytes.
 */
size_t serial_frame_format(char *out, size_t size, const char *kind, const void *payload,
			   size_t len);

#endif
