/*
 * eltrace: the QEMU TCG plugin behind `entrylab trace`.  It counts every
 * instruction the guest completes between the guest kernel's two region
 * marker OUTs (addresses given as arguments, resolved by the host from the
 * kernel ELF's symbols) and writes one line per instruction that ran there.
 * How completions are counted: eltrace_count.c; the table: eltrace_table.c.
 * The marker OUTs themselves belong to no window.
 *
 * Arguments: begin=ADDR end=ADDR out=FILE [listing=on]
 *   listing=on keeps each instruction's disassembly and the order in which
 *   it first ran inside a window.
 * Output (text, parsed by harness/trace/trace_parse.c), written at QEMU's exit:
 *   eltrace 1
 *   markers BEGIN END
 *   windows CLOSED OPEN             OPEN 1: counted up to the exit, no END
 *   executed N                      instructions completed in the whole run
 *   [error TEXT]                    the counts are not to be trusted
 *   I VADDR COUNT FIRST SIZE BYTES DISAS   (tab-separated; COUNT > 0 only)
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
		/* The markers bracket the window; neither belongs to it. */
		if (e->vaddr == st.begin || e->vaddr == st.end)
			e->window = 0;
	}
	fprintf(f, "eltrace 1\nmarkers %llx %llx\nwindows %llu %u\nexecuted %llu\n",
		(unsigned long long)st.begin, (unsigned long long)st.end,
		(unsigned long long)st.windows, st.open ? 1u : 0u, (unsigned long long)executed);
	if (st.failed)
		fprintf(f, "error the plugin ran out of memory or its counts are inconsistent\n");
	for (struct insn *e = st.all; e; e = e->next)
		if (e->window)
			write_insn(f, e);
	if (fclose(f))
		fprintf(stderr, "eltrace: writing %s failed: %s\n", st.out, strerror(errno));
}

static bool parse_addr(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && *s && !*end && *out;
}

static int parse_args(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "begin=", 6) && parse_addr(a + 6, &st.begin))
			continue;
		if (!strncmp(a, "end=", 4) && parse_addr(a + 4, &st.end))
			continue;
		if (!strncmp(a, "out=", 4) && a[4]) {
			st.out = a + 4;
			continue;
		}
		if (!strcmp(a, "listing=on") || !strcmp(a, "listing=off")) {
			st.listing = a[9] == 'n';
			continue;
		}
		fprintf(stderr, "eltrace: unknown or malformed argument '%s'; expected "
				"begin=ADDR end=ADDR out=FILE [listing=on]\n", a);
		return -1;
	}
	if (!st.begin || !st.end || !st.out) {
		fprintf(stderr, "eltrace: begin=, end= and out= are required\n");
		return -1;
	}
	return 0;
}

EL_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					 char **argv)
{
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
	if (parse_args(argc, argv))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, count_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_write, NULL);
	return 0;
}
