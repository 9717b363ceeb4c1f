/* Register dump of the vCPU into a text buffer (res->regs). */
#ifndef EL_REGS_DUMP_H
#define EL_REGS_DUMP_H

#include <stddef.h>

void regs_dump(int vcpu_fd, char *buf, size_t len);

#endif
