/*
 * Raw and checked ioctl wrappers for /dev/kvm, and opening KVM itself.
 *
 * Two names per call: __kvm_ioctl() is the bare ioctl for calls that may
 * fail on purpose (KVM_RUN and EINTR, probing); kvm_ioctl() is for calls
 * that must succeed.  On failure it prints "<REQUEST> failed: <strerror>
 * (errno N)" with the request's own name, keeps the same line for
 * kvm_last_error() (the caller copies it into the run's detail) and returns -1.
 */
#ifndef EL_KVM_H
#define EL_KVM_H

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
 * Opens /dev/kvm, checks KVM_GET_API_VERSION == 12 and the capabilities
 * entrylab cannot run without.  Returns the fd, or -1 with a message
 * naming the problem and the fix in err.
 */
int kvm_open(char *err, size_t errlen);

/* KVM_CHECK_EXTENSION: > 0 when the capability is there. */
int kvm_cap(int kvm_fd, long cap);

#endif
