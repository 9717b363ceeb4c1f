/*
 * The one set of caps on guest output the host keeps (results/README.md,
 * "Guest output"): every place that holds what a guest wrote (run's
 * console, trace's console, the program's stdout/stderr on their way to the
 * host) is bounded by these, whatever the guest does.
 */
#ifndef EL_OUTPUT_CAP_H
#define EL_OUTPUT_CAP_H

/* Console kept for the record: the first EL_OUTPUT_HEAD bytes and the newest
 * EL_OUTPUT_TAIL; what lies between is dropped and a marker says how much.
 * Sanitised text is at most 3 bytes per byte kept, so a record stays < 4 MB. */
#define EL_OUTPUT_HEAD (64u << 10)
#define EL_OUTPUT_TAIL ((1u << 20) - EL_OUTPUT_HEAD)
#define EL_OUTPUT_CAP  (EL_OUTPUT_HEAD + EL_OUTPUT_TAIL)

/* Program output queued per host fd before the vCPU waits for the reader. */
#define EL_HOSTOUT_QUEUE_CAP (1u << 20)

#endif
