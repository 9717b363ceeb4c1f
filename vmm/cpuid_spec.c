/*
 * `--cpu SPEC` parsing: QEMU's -cpu syntax reduced to what entrylab offers
 * (the model "host" and toggles of the features in features.def).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "array_size.h"
#include "cpuid.h"

#define NAME_MAX_LEN 32

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int name_char(char c)
{
	if (c == '_')
		return '-';
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int cpuid_feature_lookup(const char *name, size_t len)
{
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		const char *n = el_features[f].name;
		size_t i;

		if (strlen(n) != len)
			continue;
		for (i = 0; i < len && name_char(name[i]) == n[i]; i++)
			;
		if (i == len)
			return f;
	}
	return -1;
}

/* Edit distance with transpositions, so "pcdi" is one step from "pcid". */
static unsigned name_distance(const char *a, size_t la, const char *b)
{
	unsigned d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];
	size_t lb = strlen(b);

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return ~0u;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = name_char(a[i - 1]) != b[j - 1];
			unsigned v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && name_char(a[i - 1]) == b[j - 2] &&
			    name_char(a[i - 2]) == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static int unknown_feature(const char *spec, const char *name, size_t len, char *err,
			   size_t errlen)
{
	unsigned best = 3;
	int guess = -1;

	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		unsigned d = name_distance(name, len, el_features[f].name);

		if (d < best) {
			best = d;
			guess = f;
		}
	}
	if (guess >= 0)
		return fail(err, errlen,
			    "--cpu %s: unknown feature '%.*s' (did you mean '%s'?); "
			    "`entrylab list features` lists them",
			    spec, (int)len, name, el_features[guess].name);
	return fail(err, errlen,
		    "--cpu %s: unknown feature '%.*s'; `entrylab list features` lists them", spec,
		    (int)len, name);
}

/* QEMU's boolean property spellings. */
static const struct {
	const char *word;
	enum el_feat_req req;
} bool_words[] = {
	{"on", EL_REQ_ON},   {"off", EL_REQ_OFF}, {"true", EL_REQ_ON},
	{"false", EL_REQ_OFF}, {"yes", EL_REQ_ON}, {"no", EL_REQ_OFF},
};

static int parse_value(const char *v, size_t len, enum el_feat_req *out)
{
	for (size_t i = 0; i < EL_ARRAY_SIZE(bool_words); i++) {
		if (strlen(bool_words[i].word) == len && !strncasecmp(v, bool_words[i].word, len)) {
			*out = bool_words[i].req;
			return 0;
		}
	}
	return -1;
}

/* One ",item" after the model. */
static int parse_item(const char *spec, const char *tok, size_t len, struct el_cpu_request *req,
		      char *err, size_t errlen)
{
	const char *name = tok, *eq = memchr(tok, '=', len);
	size_t nlen = eq ? (size_t)(eq - tok) : len;
	enum el_feat_req val = EL_REQ_ON;
	int f;

	if (len == 0)
		return fail(err, errlen, "--cpu %s: empty item (a stray ','); remove it", spec);
	if (len == 7 && !strncmp(tok, "enforce", 7))
		return 0;
	if ((tok[0] == '+' || tok[0] == '-') && !eq) {
		val = tok[0] == '+' ? EL_REQ_ON : EL_REQ_OFF;
		name++;
		nlen--;
		if (nlen == 0)
			return fail(err, errlen,
				    "--cpu %s: '%c' without a feature name; write %cfeat, e.g. "
				    "%cpcid",
				    spec, tok[0], tok[0], tok[0]);
	} else if (eq && parse_value(eq + 1, len - nlen - 1, &val)) {
		return fail(err, errlen, "--cpu %s: '%.*s': the value must be on or off", spec,
			    (int)len, tok);
	}
	if (nlen == 0)
		return fail(err, errlen, "--cpu %s: '%.*s' has no feature name; write feat=on",
			    spec, (int)len, tok);
	f = cpuid_feature_lookup(name, nlen);
	if (f < 0)
		return unknown_feature(spec, name, nlen, err, errlen);
	req->feat[f] = val; /* last one wins, as in QEMU */
	return 0;
}

static int parse_model(const char *spec, const char *tok, size_t len, char *err, size_t errlen)
{
	if (len == 4 && !strncmp(tok, "host", 4))
		return 0;
	if (len == 0)
		return fail(err, errlen,
			    "--cpu %s: no CPU model before the first ','; start with host, "
			    "e.g. host,-pge",
			    spec);
	if (tok[0] == '+' || tok[0] == '-' || memchr(tok, '=', len))
		return fail(err, errlen,
			    "--cpu %s: the spec starts with the CPU model; write host,%s", spec,
			    spec);
	return fail(err, errlen,
		    "--cpu %s: CPU model '%.*s' is not supported, only \"host\" is (what KVM "
		    "offers); write host and toggle features, e.g. host,-pge",
		    spec, (int)len, tok);
}

int cpuid_spec_parse(const char *spec, struct el_cpu_request *req, char *err, size_t errlen)
{
	const char *p;
	bool first = true;

	memset(req, 0, sizeof(*req));
	if (!spec)
		spec = "host";
	if (strlen(spec) >= sizeof(req->spec))
		return fail(err, errlen, "--cpu: the spec is %zu characters, at most %zu fit; "
				 "shorten it", strlen(spec), sizeof(req->spec) - 1);
	if (!*spec)
		return fail(err, errlen, "--cpu '': empty spec; write host, optionally with "
				 ",+feat / ,-feat (e.g. host,-pge)");
	snprintf(req->spec, sizeof(req->spec), "%s", spec);

	for (p = spec;; first = false) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int rc = first ? parse_model(spec, p, len, err, errlen)
			       : parse_item(spec, p, len, req, err, errlen);

		if (rc)
			return rc;
		if (!end)
			return 0;
		p = end + 1;
	}
}

const char *cpuid_req_name(enum el_feat_req r)
{
	static const char *const names[] = {
		[EL_REQ_DEFAULT] = "default", [EL_REQ_ON] = "on", [EL_REQ_OFF] = "off"};

	return (unsigned)r < EL_ARRAY_SIZE(names) ? names[r] : "?";
}
