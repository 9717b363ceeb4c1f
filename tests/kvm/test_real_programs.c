/*
 * Third-party programs on our kernel, compared with the same programs on
 * this host.  Debian's busybox-static and bash-static run the
 * scripts of tests/scripts/ natively and in the guest, from the same /bin:
 * a directory holding busybox, a link per applet and bash, which the guest
 * gets with --file DIR=/bin and the host through PATH.  The two outputs must
 * agree line by line once digits are masked (pids, times and sizes differ
 * between the machines); the first difference is printed.
 *
 * A program that is not installed skips its test, naming the package.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define SCRIPTS EL_SOURCE_DIR "/tests/scripts/"
#define BUSYBOX "/bin/busybox"
#define BASH "/bin/bash-static"

TestSuite(real_programs, .timeout = 900);

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out;
	size_t n;

	cr_assert(in, "cannot read %s: %s", from, strerror(errno));
	out = fopen(to, "wb");
	cr_assert(out, "cannot write %s: %s", to, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, out), n, "writing %s", to);
	fclose(in);
	cr_assert_eq(fclose(out), 0, "writing %s", to);
	cr_assert_eq(chmod(to, 0755), 0, "chmod %s", to);
}

/*
 * A fresh DIR/bin: busybox, a hard link of it per applet the script runs
 * as a command, and bash if asked; copies, not links to the system's /bin,
 * and regular files only, which the nested runner carries (not trees).
 * Returns DIR/bin (static storage).
 */
static const char *make_bin(const char *const *applets, bool with_bash)
{
	static char bin[256];
	char path[512], busybox[512];

	snprintf(bin, sizeof(bin), "%s", tmp_output("bin"));
	cr_assert_eq(mkdir(bin, 0755), 0, "mkdir %s: %s", bin, strerror(errno));
	snprintf(busybox, sizeof(busybox), "%s/busybox", bin);
	copy_file(BUSYBOX, busybox);
	for (; *applets; applets++) {
		snprintf(path, sizeof(path), "%s/%s", bin, *applets);
		cr_assert_eq(link(busybox, path), 0, "link %s: %s", path, strerror(errno));
	}
	if (with_bash) {
		snprintf(path, sizeof(path), "%s/bash", bin);
		copy_file(BASH, path);
	}
	return bin;
}

/* s with every run of digits replaced by one 'N', in place. */
static void mask_digits(char *s)
{
	char *out = s;
	bool in_digits = false;

	for (; *s; s++) {
		bool digit = isdigit((unsigned char)*s);

		if (!digit || !in_digits)
			*out++ = digit ? 'N' : *s;
		in_digits = digit;
	}
	*out = '\0';
}

/* Line-by-line comparison of two masked outputs; fails at the first difference. */
static void expect_same_lines(const char *what, char *native, char *guest)
{
	char *ns, *gs, *n, *g;
	unsigned line = 1;

	mask_digits(native);
	mask_digits(guest);
	n = strtok_r(native, "\n", &ns);
	g = strtok_r(guest, "\n", &gs);
	for (; n || g; line++) {
		cr_expect(n && g && !strcmp(n, g), "%s: line %u differs (digits masked):\n"
			  "  native: %s\n  guest:  %s", what, line, n ? n : "(end of output)",
			  g ? g : "(end of output)");
		if (!n || !g || strcmp(n, g))
			return;
		n = strtok_r(NULL, "\n", &ns);
		g = strtok_r(NULL, "\n", &gs);
	}
}

/*
 * Runs bin/SHELL SCRIPT natively with PATH=bin, and in the guest with each
 * of bin's files at /bin/NAME (the guest's PATH is /bin); compares.
 */
static void compare_script(const char *bin, const char *const *names, const char *shell,
			   const char *script)
{
	static char files[24][600];
	char path_env[300], shell_path[300], script_file[300];
	const char *argv[64];
	struct el_proc native, guest;
	unsigned n = 0, nf = 0;

	snprintf(path_env, sizeof(path_env), "PATH=%s", bin);
	snprintf(shell_path, sizeof(shell_path), "%s/%s", bin, shell);
	snprintf(script_file, sizeof(script_file), "%s%s", SCRIPTS, script);
	{
		const char *nargv[] = {"/usr/bin/env", "-i", path_env, "HOME=/", "TERM=linux",
				       shell_path, script_file, NULL};

		proc_run(&native, nargv);
	}
	cr_assert_eq(native.status, 0, "%s %s natively: exit %d\n%s", shell, script, native.status,
		     native.err);

	argv[n++] = EL_ENTRYLAB;
	argv[n++] = "run";
	argv[n++] = "--timeout";
	argv[n++] = "300";
	argv[n++] = "-o";
	argv[n++] = tmp_output("guest.jsonl");
	for (; *names; names++) {
		cr_assert_lt(nf, 23, "too many files");
		snprintf(files[nf], sizeof(files[nf]), "%s/%s=/bin/%s", bin, *names, *names);
		argv[n++] = "--file";
		argv[n++] = files[nf++];
	}
	snprintf(files[nf], sizeof(files[nf]), "%s=/script.sh", script_file);
	argv[n++] = "--file";
	argv[n++] = files[nf++];
	argv[n++] = "--exec";
	argv[n++] = shell_path;
	argv[n++] = "/script.sh";
	argv[n] = NULL;
	proc_run(&guest, argv);
	cr_expect_eq(guest.status, 0, "%s %s in the guest: exit %d\n%s\n%s", shell, script,
		     guest.status, guest.out, guest.err);
	/* The guest's stdout is the program's, then the run's summary: cut it at the summary. */
	{
		char *summary = strstr(guest.out, "\nentrylab run ");

		if (summary)
			summary[1] = '\0';
	}
	expect_same_lines(script, native.out, guest.out);
	proc_free(&native);
	proc_free(&guest);
}

/*
 * busybox's ash: pipelines, $(...), here-documents, background jobs with
 * wait, trap, kill -STOP/-CONT of a job, ps, /proc/$$/status.  busybox runs
 * its applets itself (a standalone shell): only sh needs a name in /bin.
 */
Test(real_programs, busybox_script_as_natively)
{
	static const char *const applets[] = {"sh", NULL};
	static const char *const names[] = {"sh", NULL};

	if (access(BUSYBOX, X_OK))
		cr_skip_test("no %s: apt-get install busybox-static", BUSYBOX);
	compare_script(make_bin(applets, false), names, "sh", "busybox-shell.sh");
}

/*
 * bash: pipefail and PIPESTATUS, process substitution, coproc, `time`, a
 * job stopped and continued; the commands it runs are busybox's applets.
 */
Test(real_programs, bash_script_as_natively)
{
	static const char *const applets[] = {"sort", "paste", "tr", "diff", "sleep", "cut",
					      "sed", NULL};
	static const char *const names[] = {"bash", "sort", "paste", "tr", "diff", "sleep",
					    "cut", "sed", NULL};

	if (access(BUSYBOX, X_OK))
		cr_skip_test("no %s: apt-get install busybox-static", BUSYBOX);
	if (access(BASH, X_OK))
		cr_skip_test("no %s: apt-get install bash-static", BASH);
	compare_script(make_bin(applets, true), names, "bash", "bash-features.sh");
}
