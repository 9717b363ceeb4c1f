/*
 * Record files into a report, for `entrylab compare` and the saved report
 * of records on disk (compare_save.c): JSON lines read and checked, records
 * grouped by experiment variant (with the matrix's baselines) or by bench,
 * cpu and append.  A line that is not a record is reported as FILE:LINE.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "compare_load.h"

static const char *jstring(struct json_object *o, const char *a, const char *b)
{
	if (!json_object_object_get_ex(o, a, &o) || (b && !json_object_object_get_ex(o, b, &o)))
		return NULL;
	return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

static struct json_object *parse_line(const char *line, size_t len, char *why, size_t wlen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;

	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    (size_t)json_tokener_get_parse_end(tok) != len) {
		enum json_tokener_error e =
			tok ? json_tokener_get_error(tok) : json_tokener_error_depth;

		snprintf(why, wlen, "not a JSON object on one line (%s)",
			 e == json_tokener_continue ? "it ends inside the object: a torn line?"
						    : json_tokener_error_desc(e));
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object) || !jstring(o, "status", NULL)) {
		snprintf(why, wlen, "not an entrylab record (no \"status\")");
		json_object_put(o);
		o = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return o;
}

/* Appends the file's records to all; -1 if it cannot be read. */
int compare_load_file(const char *path, struct json_object *all, unsigned *bad)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, why[160];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0;

	if (!f) {
		fprintf(stderr,
			"entrylab: cannot read %s: %s; give record files such as "
			"results/*.jsonl\n",
			path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct json_object *rec;

		lineno++;
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (!n)
			continue;
		rec = parse_line(line, (size_t)n, why, sizeof(why));
		if (rec) {
			json_object_array_add(all, rec);
		} else {
			fprintf(stderr, "%s:%d: %s; skipped\n", path, lineno, why);
			(*bad)++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/*
 * Group label: the variant, or the bench with its non-default cpu and
 * append; a Linux guest's records add "linux" and the release Linux
 * reported, so two kernels (Debian's 6.1 and 6.12, a patched build) are
 * two groups.
 */
static void group_label(struct json_object *rec, bool one_exp, char *buf, size_t len)
{
	const char *exp = jstring(rec, "experiment", "name"),
		   *var = jstring(rec, "experiment", "variant");
	const char *bench = jstring(rec, "bench", "name"), *cpu = jstring(rec, "request", "cpu");
	const char *append = jstring(rec, "request", "append");
	const char *kind = jstring(rec, "guest", "kind"), *release = NULL;
	const char *scope = jstring(rec, "region", "scope");
	struct json_object *g, *l;
	char guest[160] = "";

	if (exp && var) {
		snprintf(buf, len, "%s%s%s", one_exp ? "" : exp, one_exp ? "" : "/", var);
		return;
	}
	if (kind && !strcmp(kind, "linux")) {
		if (json_object_object_get_ex(rec, "guest", &g) &&
		    json_object_object_get_ex(g, "linux", &l))
			release = jstring(l, "release", NULL);
		snprintf(guest, sizeof(guest), " linux%s%s", release && *release ? " " : "",
			 release ? release : "");
	}
	/* A whole-program record is not the same quantity as a marked one: its own group. */
	snprintf(buf, len, "%s%s%s%s%s%s%s", bench ? bench : "boot", guest,
		 scope && !strcmp(scope, "whole-program") ? " (whole program)" : "",
		 cpu && strcmp(cpu, "host") ? " " : "", cpu && strcmp(cpu, "host") ? cpu : "",
		 append && *append ? " " : "", append ? append : "");
}

void compare_build_groups(struct report *r, struct json_object *all, bool own_baselines)
{
	size_t n = json_object_array_length(all);
	const char *first_exp = NULL;
	bool one_exp = true;
	char label[256];

	for (size_t i = 0; i < n; i++) {
		const char *e = jstring(json_object_array_get_idx(all, i), "experiment", "name");

		if (e && first_exp && strcmp(e, first_exp))
			one_exp = false;
		first_exp = first_exp ? first_exp : e;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *rec = json_object_array_get_idx(all, i);
		int g;

		group_label(rec, one_exp, label, sizeof(label));
		g = report_find(r, label);
		if (g < 0)
			g = report_group(r, label, jstring(rec, "bench", "name"),
					 jstring(rec, "request", "cpu"),
					 jstring(rec, "request", "append"));
		if (g >= 0)
			report_add(r, g, rec);
	}
	/* The matrix's own baselines, unless --baseline names one for all. */
	for (size_t i = 0; i < n && own_baselines; i++) {
		struct json_object *rec = json_object_array_get_idx(all, i);
		const char *base = jstring(rec, "experiment", "baseline");
		int g, b;

		group_label(rec, one_exp, label, sizeof(label));
		g = report_find(r, label);
		if (!base || g < 0 || r->g[g].baseline >= 0)
			continue;
		if (!one_exp)
			snprintf(label, sizeof(label), "%s/%s", jstring(rec, "experiment", "name"),
				 base);
		else
			snprintf(label, sizeof(label), "%s", base);
		b = report_find(r, label);
		r->g[g].baseline = b;
		if (i == 0 && b >= 0)
			r->base = b;
	}
}
