/*
 * Exit statuses of the entrylab process, and the record "status" values.
 * When the guest completed, entrylab exits with the user program's own
 * status (0..255); the codes below are reserved for everything else.  They
 * are documented in README.md ("Exit status"); keep the two in sync.
 */
#ifndef EL_STATUS_H
#define EL_STATUS_H

enum el_exit {
	EL_EXIT_USAGE = 120,       /* invalid command line, spec or experiment file */
	EL_EXIT_UNSUPPORTED = 121, /* the host cannot give what was asked (e.g. +pcid) */
	EL_EXIT_GUEST_CRASH = 122, /* triple fault, guest panic, emulation failure it caused */
	EL_EXIT_GUEST_BAD_IO = 123,/* unknown port/MMIO, malformed hypercall, inconsistent report */
	EL_EXIT_TIMEOUT = 124,     /* --timeout expired */
	EL_EXIT_VMM = 125,         /* KVM or VMM failure: ioctl error, failed entry, internal error,
				      the VMM process killed by seccomp or a signal */
};

/* Record "status" values (results/README.md). */
#define EL_STATUS_OK "ok"
#define EL_STATUS_GUEST_CRASH "guest-crash"
#define EL_STATUS_GUEST_BAD_IO "guest-bad-io"
#define EL_STATUS_TIMEOUT "timeout"
#define EL_STATUS_VMM_ERROR "vmm-error"
#define EL_STATUS_UNSUPPORTED "unsupported"

#endif
