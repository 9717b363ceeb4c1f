/*
 * --file: host files packed into the guest's initrd, which the program
 * execve's with an environment of its own (tests/guest/execcheck.c runs
 * tests/guest/envshow.c), and the paths refused before anything boots.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "array_size.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(files, .timeout = 600);

/* A file written for the test, with mode, its path in path[160] (tmp_output's is reused). */
static const char *tmp_file(char *path, const char *name, const char *text, mode_t mode)
{
	FILE *f;

	snprintf(path, 160, "%s", tmp_output(name));
	f = fopen(path, "w");

	cr_assert(f && fputs(text, f) >= 0 && fclose(f) == 0, "%s", path);
	cr_assert_eq(chmod(path, mode), 0);
	return path;
}

Test(files, execve_of_a_packed_program_gets_its_argv_and_envp)
{
	char nx[160], out[160], file1[512], file2[512];
	const char *noexec = tmp_file(nx, "noexec.txt", "not a program\n", 0644);
	struct json_object *rec, *files;
	struct el_proc p;
	struct stat st;

	snprintf(out, sizeof(out), "%s", tmp_output("files.jsonl"));
	snprintf(file1, sizeof(file1), "%s=/bin/envshow", GUEST_BIN "envshow");
	snprintf(file2, sizeof(file2), "%s=/data/noexec", noexec);
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", out, "--file", file1, "--file", file2,
			      "--exec", GUEST_BIN "execcheck", "/bin/envshow", "/data/noexec",
			      NULL};

	proc_run(&p, argv);
	cr_expect_eq(p.status, 7, "the exec'd envshow's status (7) must be the run's, got %d\n"
		     "%s\n%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "execcheck: exec /bin/envshow\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[0]=envshow\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[2]=two words\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: env=EL_A=1\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: env=EL_B=two words\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: envc=2\n"), "only the caller's envp, not init's:\n%s",
		  p.out);
	cr_expect(!strstr(p.out, "FAIL"), "%s%s", p.out, p.err);
	rec = last_record(out);
	cr_assert(rec, "no record:\n%s", p.err);
	files = jget(rec, "request.files");
	cr_assert(files && json_object_array_length(files) == 2, "request.files: %s",
		  files ? json_object_to_json_string(files) : "absent");
	cr_expect_str_eq(jstr(json_object_array_get_idx(files, 0), "guest"), "/bin/envshow");
	cr_expect_str_eq(jstr(json_object_array_get_idx(files, 0), "host"), GUEST_BIN "envshow");
	cr_assert_eq(stat(GUEST_BIN "envshow", &st), 0);
	cr_expect_eq(json_object_get_int64(jget(json_object_array_get_idx(files, 0), "bytes")),
		     (int64_t)st.st_size);
	cr_expect_eq(json_object_get_int64(jget(json_object_array_get_idx(files, 1), "bytes")),
		     14);
	json_object_put(rec);
	proc_free(&p);
}

Test(files, bad_guest_paths_refused_before_boot)
{
	static const char *const bad[][2] = {
		{"=bin/x", "not absolute"}, {"=/a/../x", "'..'"}, {"=/init", "/init"},
		{"=/", "root"},
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		char arg[512];
		struct el_proc p;

		snprintf(arg, sizeof(arg), "%s%s", GUEST_BIN "envshow", bad[i][0]);
		const char *argv[] = {EL_ENTRYLAB, "run", "--file", arg, "--exec",
				      GUEST_BIN "envshow", NULL};

		proc_run(&p, argv);
		cr_expect_eq(p.status, 120, "--file %s: exit %d, want 120\n%s", arg, p.status,
			     p.err);
		cr_expect(strstr(p.err, bad[i][1]), "--file %s: the message must say %s: %s", arg,
			  bad[i][1], p.err);
		proc_free(&p);
	}
}

Test(files, a_script_runs_its_interpreter_with_its_argument)
{
	char sc[160], nx[160];
	const char *script = tmp_file(sc, "script.sh", "#!/bin/envshow  -x  \necho never\n", 0755);
	const char *noexec = tmp_file(nx, "noexec2.txt", "data\n", 0644);
	char f1[512], f2[512], f3[512];
	struct el_proc p;

	snprintf(f1, sizeof(f1), "%s=/bin/envshow", GUEST_BIN "envshow");
	snprintf(f2, sizeof(f2), "%s=/bin/script.sh", script);
	snprintf(f3, sizeof(f3), "%s=/data/noexec", noexec);
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", tmp_output("script.jsonl"), "--file", f1,
			      "--file", f2, "--file", f3, "--exec", GUEST_BIN "execcheck",
			      "/bin/script.sh", "/data/noexec", NULL};

	proc_run(&p, argv);
	cr_expect_eq(p.status, 7, "exit %d\n%s\n%s", p.status, p.out, p.err);
	/* Linux's binfmt_script: INTERP ARG SCRIPT, then the caller's argv[1..] */
	cr_expect(strstr(p.out, "envshow: argv[0]=/bin/envshow\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[1]=-x\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[2]=/bin/script.sh\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[3]=one\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: argv[4]=two words\n"), "%s", p.out);
	cr_expect(strstr(p.out, "envshow: envc=2\n"), "%s", p.out);
	proc_free(&p);
}
