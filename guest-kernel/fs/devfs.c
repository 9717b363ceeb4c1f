/*
 * Character devices.  The console writes to COM1 (each byte is an OUT, a
 * VM exit: keep output out of measured regions) and reads as end of file:
 * the VMM has no input.  It is a terminal (fs/tty.c: termios, window size,
 * job control) and init's controlling one; /dev/tty is the caller's
 * controlling terminal, the console, or ENXIO without one.  full takes
 * nothing (ENOSPC) and reads zeros; random and urandom read the kernel's
 * generator.
 */
#include "fs/devfs.h"
#include "fs/file.h"
#include "fs/poll.h"
#include "fs/tty.h"
#include "lib/console.h"
#include "lib/hostio.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "time/random.h"
#include "entrylab/abi.h"

/* One hypercall per EL_WRITE_MAX: a big write is a few exits, not one per page. */
#define BOUNCE EL_WRITE_MAX

struct inode *dev_console;

static long read_eof(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f, (void)ubuf, (void)len, (void)off;
	return 0;
}

static long write_sink(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f, (void)ubuf, (void)off;
	return (long)len;
}

static long read_zero(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f, (void)off;
	return clear_user(ubuf, len) ? -EFAULT : (long)len;
}

static long write_full(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f, (void)ubuf, (void)off;
	return len ? -ENOSPC : 0;
}

/* /dev/random and /dev/urandom: the kernel's generator (time/random.c), never blocking. */
static long read_random(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	uint8_t chunk[256];
	size_t done = 0;

	(void)f, (void)off;
	while (done < len) {
		size_t k = len - done < sizeof(chunk) ? len - done : sizeof(chunk);

		random_bytes(chunk, k);
		if (copy_to_user(ubuf + done, chunk, k))
			return done ? (long)done : -EFAULT;
		done += k;
	}
	return (long)done;
}

/* A background process reading its terminal gets SIGTTIN (tty.c); else end of file. */
static long console_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	(void)f, (void)ubuf, (void)len, (void)off;
	return tty_check_io(false);
}

static long console_write_user(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	static char buf[BOUNCE]; /* one CPU, no preemption: not on the kernel stack */
	size_t done = 0;
	/* fd 2 of init is opened separately and marked: stderr stays stderr on the host. */
	unsigned fd = f->priv == DEVFS_STDERR ? 2 : 1;
	long err = tty_check_io(true);

	(void)off;
	if (err)
		return err;
	while (done < len) {
		size_t chunk = len - done < BOUNCE ? len - done : BOUNCE;

		if (copy_from_user(buf, ubuf + done, chunk))
			return done ? (long)done : -EFAULT;
		hostio_write(fd, buf, chunk);
		done += chunk;
	}
	return (long)done;
}

/* A tty answers poll (epoll accepts it): readable (end of file, or SIGTTIN) and writable. */
static uint32_t console_poll(struct file *f)
{
	(void)f;
	return POLL_ALWAYS;
}

static int tty_open(struct file *f)
{
	(void)f;
	return jobctl_has_ctty(current) ? 0 : -ENXIO;
}

static const struct file_ops console_ops = {
	.read = console_read, .write = console_write_user, .poll = console_poll, .ioctl = tty_ioctl};
static const struct file_ops tty_ops = {.read = console_read,
					.write = console_write_user,
					.poll = console_poll,
					.ioctl = tty_ioctl,
					.open = tty_open};
static const struct file_ops null_ops = {.read = read_eof, .write = write_sink, .seekable = true};
static const struct file_ops zero_ops = {.read = read_zero, .write = write_sink, .seekable = true};
static const struct file_ops full_ops = {.read = read_zero, .write = write_full, .seekable = true};
static const struct file_ops random_ops = {.read = read_random, .write = write_sink};

static const struct {
	const char *name;
	const struct file_ops *ops;
	uint32_t rdev; /* major << 8 | minor */
	struct inode **node;
} devices[] = {
	{"console", &console_ops, 0x501, &dev_console},
	{"tty", &tty_ops, 0x500, 0},
	{"null", &null_ops, 0x103, 0},
	{"zero", &zero_ops, 0x105, 0},
	{"full", &full_ops, 0x107, 0},
	{"random", &random_ops, 0x108, 0},
	{"urandom", &random_ops, 0x109, 0},
};

/* Links into /proc/self/fd, as udev makes them. */
static const char *const links[][2] = {
	{"fd", "/proc/self/fd"},
	{"stdin", "/proc/self/fd/0"},
	{"stdout", "/proc/self/fd/1"},
	{"stderr", "/proc/self/fd/2"},
};

void devfs_init(struct inode *dev)
{
	struct inode *shm;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(devices); i++) {
		size_t len = strlen(devices[i].name);
		struct inode *n = vfs_create(dev, devices[i].name, len, S_IFCHR | 0666);

		if (!n)
			panic("devfs: out of memory");
		n->ops = devices[i].ops;
		n->rdev = devices[i].rdev;
		if (devices[i].node)
			*devices[i].node = n;
	}
	for (i = 0; i < ARRAY_SIZE(links); i++) {
		struct inode *n = vfs_create(dev, links[i][0], strlen(links[i][0]), S_IFLNK | 0777);

		if (!n)
			panic("devfs: out of memory");
		n->data = (const uint8_t *)links[i][1];
		n->size = strlen(links[i][1]);
	}
	shm = vfs_create(dev, "shm", 3, S_IFDIR | 01777);
	if (!shm)
		panic("devfs: out of memory");
	shm->flags |= INODE_WRITABLE;
	shm->dev = VFS_DEV_SHM;
}
