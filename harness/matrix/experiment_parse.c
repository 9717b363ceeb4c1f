/*
 * Experiment files, first pass: libinih splits lines into sections and
 * key = value pairs; this file knows which keys exist where and keeps each
 * value with its line.  inih's handler gets no line number (Debian builds it
 * without INI_HANDLER_LINENO), so our own line reader feeds inih and counts;
 * it also sees the section headers, which inih only reports through keys
 * (a [variant NAME] with no keys is still a variant).  inih calls the handler
 * once per line, so repeated file = lines are each collected (exp_files).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "experiment.h"

enum { IN_EXP = 1, IN_VAR = 2 };

static const struct {
	const char *name;
	unsigned where;
} exp_keys[EK_COUNT] = {
	[EK_NAME] = {"name", IN_EXP},
	[EK_DESCRIPTION] = {"description", IN_EXP | IN_VAR},
	[EK_SEED] = {"seed", IN_EXP},
	[EK_BENCH] = {"bench", IN_EXP | IN_VAR},
	[EK_ARGS] = {"args", IN_EXP | IN_VAR},
	[EK_ITERATIONS] = {"iterations", IN_EXP | IN_VAR},
	[EK_EVENTS] = {"events", IN_EXP},
	[EK_REPEAT] = {"repeat", IN_EXP},
	[EK_CPU] = {"cpu", IN_EXP | IN_VAR},
	[EK_APPEND] = {"append", IN_EXP | IN_VAR},
	[EK_MEMORY] = {"memory", IN_EXP},
	[EK_TIMEOUT] = {"timeout", IN_EXP},
	[EK_BASELINE] = {"baseline", IN_EXP | IN_VAR},
	[EK_METRICS] = {"metrics", IN_EXP},
	[EK_SEED_ARGS] = {"seed_args", IN_EXP | IN_VAR},
	[EK_SEED_ITERATIONS] = {"seed_iterations", IN_EXP | IN_VAR},
	[EK_SEED_REPEAT] = {"seed_repeat", IN_EXP},
	[EK_REQUIRES] = {"requires", IN_EXP | IN_VAR},
	[EK_HEADLINE] = {"headline", IN_EXP},
	[EK_LABEL] = {"label", IN_VAR},
	[EK_TABLE] = {"table", IN_VAR},
	[EK_GUEST] = {"guest", IN_EXP | IN_VAR},
	[EK_KERNEL] = {"kernel", IN_EXP | IN_VAR},
	[EK_REGION] = {"region", IN_EXP | IN_VAR},
	[EK_FILE] = {"file", IN_EXP | IN_VAR}, /* any number of times: on_pair collects them */
};

/* inih's line buffer (INI_MAX_LINE, compiled into the library): room for '\n' and NUL. */
#define LINE_ROOM 2

enum section_kind { SEC_NONE, SEC_EXPERIMENT, SEC_VARIANT, SEC_HOST, SEC_BAD };

struct parse_ctx {
	struct el_experiment *exp;
	FILE *in, *err;
	char *buf;
	size_t cap;
	int line;
	int problems;
	int last_problem_line;
	enum section_kind kind;
	struct exp_variant *var;
	struct exp_host *host;
};

const char *experiment_key_name(enum exp_key k)
{
	return exp_keys[k].name;
}

__attribute__((format(printf, 3, 4)))
static void problem(struct parse_ctx *c, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "%s:%d: ", c->exp->path, line);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	c->problems++;
	c->last_problem_line = line;
}

static void list_keys(struct parse_ctx *c, unsigned where)
{
	for (unsigned k = 0; k < EK_COUNT; k++)
		if (exp_keys[k].where & where)
			fprintf(c->err, " %s", exp_keys[k].name);
	fputc('\n', c->err);
}

