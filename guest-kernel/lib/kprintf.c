/*
 * A small printf: one formatter (kvformat) writing through a sink, used for
 * the console (kprintf) and for buffers (ksnprintf).
 */
#include "lib/console.h"
#include "lib/kprintf.h"

struct spec {
	bool left;       /* '-' */
	bool zero;       /* '0' */
	int width;       /* minimum field width */
	int precision;   /* -1: none */
	int longs;       /* number of 'l' (z counts as 2) */
};

static void pad(kprintf_sink *sink, void *ctx, char c, int n)
{
	while (n-- > 0)
		sink(ctx, c);
}

static void emit_string(kprintf_sink *sink, void *ctx, const char *s, const struct spec *sp)
{
	int len = 0;

	if (!s)
		s = "(null)";
	while (s[len] && (sp->precision < 0 || len < sp->precision))
		len++;
	if (!sp->left)
		pad(sink, ctx, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		sink(ctx, s[i]);
	if (sp->left)
		pad(sink, ctx, ' ', sp->width - len);
}

static void emit_number(kprintf_sink *sink, void *ctx, uint64_t val, bool negative,
			unsigned base, bool upper, const char *prefix, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char buf[24];
	int n = 0, plen = 0, fill;

	do {
		buf[n++] = digits[val % base];
		val /= base;
	} while (val);
	if (negative)
		prefix = "-";
	while (prefix && prefix[plen])
		plen++;
	fill = sp->width - n - plen;
	if (!sp->left && !sp->zero)
		pad(sink, ctx, ' ', fill);
	for (int i = 0; i < plen; i++)
		sink(ctx, prefix[i]);
	if (!sp->left && sp->zero)
		pad(sink, ctx, '0', fill);
	while (n)
		sink(ctx, buf[--n]);
	if (sp->left)
		pad(sink, ctx, ' ', fill);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){.precision = -1};
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	for (; *f == 'l' || *f == 'z'; f++)
		sp->longs += *f == 'z' ? 2 : 1;
	return f;
}

static uint64_t arg_unsigned(const struct spec *sp, va_list *ap)
{
	return sp->longs ? va_arg(*ap, uint64_t) : va_arg(*ap, unsigned int);
}

static int64_t arg_signed(const struct spec *sp, va_list *ap)
{
	return sp->longs ? va_arg(*ap, int64_t) : va_arg(*ap, int);
}

void kvformat(kprintf_sink *sink, void *ctx, const char *fmt, va_list ap)
{
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		struct spec sp;
		int64_t sv;

		if (*fmt != '%') {
			sink(ctx, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &args);
		switch (*fmt) {
		case 'd':
		case 'i':
			sv = arg_signed(&sp, &args);
			emit_number(sink, ctx, sv < 0 ? -(uint64_t)sv : (uint64_t)sv, sv < 0, 10,
				    false, 0, &sp);
			break;
		case 'u':
			emit_number(sink, ctx, arg_unsigned(&sp, &args), false, 10, false, 0, &sp);
			break;
		case 'o':
			emit_number(sink, ctx, arg_unsigned(&sp, &args), false, 8, false, 0, &sp);
			break;
		case 'x':
		case 'X':
			emit_number(sink, ctx, arg_unsigned(&sp, &args), false, 16, *fmt == 'X', 0,
				    &sp);
			break;
		case 'p':
			emit_number(sink, ctx, (uint64_t)va_arg(args, void *), false, 16, false,
				    "0x", &sp);
			break;
		case 's':
			emit_string(sink, ctx, va_arg(args, const char *), &sp);
			break;
		case 'c':
			sink(ctx, (char)va_arg(args, int));
			break;
		case '%':
			sink(ctx, '%');
			break;
		default: /* unknown conversion: show it rather than guess */
			sink(ctx, '%');
			if (!*fmt)
				goto out;
			sink(ctx, *fmt);
			break;
		}
		fmt++;
	}
out:
	va_end(args);
}

/*
 * Output is gathered and leaves in one console_write() per line (one
 * `rep outsb`, one VM exit) instead of one exit per byte.
 */
struct line_sink {
	char buf[256];
	size_t len;
};

static void console_sink(void *ctx, char c)
{
	struct line_sink *l = ctx;

	l->buf[l->len++] = c;
	if (c == '\n' || l->len == sizeof(l->buf)) {
		console_write(l->buf, l->len);
		l->len = 0;
	}
}

void kvprintf(const char *fmt, va_list ap)
{
	struct line_sink l = {.len = 0};

	kvformat(console_sink, &l, fmt, ap);
	if (l.len)
		console_write(l.buf, l.len);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

struct buf_sink {
	char *buf;
	size_t size, len;
};

static void buffer_sink(void *ctx, char c)
{
	struct buf_sink *b = ctx;

	if (b->len + 1 < b->size)
		b->buf[b->len] = c;
	b->len++;
}

size_t ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	struct buf_sink b = {buf, size, 0};
	va_list ap;

	va_start(ap, fmt);
	kvformat(buffer_sink, &b, fmt, ap);
	va_end(ap);
	if (size)
		buf[b.len < size ? b.len : size - 1] = '\0';
	return b.len;
}
