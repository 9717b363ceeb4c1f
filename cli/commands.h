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

#endif