static bool name_ok(const char *s, size_t len)
{
	if (len == 0 || len >= EXP_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-+", s[i]))
			return false;
	return true;
}

/* The NAME of "[kind NAME]": blanks around it dropped; its length. */
static size_t trim_name(const char **name, const char *end)
{
	size_t len;

	while (isblank((unsigned char)**name))
		(*name)++;
	len = (size_t)(end - *name);
	while (len && isblank((unsigned char)(*name)[len - 1]))
		len--;
	return len;
}

/* [host CLASS]: a fleet's host class (experiment.h, struct exp_host). */
static void host_begin(struct parse_ctx *c, const char *name, const char *end)
{
	size_t len = trim_name(&name, end);
	struct exp_host *h;

	if (!name_ok(name, len)) {
		problem(c, c->line, "host class '%.*s' is not a word of at most %d letters, digits "
			"and ._-+; rename it", (int)len, name, EXP_NAME_MAX - 1);
		return;
	}
	for (unsigned i = 0; i < c->exp->nhosts; i++) {
		h = &c->exp->hosts[i];
		if (strlen(h->name) == len && !memcmp(h->name, name, len)) {
			problem(c, c->line, "[host %s] is defined twice (first at line %d); merge "
				"the two", h->name, h->line);
			return;
		}
	}
	if (c->exp->nhosts == EXP_MAX_HOSTS) {
		problem(c, c->line, "more than %d host classes; split the fleet", EXP_MAX_HOSTS);
		return;
	}
	h = &c->exp->hosts[c->exp->nhosts++];
	memcpy(h->name, name, len);
	h->name[len] = '\0';
	h->line = c->line;
	c->host = h;
	c->kind = SEC_HOST;
}

/* constraint = and expect = of a [host CLASS] (its only keys). */
static int host_pair(struct parse_ctx *c, const char *name, const char *value)
{
	struct exp_value *slot = !strcmp(name, "constraint") ? &c->host->constraint
			       : !strcmp(name, "expect")     ? &c->host->expect
							     : NULL;

	if (!slot) {
		problem(c, c->line, "unknown key '%s' in [host %s]; the keys there are: constraint "
			"expect", name, c->host->name);
		return 1;
	}
	if (slot->text) {
		problem(c, c->line, "'%s' is given twice in [host %s] (first at line %d); keep one",
			name, c->host->name, slot->line);
		return 1;
	}
	slot->line = c->line;
	if (!(slot->text = strdup(value ? value : ""))) {
		problem(c, c->line, "out of memory");
		return 0;
	}
	return 1;
}

static void section_begin(struct parse_ctx *c, const char *s)
{
	const char *end = strchr(s, ']');
	size_t len;

	c->kind = SEC_BAD;
	if (!end) {
		problem(c, c->line,
			"section header without ']'; write [experiment] or [variant NAME]");
		return;
	}
	len = (size_t)(end - s);
	if (len == 10 && !memcmp(s, "experiment", 10)) {
		if (c->exp->line) {
			problem(c, c->line, "[experiment] appears again (first at line %d); "
				"merge the two sections", c->exp->line);
			return;
		}
		c->exp->line = c->line;
		c->kind = SEC_EXPERIMENT;
		return;
	}
	if (len > 5 && !memcmp(s, "host", 4) && isblank((unsigned char)s[4])) {
		host_begin(c, s + 5, end);
		return;
	}
	if (len > 8 && !memcmp(s, "variant", 7) && isblank((unsigned char)s[7])) {
		const char *name = s + 8;
		struct exp_variant *v;
		int dup;

		len = trim_name(&name, end);
		if (!name_ok(name, len)) {
			problem(c, c->line,
				"variant name '%.*s' is not a word of at most %d letters, "
				"digits and ._-+; rename it",
				(int)len, name, EXP_NAME_MAX - 1);
			return;
		}
		for (unsigned i = 0; i < c->exp->nvariants; i++) {
			v = &c->exp->variants[i];
			dup = strlen(v->name) == len && !memcmp(v->name, name, len);
			if (dup) {
				problem(c, c->line,
					"variant '%s' is defined twice (first at line %d); "
					"rename one",
					v->name, v->line);
				return;
			}
		}
		if (c->exp->nvariants == EXP_MAX_VARIANTS) {
			problem(c, c->line, "more than %d variants; split the experiment",
				EXP_MAX_VARIANTS);
			return;
		}
		v = &c->exp->variants[c->exp->nvariants++];
		memcpy(v->name, name, len);
		v->name[len] = '\0';
		v->line = c->line;
		c->var = v;
		c->kind = SEC_VARIANT;
		return;
	}
	problem(c, c->line, "unknown section [%.*s]; the sections are [experiment], "
		"[variant NAME] and [host CLASS]", (int)len, s);
}

/* Our fgets for inih: one physical line per call, counted, headers noted. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	ssize_t n = getline(&c->buf, &c->cap, c->in);
	const char *s;

	if (n < 0)
		return NULL;
	c->line++;
	while (n && (c->buf[n - 1] == '\n' || c->buf[n - 1] == '\r'))
		c->buf[--n] = '\0';
	if (n > num - LINE_ROOM) {
		problem(c, c->line, "line is longer than %d characters; shorten it (a long "
			"append can be split between [experiment] and the variant)",
			num - LINE_ROOM);
		strcpy(str, "\n");
		return str;
	}
	memcpy(str, c->buf, (size_t)n);
	strcpy(str + n, "\n");
	for (s = str; isblank((unsigned char)*s); s++)
		;
	if (*s == '[')
		section_begin(c, s + 1);
	return str;
}

static int on_pair(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	struct exp_value *slot;
	unsigned where, k;

	(void)section;
	if (c->kind == SEC_BAD)
		return 1;
	if (c->kind == SEC_NONE) {
		problem(c, c->line, "'%s' is outside any section; put it under [experiment] or "
			"[variant NAME]", name);
		return 1;
	}
	if (c->kind == SEC_HOST)
		return host_pair(c, name, value);
	where = c->kind == SEC_EXPERIMENT ? IN_EXP : IN_VAR;
	for (k = 0; k < EK_COUNT; k++)
		if (!strcmp(exp_keys[k].name, name))
			break;
	if (k == EK_COUNT) {
		problem(c, c->line, "unknown key '%s' in [%s]; the keys there are:", name,
			where == IN_EXP ? "experiment" : "variant");
		list_keys(c, where);
		return 1;
	}
	if (!(exp_keys[k].where & where)) {
		problem(c, c->line, "'%s' belongs in [%s], not in [%s]; move it", name,
			where == IN_EXP ? "variant NAME" : "experiment",
			where == IN_EXP ? "experiment" : "variant NAME");
		return 1;
	}
	if (k == EK_FILE) {
		struct exp_files *fs = where == IN_EXP ? &c->exp->file_kv : &c->var->file_kv;

		if (fs->n == EL_FILES_MAX) {
			problem(c, c->line, "more than %u file = lines in this section (run --file's "
				"limit); pack a directory holding them instead", EL_FILES_MAX);
			return 1;
		}
		slot = &fs->v[fs->n++];
	} else {
		slot = where == IN_EXP ? &c->exp->kv[k] : &c->var->kv[k];
	}
	if (slot->text) {
		problem(c, c->line, "'%s' is given twice in this section (first at line %d); "
			"keep one", name, slot->line);
		return 1;
	}
	slot->text = strdup(value ? value : "");
	slot->line = c->line;
	if (!slot->text) {
		problem(c, c->line, "out of memory");
		return 0;
	}
	return 1;
}

int experiment_parse(const char *path, struct el_experiment *exp, FILE *err)
{
	struct parse_ctx c = {.exp = exp, .err = err, .kind = SEC_NONE};
	int rc;

	exp->path = strdup(path);
	if (!exp->path)
		return 1;
	c.in = fopen(path, "r");
	if (!c.in) {
		fprintf(err, "%s: cannot read it: %m; give the path of an experiment file or a "
			"name from `entrylab list experiments`\n", path);
		return 1;
	}
	exp->read_ok = true;
	/* Library-wide settings: indented lines are keys of their own, not continuations. */
	ini_allow_multiline = false;
	ini_allow_no_value = false;
	ini_stop_on_first_error = false;
	rc = ini_parse_stream(read_line, &c, on_pair, &c);
	if (rc > 0 && rc != c.last_problem_line)
		problem(&c, rc, "not a 'key = value' line, a [section] header or a ';' comment; "
			"fix its syntax");
	else if (rc < 0)
		problem(&c, c.line, "could not be parsed (inih error %d)", rc);
	fclose(c.in);
	free(c.buf);
	return c.problems;
}

