/*
 * `entrylab run --guest linux`: Debian's kernel, as the build
 * fetched it for the nested runner, boots on entrylab's VMM (natively, or
 * in the nested runner here) and runs the benchmarks into records; bad
 * kernel files are refused with 120 before anything boots.  Two Linux
 * boots in all, to keep the tier's time modest.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define KERNEL EL_BINARY_DIR "/nested/kernel"

TestSuite(linux_guest, .timeout = 900);

static void need_kernel(void)
{
	if (access(KERNEL, R_OK))
		cr_skip_test("no Linux kernel at %s (a build with -DENTRYLAB_NESTED=OFF)", KERNEL);
}

static struct json_object *ok_record(struct el_proc *p, const char *out)
{
	struct json_object *rec;

	cr_assert_eq(p->status, 0, "entrylab run exited %d: %s", p->status, p->err);
	cr_assert_eq(record_count(out), 1);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_expect_str_eq(jstr(rec, "status"), "ok", "%s", jstr(rec, "detail"));
	cr_expect_str_eq(jstr(rec, "guest.kind"), "linux");
	cr_expect(jstr(rec, "guest.linux.release") && strlen(jstr(rec, "guest.linux.release")) > 2,
		  "guest.linux.release missing");
	cr_expect(jget(rec, "vmm.legacy_io.reads"), "vmm.legacy_io missing");
	cr_expect(jstr(rec, "guest.kernel.file") && strstr(jstr(rec, "guest.kernel.file"), "kernel"),
		  "guest.kernel.file is %s", jstr(rec, "guest.kernel.file"));
	cr_expect_gt(json_object_get_double(jget(rec, "vmm.boot_ms")), 0, "boot_ms");
	return rec;
}

/* getpid with pti=on: Linux says PTI is on, the default kernel boots by its PVH note. */
Test(linux_guest, getpid_with_pti_on)
{
	const char *out = tmp_output("linux-getpid.jsonl");
	struct json_object *rec;
	struct el_proc p;

	need_kernel();
	entrylab(&p, "run", "--guest", "linux", "--append", "pti=on", "-o", out, "getpid", "1000",
		 NULL);
	rec = ok_record(&p, out);
	cr_expect_str_eq(jstr(rec, "guest.config.pti"), "on");
	cr_expect(strstr(jstr(rec, "guest.linux.cmdline"), "pti=on"), "cmdline %s",
		  jstr(rec, "guest.linux.cmdline"));
	cr_expect(strstr(jstr(rec, "guest.kernel.format"), "PVH"), "format %s",
		  jstr(rec, "guest.kernel.format"));
	cr_expect_str_eq(jstr(rec, "bench.name"), "getpid");
	cr_expect(strstr(p.out, "guest linux"), "the summary names the guest: %s", p.out);
	json_object_put(rec);
	proc_free(&p);
}

Test(linux_guest, pagefault_16m_2)
{
	const char *out = tmp_output("linux-pagefault.jsonl");
	struct json_object *rec;
	struct el_proc p;

	need_kernel();
	entrylab(&p, "run", "--guest", "linux", "-o", out, "pagefault", "16M", "2", NULL);
	rec = ok_record(&p, out);
	cr_expect_eq(json_object_get_int(jget(rec, "guest.exit_status")), 0);
	json_object_put(rec);
	proc_free(&p);
}

/* A file in the test's directory (tmp_output's buffer is reused: a copy of the path). */
static const char *tmp_file(const char *name, const void *data, size_t len)
{
	char *path = strdup(tmp_output(name));
	FILE *f = fopen(path, "wb");

	cr_assert(f, "cannot create %s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* Refused as the user's mistake, before any boot: 120, the problem named, no record. */
static void refused(const char *kernel, const char *memory, const char *needle)
{
	const char *out = tmp_output("refused.jsonl");
	struct timespec t0, t1;
	struct el_proc p;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	entrylab(&p, "run", "--guest", "linux", "--kernel", kernel, "-m", memory, "-o", out,
		 "getpid", NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_expect_eq(p.status, 120, "exit %d: %s", p.status, p.err);
	cr_expect(strstr(p.err, needle), "stderr does not name \"%s\": %s", needle, p.err);
	cr_expect_eq(record_count(out), 0, "a record: something booted");
	cr_expect_lt((double)(t1.tv_sec - t0.tv_sec), 20.0, "refusing took a boot's time");
	proc_free(&p);
}

Test(linux_guest, bad_kernel_files_are_refused_before_boot)
{
	static const char text[] = "#!/bin/sh\necho this is not a kernel\n";
	Elf32_Ehdr e32 = {.e_type = ET_EXEC, .e_machine = EM_386, .e_version = EV_CURRENT};
	static unsigned char half[1 << 20];
	int fd;

	memcpy(e32.e_ident, ELFMAG, SELFMAG);
	e32.e_ident[EI_CLASS] = ELFCLASS32;
	e32.e_ident[EI_DATA] = ELFDATA2LSB;
	refused(tmp_file("not-a-kernel", text, sizeof(text)), "256M", "neither an ELF vmlinux");
	refused(tmp_file("kernel32", &e32, sizeof(e32)), "256M", "32-bit kernel");
	if (access(KERNEL, R_OK))
		return;
	/* Debian's vmlinux cut after its first MiB: headers fine, segments beyond the end */
	fd = open(KERNEL, O_RDONLY);
	cr_assert(fd >= 0);
	cr_assert_eq(read(fd, half, sizeof(half)), (ssize_t)sizeof(half));
	close(fd);
	refused(tmp_file("truncated-vmlinux", half, sizeof(half)), "256M", "truncated");
	refused(KERNEL, "48M", "raise --memory");
}

Test(linux_guest, no_default_kernel_is_unsupported)
{
	struct el_proc p;

	setenv("ENTRYLAB_LINUX_KERNEL", "/nonexistent/vmlinux", 1);
	entrylab(&p, "run", "--guest", "linux", "--dry-run", "getpid", NULL);
	unsetenv("ENTRYLAB_LINUX_KERNEL");
	cr_expect_eq(p.status, 121, "exit %d: %s", p.status, p.err);
	cr_expect(strstr(p.err, "--kernel FILE"), "%s", p.err);
	proc_free(&p);
}

Test(linux_guest, knobs_that_are_not_linux_are_refused)
{
	struct el_proc p;

	need_kernel();
	entrylab(&p, "run", "--guest", "linux", "--append", "el.tsc_khz=1", "--dry-run", "getpid",
		 NULL);
	cr_expect_eq(p.status, 120, "exit %d: %s", p.status, p.err);
	proc_free(&p);
	entrylab(&p, "run", "--guest", "linux", "--engine", "bochs", "--cpu-model",
		 "corei7_haswell_4770", "getpid", NULL);
	cr_expect_eq(p.status, 120, "exit %d: %s", p.status, p.err);
	cr_expect(strstr(p.err, "Bochs"), "%s", p.err);
	proc_free(&p);
}
