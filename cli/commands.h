/* Subcommands of the entrylab binary; main.c dispatches from a table. */
#ifndef EL_COMMANDS_H
#define EL_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_cpuid(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_runner(int argc, char **argv);

/* Each command's option table (opt_table.h), for the tests: parser and --help from one place. */
struct el_opt_table;
const struct el_opt_table *cli_run_table(void);
const struct el_opt_table *cli_trace_table(void);
const struct el_opt_table *cmd_matrix_table(void);
const struct el_opt_table *cmd_compare_table(void);
const struct el_opt_table *cmd_cpuid_table(void);
const struct el_opt_table *cmd_engine_table(void);

#endif
