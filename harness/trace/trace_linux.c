/*
 * `entrylab trace --guest linux` (harness/trace/README.md, "Linux"): what
 * differs from tracing our kernel.
 * - The window: the program's marker sites (its el_region_sites section,
 *   include/entrylab/linux_init.h), handed to the plugin as user addresses;
 *   it opens where a BEGIN site's SYSCALL returns and closes at an END
 *   site's SYSCALL, so it holds the loop and no kernel entry of a marker.
 *   The whole program (--region whole): from its ELF entry point to
 *   /init's EL_LINUX_WHOLE_END_SYMBOL once waitpid returned, both matched by
 *   address and by the bytes the files have there; /init gets region=whole.
 * - The boot: QEMU loads the kernel file itself (-kernel: an ELF vmlinux by
 *   its PVH note, or a bzImage), the initrd is entrylab's /init with the
 *   program (initrd_build_linux), the command line linux_cmdline_compose's
 *   with EL_TRACE_LINUX_KNOBS before the user's --append.
 * - The ending: /init's COM1 frames (INFO, BOOT, RUN, KSYMS, EXIT), decoded
 *   and checked as the VMM checks them (vmm/frame.h), not console lines.
 * - Kernel symbols: the vmlinux symbol table when the file has one, else
 *   /proc/kallsyms as /init read it (KSYMS, conf ksyms=1), kept in a cache
 *   keyed by the kernel file's SHA-256 (trace_ksyms.c) so that the next
 *   trace of the same file needs no KSYMS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs.h"
#include "frame.h"
#include "host_elf.h"
#include "initrd_linux.h"
#include "linux_cmdline.h"
#include "region_scope.h"
#include "status.h"
#include "trace.h"

#define XEN_ELFNOTE_PHYS32_ENTRY 18

/* A bzImage: the boot protocol's "HdrS" at 0x202 (Documentation/x86/boot.rst). */
static bool is_bzimage(const unsigned char *k, size_t len)
{
	return len > 0x206 && !memcmp(k + 0x202, "HdrS", 4);
}

static int prepare_fail(const char *why)
{
	fprintf(stderr, "entrylab trace: %s\n", why);
	return EL_EXIT_USAGE;
}

/*
 * The bytes a file has at vaddr, for a mark the plugin matches by address
 * and bytes: 16, or as many as the segment holds.  False if none.
 */
static bool mark_from(const void *elf, size_t len, uint64_t vaddr, struct el_trace_mark *m)
{
	const unsigned char *b = NULL;
	unsigned n;

	for (n = sizeof(m->bytes); n && !(b = elf_vaddr_bytes(elf, len, vaddr, n)); n--)
		;
	if (!vaddr || !b)
		return false;
	m->vaddr = vaddr;
	m->n = n;
	memcpy(m->bytes, b, n);
	return true;
}

/*
 * The whole program's window: from its ELF entry point (its first user
 * instruction after exec) to /init's EL_LINUX_WHOLE_END_SYMBOL, each with
 * the bytes its file has there.
 */
static int prepare_whole(struct el_trace_job *job, struct el_trace_linux *lx)
{
	const unsigned char *img = job->prog->image;
	const unsigned char *init = entrylab_linux_init;
	size_t len = job->prog->image_len, ilen = (size_t)(entrylab_linux_init_end - init);
	Elf *e = host_elf_open(img, len, NULL, 0);
	GElf_Ehdr eh;
	uint64_t entry = e && gelf_getehdr(e, &eh) ? eh.e_entry : 0;

	if (e)
		elf_end(e);
	if (!mark_from(img, len, entry, &lx->entry))
		return prepare_fail("the program's ELF entry point is not in a loaded segment of "
				    "the file: nothing to open the whole-program window at");
	if (!mark_from(init, ilen, elf_symbol_value(init, ilen, EL_LINUX_WHOLE_END_SYMBOL),
		       &lx->whole_end)) {
		fprintf(stderr, "entrylab trace: this build's /init has no "
				EL_LINUX_WHOLE_END_SYMBOL " label (include/entrylab/linux_init.h), "
				"where a whole-program window closes: rebuild entrylab from a "
				"tree with guest/linux's whole mode, or trace a program with "
				"markers\n");
		return EL_EXIT_VMM;
	}
	return 0;
}

