/*
 * eltrace: the QEMU TCG plugin behind `entrylab trace`.  It counts every
 * instruction the guest completes inside the region's windows and writes one
 * line per instruction that ran there.  A window is either
 * - (our kernel) from the instruction after the guest kernel's REGION_BEGIN
 *   OUT to the REGION_END OUT (addresses resolved by the host from the
 *   kernel ELF's symbols), or
 * - (a Linux guest, sites mode) from the first instruction at the return
 *   address of a BEGIN marker site's SYSCALL, once that SYSCALL ran, to an
 *   END site's SYSCALL (the program's el_region_sites, include/entrylab/
 *   linux_init.h, read by the host): the loop alone, no kernel entry of a
 *   marker.  A site matches by user address and bytes (0f 05), so another
 *   program's code at the same address never does.
 * How completions are counted: eltrace_count.c; the table: eltrace_table.c.
 * The marker instructions themselves belong to no window.
 *
 * Arguments: begin=ADDR end=ADDR out=FILE [listing=on]
 *        or: begin_site=ADDR... end_site=ADDR... out=FILE [listing=on]
 *   (each site argument repeated per site, at most MAX_SITES of a kind)
 *   listing=on keeps each instruction's disassembly and the order in which
 *   it first ran inside a window.
 * Output (text, parsed by harness/trace/trace_parse.c), written at QEMU's exit:
 *   eltrace 1
 *   markers BEGIN END               (sites mode: the first site of each kind)
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
		if (sites_mode() ? insn_is_site(e, st.begin_site, st.nbegin) ||
				   insn_is_site(e, st.end_site, st.nend)
				 : e->vaddr == st.begin || e->vaddr == st.end)
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

/* begin_site=ADDR / end_site=ADDR: one more site of that kind (a user address). */
static bool parse_site(const char *a, const char *key, uint64_t *sites, unsigned *n)
{
	size_t k = strlen(key);
	uint64_t v;

	if (strncmp(a, key, k) || !parse_addr(a + k, &v) || v >= USER_END || *n == MAX_SITES)
		return false;
	sites[(*n)++] = v;
	return true;
}

static int parse_args(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (parse_site(a, "begin_site=", st.begin_site, &st.nbegin) ||
		    parse_site(a, "end_site=", st.end_site, &st.nend))
			continue;
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
				"begin=ADDR end=ADDR out=FILE [listing=on], or begin_site=ADDR... "
				"end_site=ADDR... (user addresses, at most %d each) instead of "
				"begin= and end=\n", a, MAX_SITES);
		return -1;
	}
	if (!st.out || (st.nbegin || st.nend ? !st.nbegin || !st.nend || st.begin || st.end
					      : !st.begin || !st.end)) {
		fprintf(stderr, "eltrace: out= and either begin= and end=, or begin_site= and "
				"end_site=, are required\n");
		return -1;
	}
	if (sites_mode()) {
		st.begin = st.begin_site[0];
		st.end = st.end_site[0];
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
