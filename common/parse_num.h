/*
 * Numbers and sizes as the command line and experiment files write them:
 * strict (no sign, no trailing junk) and overflow-checked.  Host, and the
 * guest programs (guest/lib/bench.c reads benchmark arguments with
 * el_parse_scaled, and the host mirrors it in vmm/bench_iter.c).
 */
#ifndef EL_PARSE_NUM_H
#define EL_PARSE_NUM_H

#include <stdint.h>

/* Decimal integer in [min, max]; -1 otherwise. */
int el_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* "256M", "1G", "1GiB", "1048576" -> bytes; -1 on syntax error or overflow. */
int el_parse_size(const char *s, uint64_t *out);
/*
 * Digits then at most one suffix from suffixes, the k-th (from 0) multiplying
 * by unit^(k+1): ("16M", "KMG", 1024) -> 16 MiB, ("1k", "kMG", 1000) -> 1000.
 * -1 on syntax error or overflow.
 */
int el_parse_scaled(const char *s, const char *suffixes, uint64_t unit, uint64_t *out);

#endif
