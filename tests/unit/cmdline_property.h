/*
 * The host/guest command-line property, shared by the unit tests and the
 * knob fuzzer (tests/fuzz/fuzz_cmdline.c): for a --append the host accepts,
 * the guest kernel sees exactly the host's tokens, then the VMM's own el.*
 * knobs with the values the VMM wrote.
 */
#ifndef EL_CMDLINE_PROPERTY_H
#define EL_CMDLINE_PROPERTY_H

/*
 * Returns NULL when the property holds for append (also when the host
 * rejects it: nothing reaches the guest), else a description of what broke.
 */
const char *cmdline_property_check(const char *append);

#endif
