/*
 * The seed's scale of an experiment: seed_args, seed_iterations and
 * seed_repeat (harness/experiments/README.md), checked with the other keys
 * and applied by `entrylab matrix EXPERIMENT --scale seed`.  The [experiment]
 * values apply to the variants of its bench, as args and iterations do; a
 * variant may give its own.
 */
#include <string.h>

#include "experiment_priv.h"

static bool any_seed_key(const struct exp_value *kv)
{
	return kv[EK_SEED_ARGS].text || kv[EK_SEED_ITERATIONS].text || kv[EK_SEED_REPEAT].text;
}

void check_seed_scale(struct check_ctx *c)
{
	struct el_experiment *e = c->exp;
	const struct exp_value *ekv = e->kv;
	uint64_t repeat = 0, iterations = 0;

	e->has_seed_scale = any_seed_key(ekv);
	check_uint(c, EK_SEED_REPEAT, &ekv[EK_SEED_REPEAT], 1, 1000, &repeat);
	e->seed_repeat = (unsigned)repeat;
	check_uint(c, EK_SEED_ITERATIONS, &ekv[EK_SEED_ITERATIONS], 1, UINT64_MAX, &iterations);
	for (unsigned i = 0; i < e->nvariants; i++) {
		struct exp_variant *v = &e->variants[i];
		const struct exp_value *kv = v->kv, *args = NULL;
		bool same = !kv[EK_BENCH].text || (ekv[EK_BENCH].text && v->bench &&
						   !strcmp(ekv[EK_BENCH].text, v->bench));
		int iter_line = 0;

		e->has_seed_scale = e->has_seed_scale || any_seed_key(kv);
		if (kv[EK_SEED_ARGS].text)
			args = &kv[EK_SEED_ARGS];
		else if (same && ekv[EK_SEED_ARGS].text)
			args = &ekv[EK_SEED_ARGS];
		v->seed_args = args ? args->text : NULL;
		if (kv[EK_SEED_ITERATIONS].text) {
			check_uint(c, EK_SEED_ITERATIONS, &kv[EK_SEED_ITERATIONS], 1, UINT64_MAX,
				   &v->seed_iterations);
			iter_line = kv[EK_SEED_ITERATIONS].line;
		} else if (same && iterations) {
			v->seed_iterations = iterations;
			iter_line = ekv[EK_SEED_ITERATIONS].line;
		}
		if (v->bench && (v->seed_args || v->seed_iterations))
			check_args(c, v->bench, v->seed_args ? v->seed_args : v->args,
				   args ? args->line : v->line, iter_line);
	}
}

int experiment_scale_seed(struct el_experiment *e, FILE *err)
{
	if (!e->has_seed_scale) {
		fprintf(err,
			"entrylab matrix: %s has no seed scale (no seed_args, seed_iterations "
			"or seed_repeat); give the sizes yourself (--args, -n, -r) or add the keys "
			"(harness/experiments/README.md)\n",
			e->path);
		return -1;
	}
	for (unsigned i = 0; i < e->nvariants; i++) {
		struct exp_variant *v = &e->variants[i];

		/* The seed's arguments carry their own count unless seed_iterations says one. */
		if (v->seed_args) {
			v->args = v->seed_args;
			v->iterations = 0;
		}
		if (v->seed_iterations)
			v->iterations = v->seed_iterations;
	}
	if (e->seed_repeat)
		e->repeat = e->seed_repeat;
	return 0;
}
