/*
 * test.crash= hooks: deliberate failures for the VMM's error-path tests.
 */
#ifndef EL_CRASH_H
#define EL_CRASH_H

#include "cmdline.h"

/* Does nothing for EL_CRASH_NONE; otherwise does not return. */
void crash_run(enum el_test_crash how);

#endif
