/*
 * The experiment keys of the saved report (harness/experiments/README.md):
 * headline (the seed's table columns), and per variant label (its row)
 * and table (which of the seed's tables).  Checked with the rest of the
 * file; experiment_report_meta() hands them to report_save().
 */
#include <ctype.h>
#include <string.h>

#include "experiment_priv.h"
#include "report_save.h"

#define TEXT_MAX 80

/* A one-line text of at most TEXT_MAX printable characters. */
static void check_text(struct check_ctx *c, enum exp_key k, const struct exp_value *v,
		       const char *where)
{
	size_t len;

	if (!v->text)
		return;
	len = strlen(v->text);
	if (!len || len > TEXT_MAX) {
		check_problem(c, v->line, "%s in %s: give a text of 1 to %d characters",
			      experiment_key_name(k), where, TEXT_MAX);
		return;
	}
	for (size_t i = 0; i < len; i++)
		if (!isprint((unsigned char)v->text[i]) || v->text[i] == '|') {
			check_problem(c, v->line,
				      "%s in %s: '%s' has a character report.md "
				      "tables cannot hold ('|' or a control character); drop it",
				      experiment_key_name(k), where, v->text);
			return;
		}
}

void check_report_keys(struct check_ctx *c)
{
	struct el_experiment *e = c->exp;
	const struct exp_value *h = &e->kv[EK_HEADLINE];

	if (h->text) {
		struct report_headline hl[REPORT_MAX_HEADLINE];
		char err[256];

		if (report_headline_parse(h->text, c->events, c->nevents, hl, REPORT_MAX_HEADLINE,
					  err, sizeof(err)) < 0)
			check_problem(c, h->line, "headline: %s", err);
	}
	for (unsigned i = 0; i < e->nvariants; i++) {
		struct exp_variant *v = &e->variants[i];

		check_text(c, EK_LABEL, &v->kv[EK_LABEL], v->name);
		check_text(c, EK_TABLE, &v->kv[EK_TABLE], v->name);
		v->label = v->kv[EK_LABEL].text ? v->kv[EK_LABEL].text : v->name;
		v->table = v->kv[EK_TABLE].text ? v->kv[EK_TABLE].text : "";
	}
}

void experiment_report_meta(const struct el_experiment *exp, struct report_row *rows,
			    struct report_meta *meta)
{
	meta->experiment = exp->name;
	meta->seed = exp->seed && exp->seed[0] ? exp->seed : NULL;
	meta->description = exp->description && exp->description[0] ? exp->description : NULL;
	meta->headline = exp->kv[EK_HEADLINE].text;
	for (unsigned i = 0; i < exp->nvariants; i++) {
		rows[i].variant = exp->variants[i].name;
		rows[i].label = exp->variants[i].label;
		rows[i].table = exp->variants[i].table;
	}
	meta->rows = rows;
	meta->nrows = exp->nvariants;
}
