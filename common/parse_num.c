/*
 * Number and size parsing (parse_num.h): strict, overflow-checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "parse_num.h"

int el_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int el_parse_size(const char *s, uint64_t *out)
{
	static const struct {
		char suffix;
		unsigned shift;
	} units[] = {{'K', 10}, {'M', 20}, {'G', 30}, {'T', 40}};
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		size_t i;

		for (i = 0; i < EL_ARRAY_SIZE(units); i++)
			if (toupper((unsigned char)*end) == units[i].suffix)
				break;
		if (i == EL_ARRAY_SIZE(units))
			return -1;
		shift = units[i].shift;
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
		if (*end == 'B' || *end == 'b')
			end++;
		if (*end)
			return -1;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int el_parse_scaled(const char *s, const char *suffixes, uint64_t unit, uint64_t *out)
{
	uint64_t v, mul = 1;
	const char *p;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		p = strchr(suffixes, *end);
		if (!p || end[1])
			return -1;
		for (long k = 0; k <= p - suffixes; k++) {
			if (mul > UINT64_MAX / unit)
				return -1;
			mul *= unit;
		}
	}
	if (v && mul > UINT64_MAX / v)
		return -1;
	*out = v * mul;
	return 0;
}
