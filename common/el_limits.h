/*
 * The limits the CLI, the experiment files, the VMM and the nested runner
 * share: one definition each, so a value the CLI accepts is one the VMM
 * accepts, and every message quotes the same bound.  Pure C: the host
 * libraries and the unit tests include it; nothing here allocates.
 */
#ifndef EL_LIMITS_H
#define EL_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* Guest memory (-m, an experiment's memory =): a multiple of EL_MEM_ALIGN in [MIN, MAX]. */
#define EL_MEM_MIN   (16ull << 20) /* kernel, start_info and initrd fit */
#define EL_MEM_MAX   (64ull << 30) /* what one boot may map */
#define EL_MEM_ALIGN 4096ull       /* KVM memory slots are page-granular */

/* Files read whole, after their size and ELF header are checked (file_check.h). */
#define EL_KERNEL_FILE_MAX (64ull << 20)  /* --kernel: the guest kernel is ~2 MiB */
#define EL_EXEC_FILE_MAX   (256ull << 20) /* --exec: a static program, packed in the initrd */
/*
 * --kernel with --guest linux: a vmlinux or bzImage, mapped (never read
 * whole into the heap) and checked where it lies.  Debian's stripped
 * vmlinux is 63 MiB; one with its debug symbols ~1 GiB (a bzImage ~10 MiB).
 * A file past this is refused before it is mapped.
 */
#define EL_LINUX_KERNEL_FILE_MAX (2ull << 30)

/*
 * --file HOSTPATH[=GUESTPATH] (vmm/files.h): at most EL_FILES_MAX options,
 * and, over all their trees, EL_FILES_ENTRIES_MAX files, directories and
 * links and EL_FILES_BYTES_MAX bytes: the initrd sits in guest memory next
 * to the program (the default -m is 256 MiB), and busybox's or bash's
 * trees are a few MiB and a few hundred entries.
 */
#define EL_FILES_MAX         32u
#define EL_FILES_ENTRIES_MAX 4096u
#define EL_FILES_BYTES_MAX   (128ull << 20)

/*
 * The caps on guest output kept for the record (run's and trace's console,
 * program output) are common/output_cap.h's (EL_OUTPUT_CAP).  The nested runner keeps
 * none: it passes output on with backpressure (harness/nested/nested_sink.c).
 */

/*
 * 0 if bytes is a usable guest memory size; else -1 with "N bytes is not ...:
 * give a multiple of 4 KiB between 16M and 64G" in err.
 */
int el_limits_mem_check(uint64_t bytes, char *err, size_t errlen);

#endif
