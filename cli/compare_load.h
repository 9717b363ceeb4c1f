/* Record files into a struct report (compare_load.c). */
#ifndef EL_COMPARE_LOAD_H
#define EL_COMPARE_LOAD_H

#include <stdbool.h>

#include "report.h"

struct json_object;

/* Appends the records of path to the array all, counting bad lines; -1 if unreadable. */
int compare_load_file(const char *path, struct json_object *all, unsigned *bad);
/*
 * Files every record of all into a group of r: by experiment variant, else
 * by bench, cpu and append.  own_baselines: each variant's baseline as its
 * records name it (and r->base the first record's).
 */
void compare_build_groups(struct report *r, struct json_object *all, bool own_baselines);

#endif
