/*
 * The record's host.nested (record_nested.h): the nested runner's path and
 * set-up cost, as its environment told the inner entrylab.  Values that do
 * not parse are left out, not guessed.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record_nested.h"

static void add_number(struct json_object *o, const char *key, const char *env, bool integer)
{
	const char *v = getenv(env);
	char *end;
	double d;

	if (!v || !*v)
		return;
	d = strtod(v, &end);
	if (*end || d < 0)
		return;
	json_object_object_add(o, key, integer ? json_object_new_int64((int64_t)d)
					       : json_object_new_double(d));
}

struct json_object *record_nested_json(void)
{
	const char *runner = getenv(EL_NESTED_ENV_RUNNER), *started = getenv(EL_NESTED_ENV_STARTED);
	struct json_object *o;

	if (!runner || (strcmp(runner, "warm") && strcmp(runner, "cold")))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "runner", json_object_new_string(runner));
	json_object_object_add(o, "runner_started",
			       json_object_new_boolean(started && !strcmp(started, "1")));
	add_number(o, "wait_s", EL_NESTED_ENV_WAIT, false);
	add_number(o, "setup_s", EL_NESTED_ENV_SETUP, false);
	add_number(o, "runner_commands", EL_NESTED_ENV_RUNNER_SEQ, true);
	add_number(o, "runner_uptime_s", EL_NESTED_ENV_RUNNER_UPTIME, false);
	return o;
}
