/*
 * eltrace: the QEMU TCG plugin behind `entrylab trace`.  It counts every
 * instruction the guest completes inside the region's windows and writes one
 * line per instruction that ran there.  A window (eltrace.h enum
 * window_kind; its arguments in eltrace_window.c) is
 * - (our kernel, marked) from the instruction after the guest kernel's
 *   REGION_BEGIN OUT to the REGION_END OUT (addresses resolved by the host
 *   from the kernel ELF's symbols),
 * - (our kernel, whole program) from the first user instruction after the
 *   REGION_BEGIN OUT ran (the kernel runs it just before init's first return
 *   to user mode) to the REGION_END OUT (once init exited),
 * - (a Linux guest, marked: sites) from the first instruction at the return
 *   address of a BEGIN marker site's SYSCALL, once that SYSCALL ran, to an
 *   END site's SYSCALL (the program's el_region_sites, include/entrylab/
 *   linux_init.h, read by the host): the loop alone, no kernel entry of a
 *   marker.  A site matches by user address and bytes (0f 05), so another
 *   program's code at the same address never does.
 * - (a Linux guest, whole program: entry) from the program's ELF entry point
 *   (its first user instruction after exec, counted) to /init's instruction
 *   after waitpid returned (EL_LINUX_WHOLE_END_SYMBOL), both matched by
 *   address and the bytes the host read from the files.
 * How completions are counted: eltrace_count.c; the table: eltrace_table.c.
 * The marker instructions themselves belong to no window (the entry point,
 * the program's first instruction, does).
 *
 * Output (text, parsed by harness/trace/trace_parse.c), written at QEMU's exit:
 *   eltrace 2
 *   window out|user|sites|entry     the kind of window asked for
 *   markers BEGIN END               (sites: the first site of each kind)
 *   begun BEGUN OPENED              BEGIN markers executed; windows opened
 *   windows CLOSED OPEN             OPEN 1: counted up to the exit, no END
 *   executed N                      instructions completed in the whole run
 *   [error TEXT]                    the counts are not to be trusted
 *   I VADDR COUNT FIRST SIZE BYTES DISAS   (tab-separated; COUNT > 0 only)
 * BEGUN > OPENED = 0 says why nothing was measured: the BEGIN marker ran but
 * no window followed (user: the program never reached user mode; sites: the
 * SYSCALL never returned there); BEGUN 0: no BEGIN marker ran at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eltrace.h"

EL_PLUGIN_EXPORT int qemu_plugin_version = EL_QEMU_PLUGIN_API;

struct eltrace st;

static void write_insn(FILE *f, const struct insn *e)
{
	fprintf(f, "I\t%llx\t%llu\t%llu\t%u\t", (unsigned long long)e->vaddr,
		(unsigned long long)e->window, (unsigned long long)e->first, e->size);
	for (unsigned i = 0; i < e->size; i++)
		fprintf(f, "%02x", e->bytes[i]);
	fputc('\t', f);
	for (const char *c = e->disas ? e->disas : "-"; *c; c++)
		fputc(*c == '\t' || *c == '\n' ? ' ' : *c, f);
	fputc('\n', f);
}

/* The marker instructions bracket the window and belong to none (the entry point does). */
static bool is_marker(const struct insn *e)
{
	switch (st.kind) {
	case WINDOW_SITES:
		return insn_is_site(e, st.begin_site, st.nbegin) ||
		       insn_is_site(e, st.end_site, st.nend);
	case WINDOW_ENTRY:
		return mark_matches(&st.end, e);
	default:
		return e->vaddr == st.begin.vaddr || e->vaddr == st.end.vaddr;
	}
}

static void on_exit_write(qemu_plugin_id_t id, void *udata)
{
	uint64_t executed = 0;
	FILE *f;

	(void)id, (void)udata;
	f = fopen(st.out, "w");
	if (!f) {
		fprintf(stderr, "eltrace: cannot write %s: %s\n", st.out, strerror(errno));
		return;
	}
	count_finish();
	for (struct insn *e = st.all; e; e = e->next) {
		executed += e->count;
		if (is_marker(e))
			e->window = 0;
	}
	fprintf(f, "eltrace 2\nwindow %s\nmarkers %llx %llx\nbegun %llu %llu\nwindows %llu %u\n"
		   "executed %llu\n", window_kind_names[st.kind],
		(unsigned long long)st.begin.vaddr, (unsigned long long)st.end.vaddr,
		(unsigned long long)st.begun, (unsigned long long)st.opened,
		(unsigned long long)st.windows, st.open ? 1u : 0u, (unsigned long long)executed);
	if (st.failed)
		fprintf(f, "error the plugin ran out of memory or its counts are inconsistent\n");
	for (struct insn *e = st.all; e; e = e->next)
		if (e->window)
			write_insn(f, e);
	if (fclose(f))
		fprintf(stderr, "eltrace: writing %s failed: %s\n", st.out, strerror(errno));
}

EL_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					 char **argv)
{
	char err[400];

	if (info->version.min > EL_QEMU_PLUGIN_API || info->version.cur < EL_QEMU_PLUGIN_API) {
		fprintf(stderr, "eltrace: this QEMU implements plugin API levels %d..%d; eltrace "
				"declares level %d (QEMU 7.2, harness/trace/qemu_plugin_abi.h): "
				"use QEMU 7.2 or port the declarations\n",
			info->version.min, info->version.cur, EL_QEMU_PLUGIN_API);
		return -1;
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "eltrace: needs qemu-system-x86_64 (this is %s%s)\n",
			info->target_name, info->system_emulation ? "" : " user mode");
		return -1;
	}
	if (eltrace_args(&st, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "eltrace: %s\n", err);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, count_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_write, NULL);
	return 0;
}
