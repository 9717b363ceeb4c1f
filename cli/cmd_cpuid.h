/*
 * `entrylab cpuid [--cpu SPEC] [--json]`: what a guest would see, feature by
 * feature: where the bit lives, whether the host's KVM offers it, what the
 * spec asked, what KVM kept after KVM_SET_CPUID2, and who enforces it.
 */
#ifndef EL_CMD_CPUID_H
#define EL_CMD_CPUID_H

#include <stdbool.h>

/*
 * argv[0] is "cpuid".  Handles --nested/--no-nested like `entrylab run`:
 * where the engine probe (engine.h) says nested it re-runs itself in the
 * nested runner (nested_run()); --no-nested then fails with the probe's
 * reason, naming the KVM device.
 * Returns 0, EL_EXIT_USAGE (bad option or spec syntax), EL_EXIT_UNSUPPORTED
 * (+feat the host's KVM lacks, a toggle KVM did not keep -- the table is
 * printed first --, or no KVM and --no-nested) or EL_EXIT_VMM
 * (/dev/kvm unusable on the native path, an ioctl failed).
 */
int cmd_cpuid(int argc, char **argv);

/*
 * Whether this command line would touch KVM: false for --help and for
 * usage or spec errors, which are reported without booting anything.  For
 * a dispatcher that wants to choose native vs nested itself.
 */
bool cmd_cpuid_needs_kvm(int argc, char **argv);

#endif
