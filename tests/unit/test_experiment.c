/*
 * Experiment files (harness/matrix/experiment_*.c): a good file resolves into the runs
 * it describes; every kind of mistake is reported as FILE:LINE with the fix,
 * and the shipped experiments all load.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array_size.h"
#include "entrylab/features.h"
#include "experiment.h"
#include "report_save.h"

static char path[64];
static char *msgs;

static void write_file(const char *text)
{
	int fd;

	strcpy(path, "/tmp/el-exp-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Loads text; returns the number of problems, messages in msgs. */
static int load(const char *text, struct el_experiment *e)
{
	size_t len = 0;
	FILE *err;
	int n;

	free(msgs);
	msgs = NULL;
	err = open_memstream(&msgs, &len);
	write_file(text);
	n = experiment_load(path, e, err);
	fclose(err);
	unlink(path);
	return n;
}

static void fini(void)
{
	free(msgs);
	msgs = NULL;
}

TestSuite(experiment, .fini = fini);

static const char good[] =
	"; a comment\n"
	"[experiment]\n"
	"name = demo\n"
	"seed = 002\n"
	"description = what it measures\n"
	"bench = vsyscall\n"
	"args = 8000 time\n"
	"iterations = 3   ; calls\n"
	"events = cycles:k, instructions:k\n"
	"repeat = 4\n"
	"append = pti=on\n"
	"memory = 128M\n"
	"timeout = 30\n"
	"requires = pge\n"
	"baseline = b\n"
	"metrics = ns, ns/page_faults, cycles:k, iterations/s\n"
	"\n"
	"[variant a]\n"
	"cpu = host,+pcid\n"
	"append = pti.global=none\n"
	"[variant b]\n"
	"  append = pti.global=entry\n"
	"[variant empty]\n"
	"[variant irq1]\n"
	"bench = irq\n"
	"requires = rdtscp\n"
	"[variant irq2]\n"
	"bench = irq\n"
	"args = 50 10\n"
	"baseline = a\n";

Test(experiment, good_file_resolves)
{
	struct el_experiment e;

	cr_assert_eq(load(good, &e), 0, "%s", msgs);
	cr_expect_str_eq(e.name, "demo");
	cr_expect_str_eq(e.seed, "002");
	cr_expect_str_eq(e.description, "what it measures");
	cr_expect_str_eq(e.events, "cycles:k,instructions:k");
	cr_expect_eq(e.repeat, 4);
	cr_expect_eq(e.mem_bytes, 128ull << 20);
	cr_expect_eq(e.timeout_s, 30.0);
	cr_expect_eq(e.nmetrics, 4);
	cr_expect_str_eq(e.metrics[1], "ns/page_faults");
	cr_assert_eq(e.nvariants, 5);
	cr_expect_eq(e.baseline, 1);

	/* a: own cpu (+pcid is a prerequisite), appends after the experiment's */
	cr_expect_str_eq(e.variants[0].cpu, "host,+pcid");
	cr_expect_str_eq(e.variants[0].append, "pti=on pti.global=none");
	cr_expect_eq(e.variants[0].requires, (1ull << EL_FEAT_PCID) | (1ull << EL_FEAT_PGE));
	cr_expect_str_eq(e.variants[0].bench, "vsyscall");
	cr_expect_str_eq(e.variants[0].args, "8000 time");
	cr_expect_eq(e.variants[0].iterations, 3);
	cr_expect_eq(e.variants[0].baseline, 1);
	/* indented key is a key, not a continuation */
	cr_expect_str_eq(e.variants[1].append, "pti=on pti.global=entry");
	cr_expect_str_eq(e.variants[1].cpu, "host");
	/* no keys: the experiment as it is */
	cr_expect_str_eq(e.variants[2].append, "pti=on");
	cr_expect_eq(e.variants[2].line, 23);
	/* another bench: not the experiment's args or iterations, its own baseline */
	cr_expect_str_eq(e.variants[3].bench, "irq");
	cr_expect_null(e.variants[3].args);
	cr_expect_eq(e.variants[3].iterations, 0);
	cr_expect_eq(e.variants[3].baseline, 3);
	cr_expect_eq(e.variants[3].requires, (1ull << EL_FEAT_RDTSCP) | (1ull << EL_FEAT_PGE));
	cr_expect_str_eq(e.variants[4].args, "50 10");
	cr_expect_eq(e.variants[4].baseline, 0, "an explicit baseline wins");
	cr_expect_eq(experiment_variant(&e, "irq2"), 4);
	cr_expect_eq(experiment_variant(&e, "nope"), -1);
	experiment_free(&e);
}

