/*
 * Linux kernel files for `--guest linux`: which kind of image a file is,
 * where its pieces go and whether they fit, checked as a pure function on
 * the bytes before anything boots (linux_parse), then copied into guest
 * memory (linux_load).  The file is untrusted: every offset, size and
 * address in it is checked before it is used.
 *
 * Three kinds, tried in this order:
 *   LINUX_PVH      an ELF vmlinux with Xen's PVH entry note
 *                  (XEN_ELFNOTE_PHYS32_ENTRY): booted as our kernel is
 *                  (pvh_load.h, pvh_start.h); Linux's PVH entry takes the
 *                  memory map and command line from hvm_start_info and the
 *                  initrd from module 0 (arch/x86/platform/pvh/enlighten.c)
 *   LINUX_ELF64    an ELF vmlinux without the note: Linux's 64-bit boot
 *                  protocol (linux_boot.h), entry e_entry, which a vmlinux
 *                  links as the physical address of startup_64
 *   LINUX_BZIMAGE  a bzImage: setup header from the file (boot protocol
 *                  2.12 or later, XLF_KERNEL_64), the protected-mode part
 *                  loaded at pref_address (1 MiB when it names none), entry
 *                  at the load address + 0x200 (the decompressor's 64-bit
 *                  startup_64), Documentation/arch/x86/boot.rst
 *
 * A 32-bit kernel (ELFCLASS32, a bzImage without XLF_KERNEL_64), a file
 * that is neither, a truncated one and one whose image does not fit the
 * guest memory asked for are refused, each naming the problem and the fix.
 */
#ifndef EL_LINUX_LOAD_H
#define EL_LINUX_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "gpa.h"
#include "pvh_load.h"

enum linux_kind { LINUX_PVH, LINUX_ELF64, LINUX_BZIMAGE, LINUX_KINDS };
extern const char *const linux_kind_names[LINUX_KINDS]; /* "ELF vmlinux, PVH entry", ... */

/* Setup header offsets (in the bzImage file and in the zero page alike). */
#define LX_SETUP_SECTS 0x1f1u     /* u8: 512-byte sectors of real-mode setup (0 means 4) */
#define LX_SYSSIZE 0x1f4u         /* u32: protected-mode part in 16-byte units */
#define LX_BOOT_FLAG 0x1feu       /* u16: 0xaa55 */
#define LX_JUMP 0x200u            /* u16: a short jump; its second byte + 0x202 ends the header */
#define LX_HEADER 0x202u          /* u32: "HdrS" */
#define LX_VERSION 0x206u         /* u16: boot protocol version */
#define LX_KERNEL_VERSION 0x20eu  /* u16: the version string's offset - 0x200 */
#define LX_TYPE_OF_LOADER 0x210u  /* u8 */
#define LX_LOADFLAGS 0x211u       /* u8 */
#define LX_RAMDISK_IMAGE 0x218u   /* u32 */
#define LX_RAMDISK_SIZE 0x21cu    /* u32 */
#define LX_CMD_LINE_PTR 0x228u    /* u32 */
#define LX_INITRD_ADDR_MAX 0x22cu /* u32: highest address the initrd may end at (2.03+) */
#define LX_KERNEL_ALIGN 0x230u    /* u32: alignment of a relocatable kernel (2.05+) */
#define LX_RELOCATABLE 0x234u     /* u8 (2.05+) */
#define LX_XLOADFLAGS 0x236u      /* u16 (2.12+) */
#define LX_CMDLINE_SIZE 0x238u    /* u32: longest command line without its NUL (2.06+) */
#define LX_PREF_ADDRESS 0x258u    /* u64 (2.10+) */
#define LX_INIT_SIZE 0x260u       /* u32: linear memory from the load address it needs (2.10+) */
#define LX_HDR_MIN_END 0x268u     /* where a 2.12 header ends */

#define LX_HDRS_MAGIC 0x53726448u /* "HdrS" */
#define LX_BOOT_FLAG_MAGIC 0xaa55u
#define LX_LOADED_HIGH 0x01u
#define LX_XLF_KERNEL_64 0x01u
#define LX_PROTOCOL_MIN 0x020cu   /* 2.12: xloadflags, so XLF_KERNEL_64 can be checked */
#define LX_ENTRY_64 0x200u        /* startup_64, from the protected-mode part's start */
#define LX_LOAD_DEFAULT 0x100000u /* 1 MiB: a bzImage that names no preferred address */
#define LX_CMDLINE_DEFAULT 2048u  /* COMMAND_LINE_SIZE on x86 (PVH, a vmlinux) */

struct linux_image {
	enum linux_kind kind;
	uint64_t entry;       /* PVH: 32-bit entry; ELF64: startup_64; bzImage: load + 0x200 */
	uint64_t lo, hi;      /* RAM the kernel needs before it runs, [lo, hi): a bzImage's is
				 its load address + init_size, where it decompresses */
	uint32_t cmdline_max; /* bytes of command line it takes, NUL included */
	uint64_t initrd_max;  /* the initrd must end at or below this */
	/* ELF kinds: the PT_LOAD segments */
	struct pvh_image elf;
	/* bzImage: the protected-mode part and the setup header as the file has it */
	uint64_t load;
	size_t pm_offset, pm_len;
	size_t hdr_end;       /* the header is file[LX_SETUP_SECTS, hdr_end) */
	uint16_t version;
};

/*
 * What the kernel file is and whether it boots in mem_bytes of guest
 * memory with an initrd of initrd_len bytes.  Pure: reads image[0..len)
 * only.  0, or -1 with "problem; fix" in err.
 */
int linux_parse(const void *image, size_t len, uint64_t mem_bytes, size_t initrd_len,
		struct linux_image *li, char *err, size_t errlen);

/* The parsed image into guest memory (segments, or the protected-mode part). */
int linux_load(const void *image, size_t len, const struct linux_image *li, struct el_mem *mem,
	       char *err, size_t errlen);

/*
 * The kernel's release as the file says it ("6.1.0-57-amd64"): a bzImage's
 * kernel_version string, a vmlinux's banner ("Linux version ..."); "" when
 * neither is found.  Reads the image (a vmlinux's loaded bytes, all of them
 * in the worst case): for the CLI, not for each boot.
 */
void linux_release(const void *image, const struct linux_image *li, char *out, size_t outlen);

/*
 * Where the initrd goes: the top of RAM below 3 GiB and below li's
 * initrd_max, page aligned, above the kernel and above floor.  0 when it
 * does not fit (the parse checked that it does).
 */
uint64_t linux_initrd_gpa(const struct linux_image *li, const struct el_mem *mem, size_t len,
			  uint64_t floor);

#endif
