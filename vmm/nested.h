/*
 * The nested runner: on a host without a usable /dev/kvm, entrylab re-runs
 * the same command inside a small Linux VM (QEMU TCG, -cpu max, nested SVM)
 * whose initramfs holds a static entrylab; records, stdout, stderr and the
 * exit status come back to the host.
 */
#ifndef EL_NESTED_H
#define EL_NESTED_H

#include <stdbool.h>

/* True when this process can create a VM on /dev/kvm. */
bool nested_kvm_usable(void);

/* True when running as the inner entrylab inside the nested VM. */
bool nested_is_inner(void);

/*
 * Runs `entrylab argv[1..]` in the nested VM and returns the inner
 * process's exit status (or an EL_EXIT_* code if the runner itself
 * failed, with a message naming the problem and the fix).
 * output_path: the host file the inner records are appended to (the inner
 * command gets -o pointing inside the VM); NULL if the command writes none.
 * files: host files the inner command needs (e.g. --exec FILE), NULL-terminated.
 */
int nested_run(int argc, char **argv, const char *output_path, const char *const *files);

#endif