struct bad_case {
	const char *what;
	const char *text;
	int line;          /* 0: the message names the file without a line */
	const char *needle;
};

#define EXP "[experiment]\nname = x\nbench = lseek\n"

static const struct bad_case bad_cases[] = {
	{"key outside a section", "a = 1\n" EXP "[variant v]\n", 1, "outside any section"},
	{"unknown key", EXP "colour = red\n[variant v]\n", 4, "unknown key 'colour'"},
	{"experiment key in a variant", EXP "[variant v]\nrepeat = 2\n", 5,
	 "'repeat' belongs in [experiment]"},
	{"key twice", EXP "bench = getpid\n[variant v]\n", 4, "given twice"},
	{"variant twice", EXP "[variant v]\n[variant v]\n", 5, "defined twice (first at line 4)"},
	{"experiment twice", EXP "[experiment]\n[variant v]\n", 4, "[experiment] appears again"},
	{"unknown section", EXP "[varient v]\n", 4, "unknown section [varient v]"},
	{"variant without name", EXP "[variant]\n", 4, "unknown section"},
	{"bad variant name", EXP "[variant a b]\n", 4, "variant name 'a b'"},
	{"header without ]", EXP "[variant v\n", 4, "without ']'"},
	{"not a pair", EXP "[variant v]\njust words\n", 5, "not a 'key = value' line"},
	{"line too long",
	 EXP "[variant v]\nappend = pti=on "
	     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	     "xxxxx"
	     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	     "xxxxx"
	     "xxxxxxxxxxxxxxxxxxxxxxxxx\n",
	 5, "longer than"},
	{"no [experiment]", "[variant v]\nbench = lseek\n", 0, "no [experiment] section"},
	{"no name", "[experiment]\nbench = lseek\n[variant v]\n", 1, "has no name"},
	{"bad name", "[experiment]\nname = two words\nbench = lseek\n[variant v]\n", 2,
	 "name = two words"},
	{"unknown bench", "[experiment]\nname = x\nbench = lsek\n[variant v]\n", 3,
	 "bench = lsek: no such benchmark"},
	{"unknown variant bench", EXP "[variant v]\nbench = nope\n", 5, "bench = nope"},
	{"no bench at all", "[experiment]\nname = x\n[variant v]\n", 3, "has no bench"},
	{"repeat 0", EXP "repeat = 0\n[variant v]\n", 4,
	 "repeat = 0: not a whole number in 1..1000"},
	{"repeat words", EXP "repeat = many\n[variant v]\n", 4, "repeat = many"},
	{"iterations negative", EXP "iterations = -3\n[variant v]\n", 4, "iterations = -3"},
	{"variant iterations", EXP "[variant v]\niterations = 1x\n", 5, "iterations = 1x"},
	{"memory", EXP "memory = 4K\n[variant v]\n", 4, "memory = 4K: guest memory (--memory) of 4096 bytes is below the minimum"},
	{"timeout", EXP "timeout = soon\n[variant v]\n", 4, "timeout = soon"},
	{"cpu", EXP "cpu = host,+pcdi\n[variant v]\n", 4, "cpu = host,+pcdi"},
	{"variant cpu", EXP "[variant v]\ncpu = core2duo\n", 5, "cpu = core2duo"},
	{"unknown knob", EXP "append = pti=on ptiglobal=all\n[variant v]\n", 4,
	 "not a valid guest command line"},
	{"bad knob value", EXP "[variant v]\nappend = entry.ret=sysexit\n", 5,
	 "append = entry.ret=sysexit"},
	{"unknown feature", EXP "requires = pcid, warp\n[variant v]\n", 4,
	 "'warp' is no CPU feature"},
	{"variant feature", EXP "[variant v]\nrequires = la58\n", 5, "'la58'"},
	{"unknown metric", EXP "metrics = ns, speed\n[variant v]\n", 4, "'speed' is neither"},
	{"metric not an event", EXP "events = cycles\nmetrics = instructions\n[variant v]\n", 5,
	 "'instructions' is neither"},
	{"empty events", EXP "events = ,\n[variant v]\n", 4, "events is empty"},
	{"too many events", EXP "events = a,b,c,d,e,f,g,h,i\n[variant v]\n", 4, "more than 8"},
	{"unknown baseline", EXP "baseline = w\n[variant v]\n", 4, "baseline = w: there is no"},
	{"variant baseline", EXP "[variant v]\nbaseline = z\n", 5, "baseline = z"},
	{"no variants", EXP, 1, "no [variant NAME] sections"},
	{"iterations without args",
	 "[experiment]\nname = x\nbench = irq\nargs = \n"
	 "iterations = 5\n[variant v]\n",
	 5, "argument 1"},
	{"iterations of pagefault",
	 "[experiment]\nname = x\nbench = pagefault\nargs = 4M\n"
	 "iterations = 5\n[variant v]\n",
	 5, "an iteration of pagefault is one page fault"},
};

