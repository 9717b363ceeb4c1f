/*
 * /proc/PID/smaps per-area lines (smaps_format.h).  Pure and host-testable.
 */
#include "smaps_format.h"

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_str(struct out *o, const char *s)
{
	while (*s)
		put(o, *s++);
}

/* "Name:" padded to 16 columns, then v right-aligned in 8 (Linux's seq_put_decimal_ull_width). */
static void put_field(struct out *o, const char *name, uint64_t v, const char *unit)
{
	char digits[24];
	int n = 0, col;

	for (col = 0; name[col]; col++)
		put(o, name[col]);
	for (; col < 16; col++)
		put(o, ' ');
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (col = n; col < 8; col++)
		put(o, ' ');
	while (n)
		put(o, digits[--n]);
	put_str(o, unit);
	put(o, '\n');
}

static const char mnemonics[SMAPS_NR_FLAGS][3] = {
	[SMAPS_RD] = "rd", [SMAPS_WR] = "wr", [SMAPS_EX] = "ex", [SMAPS_SH] = "sh",
	[SMAPS_MR] = "mr", [SMAPS_MW] = "mw", [SMAPS_ME] = "me", [SMAPS_MS] = "ms",
	[SMAPS_GD] = "gd", [SMAPS_PF] = "pf", [SMAPS_IO] = "io", [SMAPS_DE] = "de",
	[SMAPS_AC] = "ac", [SMAPS_DD] = "dd",
};

size_t smaps_format(char *buf, size_t size, const struct smaps_counts *c)
{
	static const char kb[] = " kB";
	struct out o = {buf, size, 0};
	unsigned f;

	put_field(&o, "Size:", c->size >> 10, kb);
	put_field(&o, "KernelPageSize:", 4, kb);
	put_field(&o, "MMUPageSize:", 4, kb);
	put_field(&o, "Rss:", c->rss >> 10, kb);
	put_field(&o, "Pss:", c->pss >> (10 + PSS_SHIFT), kb);
	put_field(&o, "Pss_Dirty:", c->pss_dirty >> (10 + PSS_SHIFT), kb);
	put_field(&o, "Shared_Clean:", c->shared_clean >> 10, kb);
	put_field(&o, "Shared_Dirty:", c->shared_dirty >> 10, kb);
	put_field(&o, "Private_Clean:", c->private_clean >> 10, kb);
	put_field(&o, "Private_Dirty:", c->private_dirty >> 10, kb);
	put_field(&o, "Referenced:", c->referenced >> 10, kb);
	put_field(&o, "Anonymous:", c->anonymous >> 10, kb);
	put_field(&o, "KSM:", 0, kb);
	put_field(&o, "LazyFree:", 0, kb);
	put_field(&o, "AnonHugePages:", 0, kb);
	put_field(&o, "ShmemPmdMapped:", 0, kb);
	put_field(&o, "FilePmdMapped:", 0, kb);
	put_field(&o, "Shared_Hugetlb:", 0, kb);
	put_field(&o, "Private_Hugetlb:", 0, kb);
	put_field(&o, "Swap:", 0, kb);
	put_field(&o, "SwapPss:", 0, kb);
	put_field(&o, "Locked:", 0, kb);
	put_field(&o, "THPeligible:", 0, "");
	put_str(&o, "VmFlags: ");
	for (f = 0; f < SMAPS_NR_FLAGS; f++) {
		if (c->vmflags & SMAPS_FLAG(f)) {
			put_str(&o, mnemonics[f]);
			put(&o, ' ');
		}
	}
	put(&o, '\n');
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}
