/*
 * Names the x86 instruction at the start of a few bytes, as far as the VMM
 * needs to say which instruction a guest stopped on (KVM emulation failures).
 * Pure: no vCPU, no guest memory.
 */
#ifndef EL_INSN_NAME_H
#define EL_INSN_NAME_H

#include <stddef.h>
#include <stdint.h>

/* The mnemonic ("SYSENTER", "INT 0x80"), or NULL when the bytes are none entrylab names. */
const char *insn_name(const uint8_t *bytes, size_t len, char *buf, size_t buflen);

#endif