Test(experiment, every_mistake_names_file_and_line)
{
	for (size_t i = 0; i < EL_ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct el_experiment e;
		char where[96];
		int n = load(c->text, &e);

		if (c->line)
			snprintf(where, sizeof(where), "%s:%d: ", path, c->line);
		else
			snprintf(where, sizeof(where), "%s: ", path);
		cr_expect_gt(n, 0, "[%s] accepted", c->what);
		cr_expect(msgs && strstr(msgs, where), "[%s] no '%s' in:\n%s", c->what, where,
			  msgs);
		cr_expect(msgs && strstr(msgs, c->needle), "[%s] no '%s' in:\n%s", c->what,
			  c->needle, msgs);
		experiment_free(&e);
	}
}

Test(experiment, all_problems_in_one_pass)
{
	struct el_experiment e;

	cr_expect_eq(load("[experiment]\nname = x\nbench = nope\nrepeat = 0\nfoo = 1\n"
			  "[variant v]\n", &e), 3, "%s", msgs);
	experiment_free(&e);
}

Test(experiment, missing_file)
{
	struct el_experiment e;
	size_t len = 0;
	FILE *err = open_memstream(&msgs, &len);

	cr_expect_gt(experiment_load("/nonexistent/x.ini", &e, err), 0);
	fclose(err);
	cr_expect(strstr(msgs, "/nonexistent/x.ini: cannot read it"), "%s", msgs);
	experiment_free(&e);
}

Test(experiment, shipped_experiments_load)
{
	char **files;
	int n;

	setenv("ENTRYLAB_EXPERIMENTS", EL_SOURCE_DIR "/harness/experiments", 1);
	n = experiment_list_files(&files);
	cr_expect_geq(n, 4, "one experiment per seed row");
	for (int i = 0; i < n; i++) {
		struct el_experiment e;
		size_t len = 0;
		FILE *err = open_memstream(&msgs, &len);

		cr_expect_eq(experiment_load(files[i], &e, err), 0, "%s", files[i]);
		fclose(err);
		cr_expect(!msgs || !*msgs, "%s: %s", files[i], msgs);
		free(msgs);
		msgs = NULL;
		cr_expect_gt(e.nvariants, 1, "%s", files[i]);
		experiment_free(&e);
	}
	experiment_list_free(files, n);
}

Test(experiment, resolve_by_name_and_path)
{
	char p[4096];

	setenv("ENTRYLAB_EXPERIMENTS", EL_SOURCE_DIR "/harness/experiments", 1);
	cr_assert_eq(experiment_resolve("pti-global", p, sizeof(p)), 0);
	cr_expect_str_eq(p, EL_SOURCE_DIR "/harness/experiments/pti-global.ini");
	cr_expect_eq(experiment_resolve("no-such-experiment", p, sizeof(p)), -1);
	cr_expect_eq(experiment_resolve("/nonexistent/x.ini", p, sizeof(p)), -1);
}

