/*
 * Vectored I/O as user mode sees it (Linux include/uapi/linux/uio.h and
 * fs.h): struct iovec's layout, the most elements one vector may have,
 * and the most bytes one read, write or transfer moves.
 */
#ifndef EL_SYS_UIO_H
#define EL_SYS_UIO_H

#include <stdint.h>

struct iovec_user {
	uint64_t base, len;
};

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT 0x7ffff000ull /* Linux caps one transfer here (INT_MAX & PAGE_MASK) */

#endif