/*
 * The program: one linked where it runs, and its window: its marker sites
 * (at least one BEGIN and one END, at their link addresses), or for the
 * whole program its entry point and /init's label.
 */
static int prepare_program(struct el_trace_job *job, struct el_trace_linux *lx)
{
	const unsigned char *img = job->prog->image;
	size_t len = job->prog->image_len;
	unsigned begins = 0, ends = 0;
	char err[400], why[600];
	int n;

	if (!img)
		return prepare_fail("--guest linux traces a program's region: name a benchmark or "
				    "--exec FILE");
	if (elf_program_bias(img, len))
		return prepare_fail("--exec: a static-PIE program is loaded where Linux's ASLR "
				    "puts it, so its window has no fixed address; link it with "
				    "-static -no-pie");
	if (job->scope == EL_REGION_SCOPE_WHOLE)
		return prepare_whole(job, lx);
	n = elf_region_sites(img, len, lx->sites, EL_TRACE_SITES_MAX, err, sizeof(err));
	if (n < 0) {
		snprintf(why, sizeof(why), "the program's marker sites: %s", err);
		return prepare_fail(why);
	}
	lx->nsites = (unsigned)n;
	for (unsigned i = 0; i < lx->nsites; i++) {
		begins += lx->sites[i].op == EL_REGION_BEGIN;
		ends += lx->sites[i].op == EL_REGION_END;
	}
	if (!begins || !ends)
		return prepare_fail("the program lists no BEGIN and END marker sites (section "
				    EL_REGION_SITES_SECTION "): on Linux the trace's window is "
				    "found by them; build it with guest/lib/region.h's "
				    "el_region_begin()/el_region_end()");
	return 0;
}

/* Where the kernel's symbols will come from: its symbol table, the cache, or KSYMS. */
static void prepare_symbols(const struct el_run_spec *spec, struct el_trace_linux *lx)
{
	const unsigned char *k = spec->kernel;

	lx->kernel_symtab = !lx->bzimage && elf_symbol_value(k, spec->kernel_len, "_text");
	if (lx->kernel_symtab)
		return;
	if (!ksyms_cache_path(k, spec->kernel_len, lx->cache, sizeof(lx->cache)))
		lx->cached = ksyms_cache_read(lx->cache, &lx->cached_len);
	else
		lx->cache[0] = '\0';
	lx->ksyms = !lx->cached;
}

int trace_linux_prepare(struct el_trace_job *job)
{
	const struct el_run_spec *spec = job->spec;
	const struct el_programs *p = job->prog;
	struct el_trace_linux *lx = calloc(1, sizeof(*lx));
	char append[4096], err[512];
	char conf[64];
	int rc;

	if (!lx)
		return prepare_fail("out of memory");
	job->lx = lx;
	el_cpio_init(&lx->initrd);
	if ((rc = prepare_program(job, lx)))
		return rc;
	lx->bzimage = is_bzimage(spec->kernel, spec->kernel_len);
	if (!lx->bzimage && !elf_has_note(spec->kernel, spec->kernel_len, "Xen",
					  XEN_ELFNOTE_PHYS32_ENTRY))
		return prepare_fail("the kernel is neither a bzImage nor an ELF vmlinux with a PVH "
				    "note (CONFIG_PVH), the two kinds QEMU's -kernel boots; give "
				    "its bzImage (arch/x86/boot/bzImage)");
	prepare_symbols(spec, lx);
	/* /init's conf (linux_init.h): the scope, KSYMS when needed, and no page-fault event:
	 * its per-fault code would be in the traced path. */
	snprintf(conf, sizeof(conf), "%s%sfaults=0\n", region_linux_conf(job->scope),
		 lx->ksyms ? "ksyms=1\n" : "");
	/*
	 * QEMU reads the file itself (--kernel, or the default: programs_prepare
	 * made it absolute): no copy of tens of MB.  A ',' is kept out of its options.
	 */
	if (spec->kernel_file && !strchr(spec->kernel_file, ','))
		snprintf(lx->kernel_file, sizeof(lx->kernel_file), "%s", spec->kernel_file);
	if (initrd_build_linux(&lx->initrd, entrylab_linux_init,
			       (size_t)(entrylab_linux_init_end - entrylab_linux_init), p->image,
			       p->image_len, p->argv, p->argc, conf)) {
		fprintf(stderr, "entrylab trace: cannot build the initrd: %s\n", lx->initrd.error);
		return EL_EXIT_VMM;
	}
	snprintf(append, sizeof(append), "%s%s%s", EL_TRACE_LINUX_KNOBS,
		 spec->append && *spec->append ? " " : "", spec->append ? spec->append : "");
	if (linux_cmdline_compose(lx->cmdline, sizeof(lx->cmdline), append, err, sizeof(err)))
		return prepare_fail(err);
	return 0;
}