/* The keys of the saved report: headline (checked like metrics), label and table. */
Test(experiment, report_keys)
{
	static const char text[] = "[experiment]\n"
				   "name = rk\n"
				   "bench = lseek\n"
				   "events = cycles\n"
				   "headline = iterations/s as lseeks/s, cycles/run\n"
				   "[variant a]\n"
				   "label = no global\n"
				   "table = without PCID\n"
				   "[variant b]\n";
	struct el_experiment e;
	struct report_row rows[2];
	struct report_meta meta = {0};

	cr_assert_eq(load(text, &e), 0, "%s", msgs);
	cr_expect_str_eq(e.variants[0].label, "no global");
	cr_expect_str_eq(e.variants[0].table, "without PCID");
	cr_expect_str_eq(e.variants[1].label, "b", "no label: the name");
	cr_expect_str_eq(e.variants[1].table, "");
	experiment_report_meta(&e, rows, &meta);
	cr_expect_str_eq(meta.experiment, "rk");
	cr_expect_str_eq(meta.headline, "iterations/s as lseeks/s, cycles/run");
	cr_expect_eq(meta.nrows, 2);
	cr_expect_str_eq(rows[0].label, "no global");
	cr_expect_eq(meta.seed, NULL, "no seed");
	experiment_free(&e);

	cr_expect_eq(load("[experiment]\nname = rk\nbench = lseek\nheadline = ns as\n"
			  "[variant a]\nlabel = a|b\n", &e), 2, "%s", msgs);
	cr_expect(strstr(msgs, ":4: headline: 'ns as': give a unit"), "%s", msgs);
	cr_expect(strstr(msgs, ":6: label in a: 'a|b'"), "%s", msgs);
	experiment_free(&e);
	cr_expect_eq(load("[experiment]\nname = rk\nbench = lseek\nheadline = instructions\n"
			  "[variant a]\n", &e), 1, "an event not in events");
	cr_expect(strstr(msgs, ":4: headline: 'instructions' is neither"), "%s", msgs);
	experiment_free(&e);
	cr_expect_eq(load("[experiment]\nname = rk\nbench = lseek\nlabel = x\n[variant a]\n", &e),
		     1, "label belongs to variants");
	experiment_free(&e);
}

/* guest and kernel: per variant, else the experiment's; kernel relative to the file. */
Test(experiment, guest_and_kernel)
{
	struct el_experiment e;
	char text[1024];
	const char *dir = "/tmp/el-exp-kernels";

	cr_assert(system("mkdir -p /tmp/el-exp-kernels && : > /tmp/el-exp-kernels/bzImage-a") == 0);
	snprintf(text, sizeof(text),
		 "[experiment]\nname = k\nbench = getpid\nguest = linux\n"
		 "kernel = %s/bzImage-a\n"
		 "[variant a]\n"
		 "[variant ours]\nguest = entrylab\nappend = entry.ret=sysret\n"
		 "[variant b]\nkernel = /tmp/el-exp-kernels/../el-exp-kernels/bzImage-a\n"
		 "append = mitigations=off nokaslr\n", dir);
	cr_assert_eq(load(text, &e), 0, "%s", msgs);
	cr_expect_eq(e.variants[0].guest, EL_GUEST_LINUX);
	cr_expect_str_eq(e.variants[0].kernel, "/tmp/el-exp-kernels/bzImage-a");
	cr_expect_eq(e.variants[1].guest, EL_GUEST_ENTRYLAB);
	cr_expect_str_eq(e.variants[2].kernel, "/tmp/el-exp-kernels/bzImage-a", "made absolute");
	experiment_free(&e);

	cr_expect_gt(load("[experiment]\nname = k\nbench = getpid\n[variant a]\nguest = bsd\n", &e),
		     0);
	cr_expect(strstr(msgs, ":5: guest = bsd: give guest = entrylab"), "%s", msgs);
	experiment_free(&e);
	cr_expect_gt(load("[experiment]\nname = k\nbench = getpid\nguest = linux\n[variant a]\n"
			  "kernel = no-such-kernel\n", &e), 0);
	cr_expect(strstr(msgs, ":6: kernel = no-such-kernel: cannot read /tmp/no-such-kernel"),
		  "%s", msgs);
	experiment_free(&e);
	/* Our knobs are checked for our variants only; Linux's command line is Linux's. */
	cr_expect_gt(load("[experiment]\nname = k\nbench = getpid\n[variant a]\n"
			  "append = mitigations=off\n", &e), 0, "ours: not a knob");
	experiment_free(&e);
	system("rm -rf /tmp/el-exp-kernels");
}

