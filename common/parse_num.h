/*
 * Numbers and sizes as the command line and experiment files write them:
 * strict (no sign, no trailing junk) and overflow-checked.  Host only.
 */
#ifndef EL_PARSE_NUM_H
#define EL_PARSE_NUM_H

#include <stdint.h>

/* Decimal integer in [min, max]; -1 otherwise. */
int el_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* "256M", "1G", "1GiB", "1048576" -> bytes; -1 on syntax error or overflow. */
int el_parse_size(const char *s, uint64_t *out);

#endif
