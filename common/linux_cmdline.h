/*
 * The kernel command line of `--guest linux`: entrylab's base for a fast,
 * quiet boot that keeps /init's frames on COM1 intact, then the user's
 * --append as given (Linux's own knobs pass through; Linux parses them in
 * order, so a user's loglevel= or panic= overrides the base).  Pure: the
 * VMM and the trace side compose the line the same way.
 */
#ifndef EL_LINUX_CMDLINE_H
#define EL_LINUX_CMDLINE_H

#include <stddef.h>

/*
 * The base, knob by knob:
 *   console=ttyS0        Linux's console on COM1, where the VMM and QEMU read
 *                        it; /init's program writes there too (/dev/console)
 *   loglevel=4           errors and worse only (what `quiet` does): a quiet
 *                        boot and little chance that a kernel message cuts
 *                        into one of /init's frames; a panic still shows.
 *                        Before earlyprintk, or the boot console replays
 *                        the first messages at every level
 *   earlyprintk=ttyS0    COM1 before the console driver is up: an early
 *                        failure (a PVH boot problem) still says why
 *   panic=-1             a panic (also /init dying) resets at once instead
 *                        of hanging until the host's timeout
 *   reboot=t             ... by a triple fault, the one reset every VMM sees
 *                        (no ACPI reset register or keyboard controller needed)
 *   8250.nr_uarts=1      one UART probed, not four (port I/O for nothing)
 *   tsc=reliable         no TSC watchdog or boot-time TSC checks: no switch
 *                        of clocksource in the middle of a measurement
 *   no_timer_check       no wait for the IO-APIC timer check at boot
 *   pci=off              no PCI probing: entrylab's VMM has no PCI bus, and its
 *                        legacy ports answer all ones, so every probe is an
 *                        exit for nothing: on an AMD CPU the GART aperture
 *                        search alone reads 8192 config words (33,000 exits;
 *                        measured 2.0-2.2 s of a 6.6 s boot to /init in the
 *                        nested runner)
 *   nokaslr              the kernel at its link address every boot, so
 *                        kallsyms and trace attribution are the same each
 *                        time and no layout varies from run to run
 *   cryptomgr.notests    no self-tests of the crypto algorithms at boot: the
 *                        RSA test alone is 0.87 G of a stock boot's 1.49 G
 *                        instructions (counted under trace); nothing measured
 *                        here uses the kernel's crypto
 */
#define LINUX_CMDLINE_BASE                                                                 \
	"console=ttyS0 loglevel=4 earlyprintk=ttyS0 panic=-1 reboot=t 8250.nr_uarts=1 "    \
	"tsc=reliable no_timer_check pci=off nokaslr cryptomgr.notests"

/*
 * out = LINUX_CMDLINE_BASE, then user_append (may be NULL or "") after a
 * space.  Refused, with a message naming the knob and the fix: el.* knobs
 * (the VMM's), `--` and an open quote (el_cmdline_check_user); knobs of
 * include/entrylab/knobs.h that Linux 6.1 does not have (pti.global,
 * entry.ret, entry.irq_return, vdso.tsc, vdso.clamp, sched.region_tick)
 * and test.crash; our spellings Linux reads otherwise (vsyscall=native,
 * which Linux 6.1 no longer has, and vdso=on|off, where Linux's x86-64
 * vdso= takes 0|1 and reads "on" as 0); init= and rdinit= (they would
 * replace entrylab's /init); console= (the console must stay COM1: the
 * program's output and the frames go there).  0, or -1 with err; also -1
 * when the line does not fit cap.
 */
int linux_cmdline_compose(char *out, size_t cap, const char *user_append, char *err,
			  size_t errlen);

#endif
