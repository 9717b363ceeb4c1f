/*
 * The KVM device (/dev/kvm or $ENTRYLAB_KVM_DEVICE, kvm.h): which one, the
 * checked ioctl wrapper and the API/capability checks done once per VM
 * before anything else touches KVM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "kvm.h"

static _Thread_local char kvm_err[256];

int kvm_ioctl_checked(int fd, unsigned long req, unsigned long arg, const char *name)
{
	int ret = ioctl(fd, req, arg);

	if (ret < 0) {
		int e = errno;

		snprintf(kvm_err, sizeof(kvm_err), "%s failed: %s (errno %d)", name, strerror(e),
			 e);
		fprintf(stderr, "entrylab: %s\n", kvm_err);
		errno = e;
		return -1;
	}
	return ret;
}

const char *kvm_last_error(void)
{
	return kvm_err;
}

void kvm_last_error_clear(void)
{
	kvm_err[0] = '\0';
}

int kvm_cap(int kvm_fd, long cap)
{
	int ret = __kvm_ioctl(kvm_fd, KVM_CHECK_EXTENSION, cap);

	return ret < 0 ? 0 : ret;
}

/* Capabilities the VMM relies on; all are old (Linux <= 4.11). */
static const struct {
	long cap;
	const char *name;
} kvm_required_caps[] = {
	{KVM_CAP_USER_MEMORY, "KVM_CAP_USER_MEMORY"},
	{KVM_CAP_IMMEDIATE_EXIT, "KVM_CAP_IMMEDIATE_EXIT"},
	{KVM_CAP_EXT_CPUID, "KVM_CAP_EXT_CPUID"},
	{KVM_CAP_SET_TSS_ADDR, "KVM_CAP_SET_TSS_ADDR"},
	{KVM_CAP_IRQCHIP, "KVM_CAP_IRQCHIP (in-kernel LAPIC, IOAPIC, PIC)"},
};

const char *kvm_device_path(void)
{
	const char *dev = getenv(KVM_DEVICE_ENV);

	return dev && *dev ? dev : KVM_DEVICE_DEFAULT;
}

bool kvm_device_from_env(void)
{
	const char *dev = getenv(KVM_DEVICE_ENV);

	return dev && *dev;
}

int kvm_device_open(void)
{
	return open(kvm_device_path(), O_RDWR | O_CLOEXEC);
}

const char *kvm_missing_cap(int kvm_fd)
{
	for (size_t i = 0; i < EL_ARRAY_SIZE(kvm_required_caps); i++)
		if (kvm_cap(kvm_fd, kvm_required_caps[i].cap) <= 0)
			return kvm_required_caps[i].name;
	return NULL;
}

int kvm_open(char *err, size_t errlen)
{
	const char *dev = kvm_device_path(), *missing;
	int fd = kvm_device_open();
	int version;

	if (fd < 0) {
		snprintf(err, errlen,
			 "cannot open %s%s: %s; load kvm-intel or kvm-amd and make %s "
			 "read-writable for this user, or use --nested",
			 dev, kvm_device_from_env() ? " (" KVM_DEVICE_ENV ")" : "", strerror(errno),
			 dev);
		return -1;
	}
	version = __kvm_ioctl(fd, KVM_GET_API_VERSION, 0);
	if (version != KVM_API_VERSION) {
		snprintf(err, errlen,
			 "%s speaks API version %d, entrylab needs %d; this kernel's KVM "
			 "is not usable, use --nested",
			 dev, version, KVM_API_VERSION);
		close(fd);
		return -1;
	}
	if ((missing = kvm_missing_cap(fd))) {
		snprintf(err, errlen,
			 "this host's KVM (%s) lacks %s, which entrylab needs; use a newer "
			 "kernel or --nested",
			 dev, missing);
		close(fd);
		return -1;
	}
	return fd;
}
