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
 * Inside the nested VM: the file the inner entrylab must append its records
 * to, instead of -o or the default under results/ (a regular file the VM's
 * init ships back to the host's output file while the command runs).
 * NULL when not inner.
 */
const char *nested_inner_output(void);

/*
 * Runs `entrylab argv[1..]` in the nested VM and returns the inner
 * process's exit status (or an EL_EXIT_* code if the runner itself
 * failed, with a message naming the problem and the fix).
 * argv: main()'s whole command line (argv[1] is the subcommand), unchanged:
 * the inner command sees the host's cwd, so relative paths still work.
 * output_path: the host file the inner records are appended to (the inner
 * command writes to nested_inner_output() instead); NULL if it writes none.
 * files: host files the inner command needs (e.g. --exec FILE, --kernel
 * FILE), NULL-terminated; they appear inside at the same paths.
 */
int nested_run(int argc, char **argv, const char *output_path, const char *const *files);

#endif
