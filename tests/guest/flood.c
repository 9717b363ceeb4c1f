/*
 * flood: write a lot of hostile text, to check that the host keeps it
 * bounded and turns it into valid JSON (tests/kvm/test_output_flood.c).
 *
 *   flood com1 BYTES      straight to COM1's THR (ioperm, rep outsb): the
 *                         guest console as a hostile guest floods it
 *   flood stdout BYTES    to stdout (forwarded to entrylab's stdout)
 *
 * Each 64-byte line holds NUL, ESC sequences, invalid UTF-8 (an overlong,
 * a surrogate, a truncated sequence), a valid U+00E9 and its offset.
 * BYTES takes K/M/G suffixes (1024-based).  Exit 0 after writing.
 */
#include <sys/io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long flood_size(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);

	switch (*end) {
	case 'G': n <<= 10; /* fall through */
	case 'M': n <<= 10; /* fall through */
	case 'K': n <<= 10;
	}
	return n;
}

/* One 64-byte line: the hostile part, then the offset in hex, then '\n'. */
static void flood_line(char *line, unsigned long long off)
{
	static const char hostile[] = "\0\x1b[2J\x1b]0;t\x07\xc0\xaf\xed\xa0\x80\xe2\x82\xc3\xa9 ";
	int n;

	memset(line, '.', 64);
	memcpy(line, hostile, sizeof(hostile) - 1);
	n = snprintf(line + sizeof(hostile) - 1, 64 - sizeof(hostile), "%llx", off);
	line[sizeof(hostile) - 1 + n] = '.';
	line[63] = '\n';
}

#define COM1 0x3f8

/* rep outsb: KVM hands the VMM up to a page of it per exit. */
static void com1_write(const char *p, size_t n)
{
	__asm__ volatile("rep outsb" : "+S"(p), "+c"(n) : "d"(COM1) : "memory");
}

int main(int argc, char **argv)
{
	char buf[64 * 256];
	unsigned long long total, done = 0;
	int fd;

	if (argc != 3 || (strcmp(argv[1], "com1") && strcmp(argv[1], "stdout"))) {
		fprintf(stderr, "usage: flood com1|stdout BYTES\n");
		return 2;
	}
	total = flood_size(argv[2]);
	fd = strcmp(argv[1], "com1") ? 1 : -1;
	if (fd < 0 && ioperm(COM1, 1, 1)) {
		perror("flood: ioperm(0x3f8)");
		return 1;
	}
	while (done < total) {
		size_t n = 0;

		for (; n < sizeof(buf) && done + n < total; n += 64)
			flood_line(buf + n, done + n);
		if (done + n > total)
			n = (size_t)(total - done);
		if (fd < 0)
			com1_write(buf, n);
		else if (write(fd, buf, n) != (ssize_t)n) {
			perror("flood: write");
			return 1;
		}
		done += n;
	}
	return 0;
}
