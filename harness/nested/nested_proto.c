/*
 * Small helpers of the nested runner: paths joined as the inner command
 * will see them, clocks, environment numbers, the VM's text on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nested_priv.h"
#include "text_sanitize.h"

/* Bytes escaped at a time (text_escape_terminal writes at most 4 per byte). */
#define NESTED_TEXT_RUN 1024

double nested_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double nested_env_seconds(const char *name, double def)
{
	const char *v = getenv(name);
	char *end;
	double d;

	if (!v || !*v)
		return def;
	d = strtod(v, &end);
	return *end || d <= 0 ? def : d;
}

bool nested_path_join(const char *cwd, const char *path, char *out, size_t cap)
{
	const char *parts[2] = { path[0] == '/' ? "" : cwd, path };
	size_t len = 0;

	if (cap < 2)
		return false;
	for (int k = 0; k < 2; k++) {
		for (const char *p = parts[k]; *p;) {
			size_t n = strcspn(p, "/");

			if (n == 2 && p[0] == '.' && p[1] == '.') {
				while (len > 0 && out[len] != '/')
					len--;
				out[len] = 0;
			} else if (n && !(n == 1 && p[0] == '.')) {
				if (len + 1 + n + 1 > cap)
					return false;
				out[len++] = '/';
				memcpy(out + len, p, n);
				len += n;
				out[len] = 0;
			}
			p += n;
			while (*p == '/')
				p++;
		}
	}
	if (len == 0)
		out[len++] = '/';
	out[len] = 0;
	return true;
}

void nested_print_text(const char *data, size_t len)
{
	char esc[4 * NESTED_TEXT_RUN + 1];

	while (len) {
		size_t n = 0;

		while (n < len && n < NESTED_TEXT_RUN && data[n] != '\r')
			n++;
		fwrite(esc, 1, text_escape_terminal(data, n, esc, sizeof(esc)), stderr);
		n += n < len && data[n] == '\r';
		data += n;
		len -= n;
	}
}
