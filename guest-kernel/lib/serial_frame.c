/*
 * The framed-line encoder (serial_frame.h).  Pure: no kernel headers.
 */
#include "entrylab/serial_frame.h"

#include "serial_frame.h"

#define CRC32_IEEE_REFLECTED 0xedb88320u

uint32_t serial_frame_crc32(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t crc = 0xffffffffu;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= b[i];
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (CRC32_IEEE_REFLECTED & (0u - (crc & 1u)));
	}
	return ~crc;
}

static const char hex_digits[] = "0123456789abcdef";

struct frame_out {
	char *p;
	size_t left;
	int full;
};

static void put(struct frame_out *o, const char *s, size_t n)
{
	if (o->full || n > o->left) {
		o->full = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		o->p[i] = s[i];
	o->p += n;
	o->left -= n;
}

static void put_str(struct frame_out *o, const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	put(o, s, n);
}

static void put_decimal(struct frame_out *o, size_t v)
{
	char buf[20];
	size_t n = sizeof(buf);

	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(o, buf + n, sizeof(buf) - n);
}

static void put_hex_byte(struct frame_out *o, uint8_t v)
{
	char d[2] = {hex_digits[v >> 4], hex_digits[v & 15]};

	put(o, d, 2);
}

size_t serial_frame_format(char *out, size_t size, const char *kind, const void *payload,
			   size_t len)
{
	struct frame_out o = {out, size, 0};
	const uint8_t *b = payload;
	uint32_t crc;
	int shift;

	if (len > EL_FRAME_TEXT_MAX)
		return 0;
	put_str(&o, "\n" EL_FRAME_TAG);
	put_str(&o, kind);
	put_str(&o, " ");
	put_decimal(&o, len);
	put_str(&o, " ");
	for (size_t i = 0; i < len; i++)
		put_hex_byte(&o, b[i]);
	put_str(&o, " ");
	crc = serial_frame_crc32(payload, len);
	for (shift = 24; shift >= 0; shift -= 8)
		put_hex_byte(&o, (uint8_t)(crc >> shift));
	put_str(&o, "\n");
	return o.full ? 0 : size - o.left;
}
