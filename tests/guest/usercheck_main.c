/* usercheck: arguments, environment detection, and the order of the check groups. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/region.h"
#include "lib/sys.h"
#include "usercheck.h"

static const char usage[] =
	"usage: usercheck [OPTIONS]             run every check\n"
	"       usercheck fault-after-munmap    read an unmapped page: must die with status 139\n"
	"  --vsyscall=MODE      expected [vsyscall] mapping: native, emulate, xonly, none or\n"
	"                       any (default: any; present or absent, at the right address)\n"
	"  --vdso=yes|no|any    whether a vDSO must be mapped (default any)\n"
	"  --host-time=SEC      the host's CLOCK_REALTIME at launch: realtime must not be earlier\n"
	"  --host-time-tol=SEC  less this much (clock granularity; default 5)\n"
	"  --self=PATH          a read-only file to read (default: argv[0], else /init)\n";

long uc_sys(long nr, long a, long b, long c)
{
	return el_syscall3(nr, a, b, c);
}

static _Noreturn void bad_usage(const char *arg)
{
	fprintf(stderr, "usercheck: bad argument '%s'\n%s", arg, usage);
	exit(2);
}

static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static long long parse_num(const char *arg, const char *v)
{
	char *end;
	long long x = strtoll(v, &end, 10);

	if (!*v || *end || x < 0)
		bad_usage(arg);
	return x;
}

static void parse_args(struct uc_env *env, int argc, char **argv)
{
	static const char *const modes[] = { "native", "emulate", "xonly", "none", "any", NULL };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int ok = 0;

		if ((v = opt_value(a, "--vsyscall"))) {
			for (int m = 0; modes[m]; m++)
				ok |= strcmp(v, modes[m]) == 0;
			if (!ok)
				bad_usage(a);
			env->vsyscall = v;
		} else if ((v = opt_value(a, "--vdso"))) {
			if (strcmp(v, "yes") && strcmp(v, "no") && strcmp(v, "any"))
				bad_usage(a);
			env->vdso = !strcmp(v, "yes") ? 1 : !strcmp(v, "no") ? 0 : -1;
		} else if ((v = opt_value(a, "--host-time"))) {
			env->host_time = parse_num(a, v);
		} else if ((v = opt_value(a, "--host-time-tol"))) {
			env->host_tol = parse_num(a, v);
		} else if ((v = opt_value(a, "--self"))) {
			env->self = v;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else {
			bad_usage(a);
		}
	}
}

/* argv[0] when it names a file we can open, else /init (the entrylab default). */
static const char *default_self(const char *argv0)
{
	int fd = argv0 ? open(argv0, O_RDONLY) : -1;

	if (fd < 0)
		return "/init";
	close(fd);
	return argv0;
}

int main(int argc, char **argv)
{
	struct uc_env env = {
		.vsyscall = "any", .vdso = -1, .host_time = -1, .host_tol = 5, .tmp_fd = -1,
	};

	if (argc == 2 && strcmp(argv[1], "fault-after-munmap") == 0)
		return uc_fault_after_munmap();
	parse_args(&env, argc, argv);
	if (!env.self)
		env.self = default_self(argv[0]);
	env.entrylab = el_entrylab();
	printf("usercheck: kernel is %s; self=%s vsyscall=%s vdso=%s\n",
	       env.entrylab ? "entrylab" : "not entrylab (entrylab-only checks skip)", env.self,
	       env.vsyscall, env.vdso < 0 ? "any" : env.vdso ? "yes" : "no");

	uc_files(&env);
	uc_memory(&env);
	uc_time(&env);
	uc_proc(&env);
	uc_errors(&env);
	uc_maps(&env);
	uc_vsyscall(&env);
	if (env.tmp_fd >= 0)
		close(env.tmp_fd);
	return el_summary("usercheck");
}
