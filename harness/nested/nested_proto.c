/*
 * The nested runner's wire formats, pure code: the command handed to the
 * VM's init as a shell fragment, the heuristics read off the command line,
 * and the parser of the results channel init writes back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "confine.h"
#include "nested_priv.h"

void nested_shell_quote(FILE *f, const char *word)
{
	/* Inside '...' only the quote itself needs care: close, escape, reopen. */
	fputc('\'', f);
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

char *nested_cmd_script(int argc, char *const *argv, const char *cwd)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fputs("# written by entrylab's nested runner; sourced by /init\nEL_CWD=", f);
	nested_shell_quote(f, cwd);
	/* the confinement's test and debug knobs (vmm/confine.h) reach the inner entrylab */
	for (const char *const *e = confine_env_names; *e; e++)
		if (getenv(*e)) {
			fprintf(f, "\nexport %s=", *e);
			nested_shell_quote(f, getenv(*e));
		}
	fputs("\nset --", f);
	for (int i = 1; i < argc; i++) {
		fputc(' ', f);
		nested_shell_quote(f, argv[i]);
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
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

void nested_stream_init(struct nested_stream *s, nested_bytes_fn *records, void *ctx)
{
	memset(s, 0, sizeof(*s));
	s->records = records;
	s->ctx = ctx;
}

static void stream_error(struct nested_stream *s, const char *what)
{
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s", what);
}

static void verb_ready(struct nested_stream *s, const char *arg)
{
	s->ready = true;
	s->ready_uptime = strtod(arg, NULL);
}

static void verb_records(struct nested_stream *s, const char *arg)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || n > (1ull << 40))
		stream_error(s, "a malformed 'records' length");
	else
		s->records_left = (size_t)n;
}

static void verb_fail(struct nested_stream *s, const char *arg)
{
	if (!s->failed)
		snprintf(s->fail_msg, sizeof(s->fail_msg), "%s", arg);
	s->failed = true;
}

/* A number in [0, max] for the last line's verb; -1 (protocol error) otherwise. */
static int last_number(struct nested_stream *s, const char *arg, long max)
{
	char *end;
	long st;

	errno = 0;
	st = strtol(arg, &end, 10);
	if (errno || end == arg || *end || st < 0 || st > max) {
		stream_error(s, "a malformed exit status");
		return -1;
	}
	s->exited = true;
	return (int)st;
}

static void verb_exit(struct nested_stream *s, const char *arg)
{
	int st = last_number(s, arg, 255);

	if (st >= 0)
		s->exit_status = st;
}

static void verb_killed(struct nested_stream *s, const char *arg)
{
	int sig = last_number(s, arg, 127);

	if (sig == 0)
		stream_error(s, "a malformed signal number");
	else if (sig > 0)
		s->killed_signal = sig;
}

static void verb_lost(struct nested_stream *s, const char *arg)
{
	int st = last_number(s, arg, 255);

	if (st >= 0) {
		s->lost = true;
		s->exit_status = st;
	}
}

static const struct {
	const char *verb; /* with its trailing space */
	void (*fn)(struct nested_stream *s, const char *arg);
} stream_verbs[] = {
	{ "ready ", verb_ready },
	{ "records ", verb_records },
	{ "fail ", verb_fail },
	{ "exit ", verb_exit },
	{ "killed ", verb_killed },
	{ "lost ", verb_lost },
};

static void stream_line(struct nested_stream *s, const char *line)
{
	if (s->exited) {
		stream_error(s, "data after the exit status");
		return;
	}
	if (strncmp(line, "ELN1 ", 5)) {
		stream_error(s, "a line without the ELN1 prefix");
		return;
	}
	line += 5;
	for (size_t i = 0; i < sizeof(stream_verbs) / sizeof(stream_verbs[0]); i++) {
		size_t n = strlen(stream_verbs[i].verb);

		if (!strncmp(line, stream_verbs[i].verb, n)) {
			stream_verbs[i].fn(s, line + n);
			return;
		}
	}
	stream_error(s, "an unknown ELN1 line");
}

void nested_stream_feed(struct nested_stream *s, const char *data, size_t len)
{
	while (len && !s->error[0]) {
		if (s->records_left) {
			size_t n = len < s->records_left ? len : s->records_left;

			if (s->records)
				s->records(s->ctx, data, n);
			s->records_left -= n;
			data += n;
			len -= n;
			continue;
		}
		if (*data == '\n') {
			if (s->line_len && s->line[s->line_len - 1] == '\r')
				s->line_len--;
			s->line[s->line_len] = 0;
			s->line_len = 0;
			stream_line(s, s->line);
		} else if (s->line_len + 1 >= sizeof(s->line)) {
			stream_error(s, "a line longer than 511 bytes");
		} else {
			s->line[s->line_len++] = *data;
		}
		data++;
		len--;
	}
}