/* "Kernel panic - not syncing: WHY" from the console, for a detail. */
static void panic_reason(const char *con, char *out, size_t len)
{
	const char *p = con ? strstr(con, "Kernel panic - not syncing: ") : NULL;

	out[0] = '\0';
	if (p)
		snprintf(out, len, " (%.*s)", (int)strcspn(p, "\r\n"), p);
}

void trace_linux_outcome(const struct el_trace_run *q, struct el_run_result *res,
			 struct frame_scan *scan)
{
	char panic[200];

	memset(scan, 0, sizeof(*scan));
	/* trace_outcome() said how QEMU ended: only a guest that ran to an exit is read on. */
	if (q->spawn_failed || q->timed_out || q->signal || res->status == EL_RUN_VMM_ERROR ||
	    res->status == EL_RUN_UNSUPPORTED)
		return;
	/* Those came from our kernel's console lines: Linux's say nothing of the kind. */
	res->have_boot = false;
	res->exit_status = 0;
	res->panic_vector = 0;
	res->detail[0] = '\0';
	if (q->frames_overflow) {
		res->status = EL_RUN_GUEST_BAD_IO;
		snprintf(res->detail, sizeof(res->detail), "COM1 carried more than %u MiB of frame "
			 "lines (FRAME_SPLIT_MAX): not read", FRAME_SPLIT_MAX >> 20);
		return;
	}
	if (frame_decode(q->frames ? q->frames : "", q->frames_len, scan)) {
		res->status = EL_RUN_VMM_ERROR;
		snprintf(res->detail, sizeof(res->detail), "%s", scan->err);
		return;
	}
	frame_result(scan, res);
	/* QEMU's TSC is its virtual clock under -icount shift=0: 1 GHz exactly. */
	res->tsc_khz = EL_TRACE_TSC_KHZ;
	if (res->status == EL_RUN_GUEST_CRASH && !scan->count[FRAME_EXIT]) {
		/* Linux panicked (panic=-1 resets, -no-reboot ends QEMU) or never reached /init. */
		panic_reason(q->console, panic, sizeof(panic));
		if (panic[0] && strlen(res->detail) + strlen(panic) < sizeof(res->detail))
			strcat(res->detail, panic);
	}
}

/*
 * The vDSO image inside a vmlinux (Linux embeds vdso64.so, an ELF of its
 * own, in .rodata): the 64-bit ET_DYN image whose symbols include
 * __vdso_clock_gettime.  NULL if none is found (a bzImage is compressed).
 */
static const unsigned char *vdso_image(const unsigned char *k, size_t len, size_t *ilen)
{
	static const unsigned char magic[] = {0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB};
	const unsigned char *p = k;

	while ((p = memmem(p, len - (size_t)(p - k), magic, sizeof(magic)))) {
		Elf *e = host_elf_open(p, len - (size_t)(p - k), NULL, 0);
		GElf_Ehdr eh;
		size_t n = 0;

		if (e && gelf_getehdr(e, &eh) && eh.e_type == ET_DYN)
			n = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
		if (e)
			elf_end(e);
		if (n && n <= len - (size_t)(p - k) && n <= (1u << 20) &&
		    elf_symbol_value(p, n, "__vdso_clock_gettime")) {
			*ilen = n;
			return p;
		}
		p++;
	}
	return NULL;
}

/*
 * Do the user instructions the program's table does not cover, inside
 * [base, base + ilen), have the image's bytes there?  Linux patches the
 * vDSO's alternatives at boot (the RDTSC barrier), so a few may differ: at
 * least 8 and nine in ten must match.
 */
