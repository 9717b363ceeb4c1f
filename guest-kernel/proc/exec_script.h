/*
 * "#!" scripts, as Linux's fs/binfmt_script.c reads them, as a pure
 * function (exec_script.c) that the host unit tests run: the first line
 * names the interpreter and at most one argument (the rest of the line,
 * inner blanks kept); execve then runs "INTERP [ARG] PATH ARGV[1..]".
 */
#ifndef EL_PROC_EXEC_SCRIPT_H
#define EL_PROC_EXEC_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#define EXEC_SCRIPT_LINE_MAX 256 /* Linux's BINPRM_BUF_SIZE: what of the line is read */
#define EXEC_SCRIPT_DEPTH 4      /* scripts whose interpreter is a script: Linux's limit */

struct exec_script {
	char interp[EXEC_SCRIPT_LINE_MAX];
	char arg[EXEC_SCRIPT_LINE_MAX]; /* "" when the line has none */
	int has_arg;
};

/*
 * Reads the first line of data[0..size).  Returns 0 when it is no "#!"
 * script (another loader's file), 1 with s filled, or -1 (ENOEXEC, as
 * Linux) when the line names no interpreter or its name does not end
 * within the first EXEC_SCRIPT_LINE_MAX bytes.
 */
int exec_script_parse(const uint8_t *data, size_t size, struct exec_script *s);

#endif
