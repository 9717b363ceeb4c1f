/*
 * /proc/kallsyms: _text's address (INFO ktext) and, with ksyms=1, the text
 * symbols as KSYMS frames (include/entrylab/linux_init.h).
 */
#ifndef LINIT_KSYMS_H
#define LINIT_KSYMS_H

#include <stddef.h>

/* _text's address as kallsyms prints it; "" when kallsyms hides it (all zeros) or lacks it. */
void linit_ktext(char *out, size_t cap);

struct linit_ksyms_stats {
	unsigned long symbols, frames;
	unsigned long long bytes; /* text payload */
};

/* Every t/T line as KSYMS frames.  0, or -1 with the problem in err. */
int linit_ksyms_send(struct linit_ksyms_stats *st, char *err, size_t errlen);

#endif