static bool vdso_at(const struct el_trace_data *d, const struct el_symtab *prog,
		    const unsigned char *img, size_t ilen, uint64_t base)
{
	unsigned matched = 0, seen = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct el_trace_insn *in = &d->insns[i];
		const unsigned char *b;
		uint64_t off;

		if (trace_space(in->vaddr) != EL_TRACE_USER || in->vaddr < base ||
		    in->vaddr - base >= ilen || (prog && symtab_lookup(prog, in->vaddr, &off)))
			continue;
		seen++;
		b = elf_vaddr_bytes(img, ilen, in->vaddr - base, in->size);
		matched += b && !memcmp(b, in->bytes, in->size);
	}
	return matched >= 8 && matched * 10 >= seen * 9;
}

int trace_linux_vdso(const struct el_trace_job *job, const struct el_trace_data *d,
		     const struct el_symtab *prog, struct el_symtab *t)
{
	const struct el_run_spec *spec = job->spec;
	const unsigned char *img;
	size_t ilen;
	char err[256];

	if (job->lx->bzimage || !(img = vdso_image(spec->kernel, spec->kernel_len, &ilen)))
		return -1;
	/* The first user instruction outside the program: the vDSO, if anything is. */
	for (size_t i = 0; i < d->n; i++) {
		uint64_t v = d->insns[i].vaddr, off;

		if (trace_space(v) != EL_TRACE_USER || (prog && symtab_lookup(prog, v, &off)))
			continue;
		/* The image is mapped page-aligned: try each page of it at this one. */
		for (uint64_t page = 0; page * 4096 < ilen && page * 4096 <= (v & ~0xfffull);
		     page++) {
			uint64_t base = (v & ~0xfffull) - page * 4096;

			if (vdso_at(d, prog, img, ilen, base))
				return symtab_load(t, "vdso", img, ilen, base, err, sizeof(err));
		}
		return -1;
	}
	return -1;
}

/* INFO ktext as a number; 0 when /init reported none. */
static uint64_t info_ktext(const struct el_run_result *res)
{
	return res->have_linux && res->linux_info.ktext[0]
		       ? strtoull(res->linux_info.ktext, NULL, 16) : 0;
}

int trace_linux_kernel_syms(const struct el_trace_job *job, const struct el_run_result *res,
			    const struct frame_scan *scan, struct el_symtab *t, char *err,
			    size_t errlen)
{
	const struct el_trace_linux *lx = job->lx;
	const struct el_run_spec *spec = job->spec;
	uint64_t ktext = info_ktext(res), base;
	char why[300];

	if (lx->kernel_symtab) {
		/* Linked at _text; loaded at ktext (KASLR, if the kernel has it on). */
		base = elf_symbol_value(spec->kernel, spec->kernel_len, "_text");
		return symtab_load(t, "kernel", spec->kernel, spec->kernel_len,
				   ktext ? ktext - base : 0, err, errlen);
	}
	if (lx->ksyms) {
		if (!scan->ksyms_len)
			return snprintf(err, errlen, "/init sent no kernel symbols (KSYMS)"), -1;
		if (symtab_from_kallsyms(t, scan->ksyms, scan->ksyms_len, 0, err, errlen))
			return -1;
		base = kallsyms_text_base(scan->ksyms, scan->ksyms_len);
		if (!base)
			base = ktext;
		if (lx->cache[0] && base && ksyms_cache_write(lx->cache, scan->ksyms,
							     scan->ksyms_len, base, why,
							     sizeof(why)))
			fprintf(stderr, "entrylab trace: kernel symbols not cached: %s\n", why);
		return 0;
	}
	if (!ktext)
		return snprintf(err, errlen, "/init reported no _text address (INFO ktext) to "
				"place the cached kernel symbols at"), -1;
	return symtab_from_kallsyms(t, lx->cached, lx->cached_len, ktext, err, errlen);
}

void trace_linux_free(struct el_trace_linux *lx)
{
	if (!lx)
		return;
	el_cpio_free(&lx->initrd);
	free(lx->cached);
	free(lx);
}
