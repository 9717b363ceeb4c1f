/*
 * Value checks for experiment files, each with the code `entrylab run`
 * uses for the matching option (benchmark table, --cpu parser, the guest's
 * own command-line parser, number parsers), so a file that loads is a set
 * of runs that start.  Messages: FILE:LINE: the key, the value, the fix.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "el_limits.h"
#include "parse_num.h"
#include "request.h"
#include "cmdline.h"
#include "cpuid.h"
#include "experiment_priv.h"
#include "metric.h"
#include "region_scope.h"

#define MAX_ARGS 62

void check_problem(struct check_ctx *c, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, line > 0 ? "%s:%d: " : "%s: ", c->exp->path, line);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	c->problems++;
}

bool check_word(struct check_ctx *c, enum exp_key k, const struct exp_value *v)
{
	const char *s = v->text;

	if (!s)
		return false;
	if (*s && strlen(s) < EXP_NAME_MAX) {
		while (*s && (isalnum((unsigned char)*s) || strchr("._-+", *s)))
			s++;
		if (!*s)
			return true;
	}
	check_problem(c, v->line, "%s = %s: give one word of at most %d letters, digits and ._-+",
		      experiment_key_name(k), v->text, EXP_NAME_MAX - 1);
	return false;
}

void check_cpu(struct check_ctx *c, const struct exp_value *v, uint64_t *requires)
{
	struct el_cpu_request req;
	char err[512];

	if (!v->text)
		return;
	if (cpuid_spec_parse(v->text, &req, err, sizeof(err))) {
		check_problem(c, v->line, "cpu = %s: %s", v->text, err);
		return;
	}
	/* +feat cannot run where KVM lacks feat: such a variant is skipped, not failed. */
	for (unsigned f = 0; f < EL_FEAT_COUNT; f++)
		if (req.feat[f] == EL_REQ_ON)
			*requires |= 1ull << f;
}

void check_append(struct check_ctx *c, const struct exp_value *v)
{
	struct el_cmdline parsed;

	if (!v->text || el_cmdline_parse(v->text, &parsed, NULL, NULL) == 0)
		return;
	check_problem(c, v->line, "append = %s: not a valid guest command line (details follow); "
		      "fix the knob or its value (`entrylab list knobs`)", v->text);
	fflush(c->err);
	request_check_append(v->text);
}

void check_requires(struct check_ctx *c, const struct exp_value *v, uint64_t *bits)
{
	const char *s = v->text;

	for (s = s ? s + strspn(s, ", \t") : NULL; s && *s; s += strspn(s, ", \t")) {
		size_t len = strcspn(s, ", \t");
		int f = cpuid_feature_lookup(s, len);

		if (f < 0)
			check_problem(c, v->line,
				      "requires: '%.*s' is no CPU feature entrylab knows; "
				      "`entrylab list features` names them",
				      (int)len, s);
		else
			*bits |= 1ull << f;
		s += len;
	}
}

bool check_uint(struct check_ctx *c, enum exp_key k, const struct exp_value *v, uint64_t min,
		uint64_t max, uint64_t *out)
{
	if (!v->text)
		return false;
	if (el_parse_u64(v->text, min, max, out) == 0)
		return true;
	check_problem(c, v->line, "%s = %s: not a whole number in %llu..%llu; write e.g. %s = %llu",
		      experiment_key_name(k), v->text, (unsigned long long)min,
		      (unsigned long long)max, experiment_key_name(k),
		      (unsigned long long)(min > 5 ? min : 5));
	return false;
}

bool check_size(struct check_ctx *c, enum exp_key k, const struct exp_value *v, uint64_t *out)
{
	char why[200];

	if (!v->text)
		return false;
	if (el_parse_size(v->text, out))
		snprintf(why, sizeof(why), "not a size; write e.g. %s = 256M", experiment_key_name(k));
	else if (!el_limits_mem_check(*out, why, sizeof(why)))
		return true;
	check_problem(c, v->line, "%s = %s: %s", experiment_key_name(k), v->text, why);
	return false;
}

