/*
 * What the nested runner tells the inner entrylab about how its command got
 * there, through the environment, for the record's host.nested
 * (results/README.md): the host side sets these (harness/nested/
 * nested_session.c, nested_agent.c), the inner record reads them.
 */
#ifndef EL_RECORD_NESTED_H
#define EL_RECORD_NESTED_H

#include <json-c/json.h>

/* "warm" (a runner kept between commands) or "cold" (a VM for this command alone) */
#define EL_NESTED_ENV_RUNNER "ENTRYLAB_NESTED_RUNNER"
/* "1": this command booted the runner (its set-up includes the boot) */
#define EL_NESTED_ENV_STARTED "ENTRYLAB_NESTED_RUNNER_STARTED"
/* seconds waited for a free runner, and to connect to it (and boot it) */
#define EL_NESTED_ENV_WAIT "ENTRYLAB_NESTED_WAIT_S"
#define EL_NESTED_ENV_SETUP "ENTRYLAB_NESTED_SETUP_S"
/* set by the agent: the runner's count of commands, this one included, and its uptime */
#define EL_NESTED_ENV_RUNNER_SEQ "ENTRYLAB_NESTED_RUNNER_SEQ"
#define EL_NESTED_ENV_RUNNER_UPTIME "ENTRYLAB_NESTED_RUNNER_UPTIME_S"

/*
 * {"runner", "runner_started", "wait_s", "setup_s", "runner_commands",
 * "runner_uptime_s"} from the environment; NULL outside the nested runner.
 */
struct json_object *record_nested_json(void);

#endif