/* region: per variant, else the experiment's, else decided from the program (NONE). */
Test(experiment, region_key)
{
	struct el_experiment e;

	cr_assert_eq(load("[experiment]\nname = k\nbench = getpid\nregion = whole\n"
			  "[variant a]\n[variant b]\nregion = marked\n", &e), 0, "%s", msgs);
	cr_expect_eq(e.variants[0].region, EL_REGION_SCOPE_WHOLE);
	cr_expect_eq(e.variants[1].region, EL_REGION_SCOPE_MARKED);
	experiment_free(&e);
	cr_assert_eq(load("[experiment]\nname = k\nbench = getpid\n[variant a]\n", &e), 0, "%s",
		     msgs);
	cr_expect_eq(e.variants[0].region, EL_REGION_SCOPE_NONE);
	experiment_free(&e);
	cr_expect_gt(load("[experiment]\nname = k\nbench = getpid\n[variant a]\nregion = all\n", &e),
		     0);
	cr_expect(strstr(msgs, ":5: region = all: give region = marked"), "%s", msgs);
	experiment_free(&e);
}

/*
 * file = HOST[=GUEST]: any number of lines, the experiment's for every
 * variant and then the variant's own; HOST relative to the file's
 * directory, made absolute, its last component kept (a link stays a link).
 */
Test(experiment, file_lines)
{
	struct el_experiment e;

	cr_assert(system("rm -rf /tmp/el-exp-files && mkdir -p /tmp/el-exp-files/dir && "
			 ": > /tmp/el-exp-files/a.txt && : > /tmp/el-exp-files/b.txt && "
			 "ln -s a.txt /tmp/el-exp-files/link") == 0);
	cr_assert_eq(load("[experiment]\nname = f\nbench = getpid\n"
			  "file = el-exp-files/a.txt\n"
			  "[variant x]\n"
			  "file = el-exp-files/b.txt=/data//b/\n"
			  "file = /tmp/el-exp-files/dir=/d\n"
			  "[variant y]\n"
			  "file = ./el-exp-files/link\n", &e), 0, "%s", msgs);
	cr_assert_eq(e.variants[0].nfiles, 3);
	cr_expect_str_eq(e.variants[0].files[0].host, "/tmp/el-exp-files/a.txt");
	cr_expect_str_eq(e.variants[0].files[0].guest, "/a.txt");
	cr_expect_str_eq(e.variants[0].files[1].host, "/tmp/el-exp-files/b.txt");
	cr_expect_str_eq(e.variants[0].files[1].guest, "/data/b", "normalized as --file does");
	cr_expect_str_eq(e.variants[0].files[2].host, "/tmp/el-exp-files/dir");
	cr_expect_str_eq(e.variants[0].files[2].guest, "/d");
	cr_assert_eq(e.variants[1].nfiles, 2);
	cr_expect_str_eq(e.variants[1].files[0].guest, "/a.txt", "the experiment's first");
	cr_expect_str_eq(e.variants[1].files[1].host, "/tmp/./el-exp-files/link");
	cr_expect_str_eq(e.variants[1].files[1].guest, "/link", "a link keeps its own name");
	experiment_free(&e);

	cr_expect_eq(load("[experiment]\nname = f\nbench = getpid\n[variant x]\n", &e), 0);
	cr_expect_eq(e.variants[0].nfiles, 0);
	cr_expect_null(e.variants[0].files, "no file = lines: no files");
	experiment_free(&e);
	system("rm -rf /tmp/el-exp-files");
}

