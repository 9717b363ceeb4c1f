/*
 * /proc/PID/maps line formatter (maps_line.h).  Pure and host-testable.
 */
#include "maps_line.h"

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

static void put_num(struct out *o, uint64_t v, unsigned base, int min_digits)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n < min_digits)
		tmp[n++] = '0';
	while (n)
		put(o, tmp[--n]);
}

size_t maps_line_format(char *buf, size_t size, const struct maps_line *l)
{
	struct out o = {buf, size, 0};

	put_num(&o, l->start, 16, 8);
	put(&o, '-');
	put_num(&o, l->end, 16, 8);
	put(&o, ' ');
	put(&o, (l->prot & MAPS_PROT_R) ? 'r' : '-');
	put(&o, (l->prot & MAPS_PROT_W) ? 'w' : '-');
	put(&o, (l->prot & MAPS_PROT_X) ? 'x' : '-');
	put(&o, l->shared ? 's' : 'p');
	put(&o, ' ');
	put_num(&o, l->pgoff, 16, 8);
	put(&o, ' ');
	put_num(&o, l->major, 16, 2);
	put(&o, ':');
	put_num(&o, l->minor, 16, 2);
	put(&o, ' ');
	put_num(&o, l->ino, 10, 1);
	put(&o, ' ');
	if (l->name && l->name[0]) {
		const char *s = l->name;

		while (o.len < MAPS_NAME_COLUMN - 1)
			put(&o, ' ');
		put(&o, ' ');
		while (*s)
			put(&o, *s++);
	}
	put(&o, '\n');
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}
