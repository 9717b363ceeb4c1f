/*
 * "#!" line parsing (exec_script.h), after Linux's load_script(): blanks
 * are spaces and tabs; the line ends at '\n', at the end of the file or
 * at a NUL, or after EXEC_SCRIPT_LINE_MAX - 1 bytes, where a cut argument
 * is kept as cut but a cut interpreter name is refused.
 */
#include "exec_script.h"

static int blank(uint8_t c)
{
	return c == ' ' || c == '\t';
}

int exec_script_parse(const uint8_t *data, size_t size, struct exec_script *s)
{
	size_t w = size < EXEC_SCRIPT_LINE_MAX ? size : EXEC_SCRIPT_LINE_MAX, end, i, n;
	int cut = 0;

	if (size < 2 || data[0] != '#' || data[1] != '!')
		return 0;
	for (end = 2; end < w && data[end] != '\n'; end++)
		;
	if (end == w && size >= EXEC_SCRIPT_LINE_MAX) { /* no '\n' in what was read */
		end = EXEC_SCRIPT_LINE_MAX - 1;
		cut = 1;
	}
	for (i = 2; i < end && data[i]; i++) /* the line is a C string: a NUL ends it */
		;
	if (i < end) {
		end = i;
		cut = 0;
	}
	while (end > 2 && blank(data[end - 1]))
		end--;
	for (i = 2; i < end && blank(data[i]); i++)
		;
	if (i == end)
		return -1; /* no interpreter */
	for (n = 0; i + n < end && !blank(data[i + n]); n++)
		s->interp[n] = (char)data[i + n];
	if (cut && i + n == end)
		return -1; /* the name may go on past what was read */
	s->interp[n] = '\0';
	for (i += n; i < end && blank(data[i]); i++)
		;
	for (n = 0; i + n < end; n++)
		s->arg[n] = (char)data[i + n];
	s->arg[n] = '\0';
	s->has_arg = n > 0;
	return 1;
}