int experiment_variant(const struct el_experiment *exp, const char *name)
{
	for (unsigned i = 0; i < exp->nvariants; i++)
		if (!strcmp(exp->variants[i].name, name))
			return (int)i;
	return -1;
}

void experiment_free(struct el_experiment *exp)
{
	for (unsigned k = 0; k < EK_COUNT; k++)
		free(exp->kv[k].text);
	for (unsigned k = 0; k < exp->file_kv.n; k++)
		free(exp->file_kv.v[k].text);
	for (unsigned i = 0; i < exp->nvariants; i++) {
		for (unsigned k = 0; k < EK_COUNT; k++)
			free(exp->variants[i].kv[k].text);
		for (unsigned k = 0; k < exp->variants[i].file_kv.n; k++)
			free(exp->variants[i].file_kv.v[k].text);
		free(exp->variants[i].files);
		free(exp->variants[i].append);
		free(exp->variants[i].kernel);
	}
	for (unsigned i = 0; i < exp->nhosts; i++) {
		free(exp->hosts[i].constraint.text);
		free(exp->hosts[i].expect.text);
	}
	free(exp->origin);
	free(exp->path);
	memset(exp, 0, sizeof(*exp));
}

int experiment_host(const struct el_experiment *exp, const char *name)
{
	for (unsigned i = 0; i < exp->nhosts; i++)
		if (!strcmp(exp->hosts[i].name, name))
			return (int)i;
	return -1;
}

int experiment_load(const char *path, struct el_experiment *exp, FILE *err)
{
	return experiment_load_as(path, NULL, exp, err);
}

int experiment_load_as(const char *path, const char *origin, struct el_experiment *exp,
		       FILE *err)
{
	int n;

	memset(exp, 0, sizeof(*exp));
	if (origin && !(exp->origin = strdup(origin)))
		return 1;
	n = experiment_parse(path, exp, err);
	/* Value problems too, so that one pass over the file fixes all of it. */
	return exp->read_ok ? n + experiment_check(exp, err) : n;
}
