/*
 * newc cpio reader (cpio_parse.h).  Header: magic, then 13 fields of 8 hex
 * digits; the name follows, padded to 4 bytes from the archive start, then
 * the data, padded the same way.  Pure and host-testable.
 */
#include "cpio_parse.h"
#include "array_size.h"

enum {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJOR, F_DEVMINOR,
	F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK, F_COUNT
};

static const char trailer[] = "TRAILER!!!";

static int hex8(const uint8_t *p, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		uint8_t c = p[i];
		uint32_t d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

/* off rounded up to 4, or 0 on overflow beyond len. */
static int pad4(size_t *off, size_t len)
{
	size_t p = (*off + 3) & ~(size_t)3;

	if (p < *off || p > len)
		return -1;
	*off = p;
	return 0;
}

static int is_trailer(const struct cpio_entry *e)
{
	size_t i;

	if (e->namelen != sizeof(trailer) - 1)
		return 0;
	for (i = 0; i < e->namelen; i++)
		if (e->name[i] != trailer[i])
			return 0;
	return 1;
}

enum cpio_status cpio_next(const uint8_t *buf, size_t len, size_t *off, struct cpio_entry *e)
{
	uint32_t f[F_COUNT];
	size_t pos = *off;
	int i;

	if (pos > len || len - pos < CPIO_HEADER_SIZE)
		return CPIO_ERR_TRUNCATED;
	for (i = 0; i < 5; i++)
		if (buf[pos + i] != "07070"[i])
			return CPIO_ERR_MAGIC;
	if (buf[pos + 5] != '1' && buf[pos + 5] != '2')
		return CPIO_ERR_MAGIC;
	for (i = 0; i < F_COUNT; i++)
		if (hex8(buf + pos + 6 + 8 * i, &f[i]))
			return CPIO_ERR_HEX;
	pos += CPIO_HEADER_SIZE;
	if (f[F_NAMESIZE] == 0 || f[F_NAMESIZE] > CPIO_NAME_MAX)
		return CPIO_ERR_NAME;
	if (len - pos < f[F_NAMESIZE])
		return CPIO_ERR_TRUNCATED;
	if (buf[pos + f[F_NAMESIZE] - 1] != '\0')
		return CPIO_ERR_NAME;
	e->name = (const char *)buf + pos;
	e->namelen = f[F_NAMESIZE] - 1;
	for (i = 0; (size_t)i < e->namelen; i++)
		if (e->name[i] == '\0')
			return CPIO_ERR_NAME;
	pos += f[F_NAMESIZE];
	if (pad4(&pos, len))
		return CPIO_ERR_TRUNCATED;
	if (len - pos < f[F_FILESIZE])
		return CPIO_ERR_TRUNCATED;
	e->data = buf + pos;
	e->size = f[F_FILESIZE];
	pos += f[F_FILESIZE];
	/* The padding after the last entry may be missing: clamp instead of failing. */
	if (pad4(&pos, len))
		pos = len;
	e->ino = f[F_INO];
	e->mode = f[F_MODE];
	e->uid = f[F_UID];
	e->gid = f[F_GID];
	e->nlink = f[F_NLINK];
	e->mtime = f[F_MTIME];
	e->devmajor = f[F_DEVMAJOR];
	e->devminor = f[F_DEVMINOR];
	e->rdevmajor = f[F_RDEVMAJOR];
	e->rdevminor = f[F_RDEVMINOR];
	*off = pos;
	return is_trailer(e) ? CPIO_END : CPIO_OK;
}

int cpio_skip_padding(const uint8_t *buf, size_t len, size_t *off)
{
	size_t pos = *off;

	while (pos < len && buf[pos] == 0)
		pos++;
	*off = pos;
	return pos < len;
}

const char *cpio_strerror(enum cpio_status st)
{
	static const char *const names[] = {
		[CPIO_OK] = "ok",
		[CPIO_END] = "end of archive",
		[CPIO_ERR_TRUNCATED] = "truncated (an entry runs past the end of the archive)",
		[CPIO_ERR_MAGIC] = "bad magic (not a newc cpio archive: use cpio -H newc)",
		[CPIO_ERR_HEX] = "bad header field (not 8 hex digits)",
		[CPIO_ERR_NAME] = "bad name (empty, longer than 4095 bytes or not NUL-terminated)",
	};

	return (unsigned)st < EL_ARRAY_SIZE(names) ? names[st] : "unknown error";
}