/* Refusals name the line, the value and the fix; all of them in one pass. */
Test(experiment, file_refusals)
{
	struct el_experiment e;
	char text[4096];
	size_t o;

	cr_assert(system("rm -rf /tmp/el-exp-fref && mkdir -p /tmp/el-exp-fref && "
			 ": > /tmp/el-exp-fref/a.txt") == 0);
	cr_expect_eq(load("[experiment]\nname = f\nbench = getpid\n"
			  "file = el-exp-no-such-file\n"
			  "[variant x]\n"
			  "file = el-exp-fref/a.txt=data\n"
			  "file = el-exp-fref/a.txt=/init\n"
			  "file = el-exp-fref/a.txt=/x/../y\n"
			  "file = =/x\n"
			  "file = el-exp-fref/a.txt=/\n", &e), 6, "%s", msgs);
	cr_expect(strstr(msgs, ":4: file = el-exp-no-such-file: cannot read "
			  "/tmp/el-exp-no-such-file (No such file or directory); give an existing"),
		  "%s", msgs);
	cr_expect(strstr(msgs, ":6: file = el-exp-fref/a.txt=data: --file "
			  "'el-exp-fref/a.txt=data': GUESTPATH 'data' is not absolute"), "%s", msgs);
	cr_expect(strstr(msgs, ":7: file = el-exp-fref/a.txt=/init: ") &&
		  strstr(msgs, "collides with /init"), "%s", msgs);
	cr_expect(strstr(msgs, ":8: ") && strstr(msgs, "has a '..' component"), "%s", msgs);
	cr_expect(strstr(msgs, ":9: file = =/x: --file '=/x' names no host file"), "%s", msgs);
	cr_expect(strstr(msgs, ":10: ") && strstr(msgs, "is the root"), "%s", msgs);
	cr_expect_eq(e.variants[0].nfiles, 0, "wrong lines are left out");
	experiment_free(&e);

	cr_expect_gt(load("[experiment]\nname = f\nbench = getpid\n[variant x]\nfile = el-exp-no-a\n"
			  "[variant y]\nlabel = Y\nfile = el-exp-no-b\n", &e), 0);
	cr_expect(strstr(msgs, ":5: file = el-exp-no-a: cannot read") &&
		  strstr(msgs, ":8: file = el-exp-no-b: cannot read"),
		  "%s", msgs);
	experiment_free(&e);

	/* More than EL_FILES_MAX in one section: the line past the limit. */
	o = (size_t)snprintf(text, sizeof(text), "[experiment]\nname = f\nbench = getpid\n");
	for (unsigned i = 0; i <= EL_FILES_MAX; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "file = el-exp-fref/a.txt=/f%u\n", i);
	snprintf(text + o, sizeof(text) - o, "[variant x]\n");
	cr_expect_eq(load(text, &e), 1, "%s", msgs);
	cr_expect(strstr(msgs, ":36: more than 32 file = lines in this section (run --file's "
			  "limit); pack a directory holding them instead"), "%s", msgs);
	experiment_free(&e);

	/* ... and in all that one variant gets: the experiment's and its own. */
	o = (size_t)snprintf(text, sizeof(text), "[experiment]\nname = f\nbench = getpid\n");
	for (unsigned i = 0; i < 20; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "file = el-exp-fref/a.txt=/e%u\n", i);
	o += (size_t)snprintf(text + o, sizeof(text) - o, "[variant fits]\n[variant many]\n");
	for (unsigned i = 0; i < 13; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "file = el-exp-fref/a.txt=/v%u\n", i);
	cr_expect_eq(load(text, &e), 1, "%s", msgs);
	cr_expect(strstr(msgs, ":26: variant 'many' gets 33 file = lines, 20 of them from "
			  "[experiment]: more than 32; pack a directory"), "%s", msgs);
	cr_expect_eq(e.variants[0].nfiles, 20);
	experiment_free(&e);
	system("rm -rf /tmp/el-exp-fref");
}