bool check_seconds(struct check_ctx *c, enum exp_key k, const struct exp_value *v, double *out)
{
	char *end;

	if (!v->text)
		return false;
	*out = strtod(v->text, &end);
	if (*v->text && !*end && *out > 0 && *out <= 86400)
		return true;
	check_problem(c, v->line, "%s = %s: not a number of seconds in (0, 86400]; write e.g. "
		      "%s = 60", experiment_key_name(k), v->text, experiment_key_name(k));
	return false;
}

/* "a, b,c" -> "a,b,c" in place; the names are kept for metrics. */
void check_events(struct check_ctx *c, struct exp_value *v)
{
	char *in, *out, *tok, *save;

	if (!v->text)
		return;
	for (in = out = v->text; *in; in++)
		if (!isspace((unsigned char)*in))
			*out++ = *in;
	*out = '\0';
	c->events_buf = strdup(v->text);
	for (tok = c->events_buf ? strtok_r(c->events_buf, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (c->nevents == EL_MAX_COUNTERS) {
			check_problem(c, v->line,
				      "events: more than %u; the guest counts at most %u "
				      "at once, drop some",
				      EL_MAX_COUNTERS, EL_MAX_COUNTERS);
			break;
		}
		c->events[c->nevents++] = tok;
	}
	if (!c->nevents)
		check_problem(c, v->line, "events is empty; give perf names such as "
			      "cycles:k,instructions:k or drop the key");
}

void check_metrics(struct check_ctx *c, const struct exp_value *v)
{
	struct el_experiment *e = c->exp;
	char *copy, *tok, *save, err[256];
	struct metric m;

	if (!v->text)
		return;
	copy = strdup(v->text);
	for (tok = copy ? strtok_r(copy, ", \t", &save) : NULL; tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (metric_parse(tok, c->events, c->nevents, &m, err, sizeof(err))) {
			check_problem(c, v->line, "metrics: %s", err);
		} else if (e->nmetrics == EXP_MAX_METRICS || strlen(tok) >= EXP_METRIC_MAX) {
			check_problem(c, v->line,
				      "metrics: more than %d, or '%s' is too long; keep "
				      "fewer",
				      EXP_MAX_METRICS, tok);
			break;
		} else {
			strcpy(e->metrics[e->nmetrics++], tok);
		}
	}
	free(copy);
	if (!e->nmetrics && c->problems == 0)
		check_problem(c, v->line, "metrics is empty; name columns such as ns, page_faults "
			      "or drop the key");
}

static size_t count_words(const char *s)
{
	size_t n = 0;

	while (*s) {
		s += strspn(s, " \t");
		if (*s)
			n++;
		s += strcspn(s, " \t");
	}
	return n;
}

void check_args(struct check_ctx *c, const char *bench, const char *args, int args_line,
		int iterations_line)
{
	const struct el_bench *b = bench_find(bench);
	size_t n;

	if (!b)
		return;
	n = count_words(args ? args : b->default_args);
	if (n > MAX_ARGS)
		check_problem(c, args_line, "args: %zu words; a benchmark takes at most %d", n,
			      MAX_ARGS);
	/* As `run -n`: it replaces one argument, so the ones before it must be there. */
	if (iterations_line && b->iter_arg < 0)
		check_problem(c, iterations_line, "iterations: an iteration of %s is one %s and "
			      "its args set how many (SIZE ROUNDS: ROUNDS * SIZE / 4096 faults); "
			      "drop iterations and give args, e.g. args = 16M 4", b->name, b->unit);
	else if (iterations_line && (size_t)b->iter_arg >= n)
		check_problem(c, iterations_line, "iterations: %s takes its iteration count as "
			      "argument %d, but args has %zu word(s); give the arguments before it "
			      "(defaults: %s) or drop iterations", b->name, b->iter_arg + 1, n,
			      b->default_args);
}

bool check_guest(struct check_ctx *c, const struct exp_value *v, enum el_guest_kind *out)
{
	if (!v->text)
		return false;
	for (int k = 0; k < EL_GUEST_KINDS; k++) {
		if (!strcmp(v->text, el_guest_kind_names[k])) {
			*out = (enum el_guest_kind)k;
			return true;
		}
	}
	check_problem(c, v->line, "guest = %s: give guest = entrylab (our kernel) or guest = linux",
		      v->text);
	return false;
}

bool check_region(struct check_ctx *c, const struct exp_value *v, enum el_region_scope *out)
{
	if (!v->text)
		return false;
	if (region_scope_parse(v->text, out) == 0)
		return true;
	check_problem(c, v->line, "region = %s: give region = marked (what the markers bracket) or "
		      "region = whole (the whole program, as perf stat counts it)", v->text);
	return false;
}

/*
 * kernel = FILE, relative to the experiment file's directory (so a file and
 * its kernels move together), made absolute: the nested runner ships it to
 * the same path.  Whether it boots is checked with the variant's request.
 */
char *check_kernel(struct check_ctx *c, const struct exp_value *v)
{
	const char *path = c->exp->origin ? c->exp->origin : c->exp->path;
	const char *slash = strrchr(path, '/');
	char joined[4096], *abs;
	int n;

	if (!v->text)
		return NULL;
	if (v->text[0] == '/' || !slash)
		n = snprintf(joined, sizeof(joined), "%s", v->text);
	else
		n = snprintf(joined, sizeof(joined), "%.*s/%s", (int)(slash - path), path, v->text);
	if (!*v->text || n < 0 || (size_t)n >= sizeof(joined)) {
		check_problem(c, v->line, "kernel = %s: give a file name (relative to %s's "
			      "directory, or absolute)", v->text, path);
		return NULL;
	}
	abs = realpath(joined, NULL);
	if (!abs || access(abs, R_OK)) {
		check_problem(c, v->line, "kernel = %s: cannot read %s (%s); give an existing "
			      "vmlinux or bzImage, relative to the experiment file's directory",
			      v->text, joined, strerror(errno));
		free(abs);
		return NULL;
	}
	return abs;
}

/*
 * file = HOST[=GUEST]: checked as --file checks it (files_parse: GUEST's
 * rules), then HOST, when relative, taken from the experiment file's
 * directory, as kernel = is, so a file and its data move together.  Only
 * that directory is resolved (realpath): HOST's own last component stays,
 * and it names the guest file when GUEST is not given.  Absolute, because
 * the nested runner ships files to the same path.  The trees' sizes and
 * two files at one GUEST are checked with the variant's request.
 */
bool check_file(struct check_ctx *c, const struct exp_value *v, struct el_file *out)
{
	const char *path = c->exp->origin ? c->exp->origin : c->exp->path;
	const char *slash = strrchr(path, '/');
	char why[512], dir[4096], *base = NULL;
	int n = 0;

	if (files_parse(v->text, out, why, sizeof(why))) {
		check_problem(c, v->line, "file = %s: %s", v->text, why);
		return false;
	}
	if (out->host[0] != '/') {
		if (slash)
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		base = realpath(slash ? (slash == path ? "/" : dir) : ".", NULL);
		n = snprintf(dir, sizeof(dir), "%s/%s", base ? base : "", out->host);
		if (!base || n < 0 || (size_t)n >= sizeof(out->host)) {
			check_problem(c, v->line, "file = %s: %s is %s; give a shorter path or an "
				      "absolute one", v->text, base ? dir : path,
				      base ? "longer than 255 bytes" : "not a resolvable directory");
			free(base);
			return false;
		}
		free(base);
		memcpy(out->host, dir, (size_t)n + 1);
	}
	if (access(out->host, R_OK)) {
		check_problem(c, v->line, "file = %s: cannot read %s (%s); give an existing file "
			      "or directory, relative to the experiment file's directory or absolute",
			      v->text, out->host, strerror(errno));
		return false;
	}
	return true;
}
