/*
 * Raw and checked ioctl wrappers for /dev/kvm, and opening KVM itself (which
 * device: kvm_device_path(), below).
 *
 * Two names per call: __kvm_ioctl() is the bare ioctl for calls that may
 * fail on purpose (KVM_RUN and EINTR, probing); kvm_ioctl() is for calls
 * that must succeed.  On failure it prints "<REQUEST> failed: <strerror>
 * (errno N)" with the request's own name, keeps the same line for
 * kvm_last_error() (the caller copies it into the run's detail) and returns -1.
 */
#ifndef EL_KVM_H
#define EL_KVM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/ioctl.h>

#include <linux/kvm.h>

#define __kvm_ioctl(fd, req, arg) ioctl((fd), (req), (arg))
#define kvm_ioctl(fd, req, arg) kvm_ioctl_checked((fd), (req), (unsigned long)(arg), #req)

int kvm_ioctl_checked(int fd, unsigned long req, unsigned long arg, const char *name);

/* Message of the last failed kvm_ioctl() on this thread ("" if none). */
const char *kvm_last_error(void);
void kvm_last_error_clear(void);

/*
 * The KVM device: $ENTRYLAB_KVM_DEVICE when it is set and not empty, else
 * /dev/kvm.  Every open of KVM on the host side goes through
 * kvm_device_open() (the VMM, the engine probe, `entrylab cpuid`, the host
 * facts of records, the matrix's prerequisites), so a path that does not
 * exist makes entrylab, and the tests that ask the engine probe, behave as
 * on a host without /dev/kvm: the nested runner.  The nested runner's VM
 * never gets the variable (harness/nested/init unsets it): the inner
 * entrylab uses the VM's own /dev/kvm.
 */
#define KVM_DEVICE_ENV "ENTRYLAB_KVM_DEVICE"
#define KVM_DEVICE_DEFAULT "/dev/kvm"
const char *kvm_device_path(void);
/* True when $ENTRYLAB_KVM_DEVICE chose kvm_device_path(). */
bool kvm_device_from_env(void);
/* open(kvm_device_path(), O_RDWR | O_CLOEXEC): the fd, or -1 with errno (nothing printed). */
int kvm_device_open(void);

/* The first capability entrylab needs that this KVM lacks, by name; NULL when none is. */
const char *kvm_missing_cap(int kvm_fd);

/*
 * Opens the KVM device (kvm_device_open), checks KVM_GET_API_VERSION == 12
 * and the capabilities entrylab cannot run without (kvm_missing_cap).
 * Returns the fd, or -1 with a message naming the device, the problem and
 * the fix in err.
 */
int kvm_open(char *err, size_t errlen);

/* KVM_CHECK_EXTENSION: > 0 when the capability is there. */
int kvm_cap(int kvm_fd, long cap);

#endif
