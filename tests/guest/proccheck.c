/*
 * proccheck: /proc as Linux has it (proc(5)).
 *   proccheck                        every check
 *   proccheck --child [ARGS]         (internal) a child to look at: reads a
 *                                    byte from fd 0, then exits; with
 *                                    --reexec it first checks its exe link
 *
 * Checked: /proc/self and thread-self resolved per caller; exe, cwd,
 * cmdline, environ, comm of a child exec'd with its own argv and envp, and
 * a re-exec through /proc/self/exe (comm "exe", the same program, no
 * loop); stat's 52 fields (pid, comm, state R/S/T/Z, ppid, num_threads,
 * vsize, rss, starttime), statm, status (Name, State, Tgid, Pid, PPid,
 * Threads, VmRSS, SigBlk/SigIgn for a blocked and an ignored signal);
 * maps of another process; fd/ links (a path, "pipe:[INO]") and the
 * listing; a process listed in /proc while alive and gone (ENOENT) once
 * reaped; pread and lseek on a /proc file; the system files (meminfo,
 * uptime, loadavg, stat, cpuinfo, mounts, filesystems, version,
 * sys/kernel/ostype and pid_max).  Runs on a Linux host too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define TEXT_MAX 65536

static char self_path[PATH_MAX];

/* The whole of a file into buf (NUL-terminated): its length, or -1 with errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (done + 1 < size && (n = read(fd, buf + done, size - 1 - done)) > 0)
		done += (size_t)n;
	close(fd);
	buf[done] = '\0';
	return n < 0 ? -1 : (long)done;
}

static long link_text(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	buf[n < 0 ? 0 : n] = '\0';
	return (long)n;
}

/* The value after "Key:" in a status text (up to the end of its line), or NULL. */
static const char *status_field(const char *text, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			size_t n;

			p += klen + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			n = strcspn(p, "\n");
			if (n >= size)
				n = size - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return out;
		}
	}
	return NULL;
}

/* stat's fields split at spaces after "(comm)": f[1] = pid ... f[52]; the count of fields. */
static int stat_fields(const char *text, char comm[64], char f[53][32])
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	int n = 2;

	if (!open || !close || close < open || close - open - 1 >= 64)
		return 0;
	memcpy(comm, open + 1, (size_t)(close - open - 1));
	comm[close - open - 1] = '\0';
	snprintf(f[1], 32, "%.*s", (int)(open - text - 1), text);
	snprintf(f[2], 32, "(%s)", comm);
	for (p = close + 1; *p && *p != '\n';) {
		size_t len;

		while (*p == ' ')
			p++;
		len = strcspn(p, " \n");
		if (!len)
			break;
		if (++n <= 52)
			snprintf(f[n], 32, "%.*s", (int)len, p);
		p += len;
	}
	return n;
}

static char proc_state(pid_t pid)
{
	char path[64], text[4096], comm[64], f[53][32];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file(path, text, sizeof(text)) < 0 || stat_fields(text, comm, f) < 3)
		return '?';
	return f[3][0];
}

/* /proc lists pid (a getdents walk, as ps does). */
static bool listed(pid_t pid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char name[16];
	bool found = false;

	snprintf(name, sizeof(name), "%d", (int)pid);
	while (d && (e = readdir(d)))
		found |= !strcmp(e->d_name, name) && e->d_type == DT_DIR;
	if (d)
		closedir(d);
	return found;
}

static void check_self(void)
{
	char buf[256], want[64];
	struct stat a, b;

	snprintf(want, sizeof(want), "%d", (int)getpid());
	el_expect("self_link", link_text("/proc/self", buf, sizeof(buf)) > 0 && !strcmp(buf, want),
		  "readlink /proc/self = \"%s\", want \"%s\"", buf, want);
	snprintf(want, sizeof(want), "%d/task/%d", (int)getpid(), (int)syscall(SYS_gettid));
	el_expect("thread_self_link",
		  link_text("/proc/thread-self", buf, sizeof(buf)) > 0 && !strcmp(buf, want),
		  "readlink /proc/thread-self = \"%s\", want \"%s\"", buf, want);
	snprintf(buf, sizeof(buf), "/proc/self/task/%d", (int)getpid());
	el_expect("task_dir", !stat(buf, &a) && S_ISDIR(a.st_mode), "stat %s: %s", buf,
		  strerror(errno));
	el_expect("exe_link",
		  link_text("/proc/self/exe", buf, sizeof(buf)) > 0 && buf[0] == '/' &&
			  !stat("/proc/self/exe", &a) && !stat(self_path, &b) &&
			  a.st_ino == b.st_ino && a.st_dev == b.st_dev,
		  "/proc/self/exe -> \"%s\" is not %s", buf, self_path);
}

static void check_cwd(void)
{
	char buf[256], cwd[256];

	if (chdir("/tmp")) {
		el_fail("cwd_link", "chdir /tmp: %s", strerror(errno));
		return;
	}
	el_expect("cwd_link",
		  link_text("/proc/self/cwd", buf, sizeof(buf)) > 0 && getcwd(cwd, sizeof(cwd)) &&
			  !strcmp(buf, cwd),
		  "/proc/self/cwd -> \"%s\", getcwd \"%s\"", buf, cwd);
	if (chdir("/"))
		el_fail("cwd_back", "chdir /: %s", strerror(errno));
}

static void check_own_files(int argc, char **argv)
{
	char text[TEXT_MAX], want[4096], field[128], comm[64], f[53][32];
	const char *base = strrchr(self_path, '/') ? strrchr(self_path, '/') + 1 : self_path;
	long n, len = 0;
	int i, nf;

	for (i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]) + 1;

		memcpy(want + len, argv[i], l);
		len += (long)l;
	}
	n = read_file("/proc/self/cmdline", text, sizeof(text));
	el_expect("cmdline_self", n == len && !memcmp(text, want, (size_t)len),
		  "%ld bytes, want %ld (argv NUL-separated)", n, len);
	snprintf(want, sizeof(want), "%.15s\n", base);
	n = read_file("/proc/self/comm", text, sizeof(text));
	el_expect("comm_self", n > 0 && !strcmp(text, want), "\"%s\", want \"%s\"", text, want);

	n = read_file("/proc/self/stat", text, sizeof(text));
	nf = n > 0 ? stat_fields(text, comm, f) : 0;
	el_expect("stat_fields", nf == 52, "%d fields, want 52: %s", nf, text);
	if (nf == 52) {
		el_expect("stat_ids",
			  atoi(f[1]) == getpid() && !strcmp(comm, base) && f[3][0] == 'R' &&
				  atoi(f[4]) == getppid() && atoi(f[20]) == 1,
			  "pid %s comm %s state %s ppid %s threads %s", f[1], comm, f[3], f[4],
			  f[20]);
		/* rss is not checked: Linux 6.2+ sums it lazily, a small program may read 0 */
		el_expect("stat_memory",
			  strtoull(f[23], 0, 10) > 0 &&
				  strspn(f[24], "0123456789") == strlen(f[24]) &&
				  !strcmp(f[25], "18446744073709551615"),
			  "vsize %s rss %s rsslim %s", f[23], f[24], f[25]);
	}

	n = read_file("/proc/self/statm", text, sizeof(text));
	{
		unsigned long v[7];

		el_expect("statm",
			  n > 0 &&
				  sscanf(text, "%lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2],
					 &v[3], &v[4], &v[5], &v[6]) == 7 &&
				  v[0] >= v[1] && v[1] > 0,
			  "\"%s\"", text);
	}

	n = read_file("/proc/self/status", text, sizeof(text));
	snprintf(want, sizeof(want), "%d", (int)getpid());
	el_expect("status_ids",
		  n > 0 && status_field(text, "Name", field, sizeof(field)) &&
			  !strcmp(field, comm) && status_field(text, "Pid", field, sizeof(field)) &&
			  !strcmp(field, want) && status_field(text, "Tgid", field, sizeof(field)) &&
			  !strcmp(field, want) && status_field(text, "State", field, sizeof(field)) &&
			  !strcmp(field, "R (running)") &&
			  status_field(text, "Threads", field, sizeof(field)) && !strcmp(field, "1"),
		  "%s", text);
	snprintf(want, sizeof(want), "%d", (int)getppid());
	el_expect("status_ppid",
		  status_field(text, "PPid", field, sizeof(field)) && !strcmp(field, want) &&
			  status_field(text, "TracerPid", field, sizeof(field)) &&
			  !strcmp(field, "0"),
		  "PPid %s, want %s", field, want);
	el_expect("status_vmrss",
		  status_field(text, "VmRSS", field, sizeof(field)) && atol(field) > 0 &&
			  strstr(field, " kB"),
		  "VmRSS \"%s\"", field);
	{
		sigset_t set, old;
		unsigned long long blk = 0, ign = 0;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, &old);
		signal(SIGUSR2, SIG_IGN);
		n = read_file("/proc/self/status", text, sizeof(text));
		if (status_field(text, "SigBlk", field, sizeof(field)))
			blk = strtoull(field, 0, 16);
		if (status_field(text, "SigIgn", field, sizeof(field)))
			ign = strtoull(field, 0, 16);
		el_expect("status_signals",
			  (blk & (1ull << (SIGUSR1 - 1))) && (ign & (1ull << (SIGUSR2 - 1))) &&
				  status_field(text, "SigPnd", field, sizeof(field)) &&
				  strlen(field) == 16,
			  "SigBlk %llx SigIgn %llx", blk, ign);
		signal(SIGUSR2, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, 0);
	}
}

/* pread, lseek and small reads see one text. */
static void check_offsets(void)
{
	char whole[TEXT_MAX], part[64], small[TEXT_MAX];
	long n = read_file("/proc/self/status", whole, sizeof(whole));
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t r = fd >= 0 ? pread(fd, part, 20, 10) : -1;
	size_t got = 0;

	el_expect("pread", n > 30 && r == 20 && !memcmp(part, whole + 10, 20), "pread %zd", r);
	el_expect("lseek",
		  fd >= 0 && lseek(fd, 5, SEEK_SET) == 5 && read(fd, part, 5) == 5 &&
			  !memcmp(part, whole + 5, 5),
		  "lseek/read at 5");
	if (fd >= 0)
		close(fd);
	fd = open("/proc/self/maps", O_RDONLY);
	for (ssize_t k; fd >= 0 && got + 7 < sizeof(small) && (k = read(fd, small + got, 7)) > 0;)
		got += (size_t)k;
	if (fd >= 0)
		close(fd);
	small[got] = '\0';
	el_expect("maps_small_reads", got > 0 && strstr(small, "[stack]"),
		  "maps read 7 bytes at a time: %zu bytes", got);
}

static void check_fds(void)
{
	char buf[256], want[64], path[64];
	int p[2], fd = open("/proc/self/status", O_RDONLY);
	struct stat st;
	DIR *d;
	struct dirent *e;
	bool seen_pipe = false, seen_file = false;

	if (pipe(p)) {
		el_fail("fd_pipe_link", "pipe: %s", strerror(errno));
		return;
	}
	fstat(p[0], &st);
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	el_expect("fd_pipe_link", link_text(path, buf, sizeof(buf)) > 0 && !strcmp(buf, want),
		  "%s -> \"%s\", want \"%s\"", path, buf, want);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	link_text(path, buf, sizeof(buf));
	snprintf(want, sizeof(want), "/proc/%d/status", (int)getpid());
	el_expect("fd_file_link", fd >= 0 && !strcmp(buf, want), "%s -> \"%s\", want \"%s\"", path,
		  buf, want);
	d = opendir("/proc/self/fd");
	while (d && (e = readdir(d))) {
		seen_pipe |= atoi(e->d_name) == p[1] && e->d_type == DT_LNK;
		seen_file |= atoi(e->d_name) == fd;
	}
	if (d)
		closedir(d);
	el_expect("fd_listing", seen_pipe && seen_file, "pipe %d file %d", seen_pipe, seen_file);
	close(p[0]);
	close(p[1]);
	close(fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[1]);
	el_expect("fd_closed_gone", lstat(path, &st) && errno == ENOENT, "%s after close", path);
}

/*
 * A child exec'd with argv and envp of our choosing, blocked reading its
 * stdin: its files seen from here, its states, and its directory's end.
 */
static void check_child(void)
{
	char text[TEXT_MAX], path[96], buf[512], field[64];
	static const char want_cmd[] = "proccheck\0--child\0two words\0\0last";
	static const char want_env[] = "PROCCHECK=42\0EMPTY=";
	int in[2], st = 0;
	pid_t pid;
	long n;

	if (pipe(in)) {
		el_fail("child", "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char *argv[] = {"proccheck", "--child", "two words", "", "last", NULL};
		char *envp[] = {"PROCCHECK=42", "EMPTY=", NULL};

		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
		execve(self_path, argv, envp);
		_exit(127);
	}
	close(in[0]);
	/* Until it blocks in its read: S (sleeping). */
	for (int i = 0; i < 2000 && proc_state(pid) != 'S'; i++)
		usleep(1000);
	el_expect("child_sleeping", proc_state(pid) == 'S', "state %c", proc_state(pid));
	el_expect("child_listed", listed(pid), "/proc has no %d", (int)pid);

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	n = read_file(path, text, sizeof(text));
	el_expect("child_cmdline",
		  n == sizeof(want_cmd) && !memcmp(text, want_cmd, sizeof(want_cmd)),
		  "%ld bytes, want %zu", n, sizeof(want_cmd));
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	n = read_file(path, text, sizeof(text));
	el_expect("child_environ",
		  n == sizeof(want_env) && !memcmp(text, want_env, sizeof(want_env)),
		  "%ld bytes, want %zu", n, sizeof(want_env));
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	{
		char mine[512];

		link_text("/proc/self/exe", mine, sizeof(mine));
		el_expect("child_exe", link_text(path, buf, sizeof(buf)) > 0 && !strcmp(buf, mine),
			  "%s -> \"%s\", want \"%s\"", path, buf, mine);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	read_file(path, text, sizeof(text));
	{
		char want[16];

		snprintf(want, sizeof(want), "%d", (int)getpid());
		el_expect("child_status",
			  status_field(text, "PPid", field, sizeof(field)) && !strcmp(field, want) &&
				  status_field(text, "State", field, sizeof(field)) &&
				  !strcmp(field, "S (sleeping)"),
			  "%s", text);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	n = read_file(path, text, sizeof(text));
	link_text("/proc/self/exe", buf, sizeof(buf));
	el_expect("child_maps", n > 0 && strstr(text, buf) && strstr(text, "[stack]"),
		  "no \"%s\" or [stack] in %s", buf, path);

	/* A group stop: T (stopped).  Without group stops (SIGSTOP ignored) a SKIP, not a hang. */
	kill(pid, SIGSTOP);
	for (int i = 0; i < 2000 && waitpid(pid, &st, WUNTRACED | WNOHANG) == 0; i++)
		usleep(1000);
	if (!WIFSTOPPED(st)) {
		el_skip("child_stopped", "SIGSTOP did not stop the child in 2 s (no group stop)");
	} else {
		el_expect("child_stopped", proc_state(pid) == 'T', "state %c", proc_state(pid));
		kill(pid, SIGCONT);
		waitpid(pid, &st, WCONTINUED);
	}

	/* A zombie until reaped, then gone. */
	if (write(in[1], "x", 1) != 1)
		el_fail("child_write", "%s", strerror(errno));
	close(in[1]);
	{
		siginfo_t si;

		waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
	}
	el_expect("child_zombie", proc_state(pid) == 'Z', "state %c", proc_state(pid));
	waitpid(pid, &st, 0);
	el_expect("child_exit", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	errno = 0;
	el_expect("child_gone", open(path, O_RDONLY) < 0 && errno == ENOENT && !listed(pid),
		  "%s after the reap: %s", path, strerror(errno));
}

/* busybox re-runs itself by /proc/self/exe: comm is "exe", the link the same file. */
static void check_reexec(void)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		char *argv[] = {"proccheck", "--child", "--reexec", NULL};
		char *envp[] = {NULL};
		int nul = open("/dev/null", O_RDONLY);

		dup2(nul, 0);
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	el_expect("reexec", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "exec of /proc/self/exe: status %#x (exit 2: comm or exe wrong)", st);
}

static int child_main(int argc, char **argv)
{
	char c, comm[64], exe[512];

	if (argc > 2 && !strcmp(argv[2], "--reexec")) {
		/* Exec'd through /proc/self/exe: comm "exe", exe the program itself. */
		if (read_file("/proc/self/comm", comm, sizeof(comm)) < 0 || strcmp(comm, "exe\n"))
			return 2;
		if (link_text("/proc/self/exe", exe, sizeof(exe)) <= 0 || exe[0] != '/' ||
		    strstr(exe, "/proc/"))
			return 2;
	}
	return read(0, &c, 1) < 0 ? 1 : 0;
}

static void check_system(void)
{
	char text[TEXT_MAX], field[128];
	long n;

	n = read_file("/proc/meminfo", text, sizeof(text));
	{
		char f2[128];

		el_expect("meminfo",
			  n > 0 && status_field(text, "MemTotal", field, sizeof(field)) &&
				  status_field(text, "MemFree", f2, sizeof(f2)) &&
				  atol(field) > 0 && atol(f2) <= atol(field) &&
				  strstr(field, " kB") && strstr(text, "\nMemAvailable:") &&
				  strstr(text, "\nSwapTotal:") && strstr(text, "\nCached:"),
			  "%.200s", text);
	}
	n = read_file("/proc/uptime", text, sizeof(text));
	{
		double up = 0, idle = -1;

		el_expect("uptime",
			  n > 0 && sscanf(text, "%lf %lf", &up, &idle) == 2 && up > 0 &&
				  idle >= 0 && text[n - 1] == '\n',
			  "\"%s\"", text);
	}
	n = read_file("/proc/loadavg", text, sizeof(text));
	{
		double l1, l5, l15;
		int run = 0, total = 0, last = 0;

		el_expect("loadavg",
			  n > 0 &&
				  sscanf(text, "%lf %lf %lf %d/%d %d", &l1, &l5, &l15, &run, &total,
					 &last) == 6 &&
				  run >= 1 && total >= run && last > 0,
			  "\"%s\"", text);
	}
	n = read_file("/proc/stat", text, sizeof(text));
	el_expect("stat_system",
		  n > 0 && !strncmp(text, "cpu ", 4) && strstr(text, "\ncpu0 ") &&
			  strstr(text, "\nbtime ") && strstr(text, "\nprocesses ") &&
			  strstr(text, "\nprocs_running "),
		  "%.200s", text);
	n = read_file("/proc/cpuinfo", text, sizeof(text));
	el_expect("cpuinfo",
		  n > 0 && !strncmp(text, "processor\t: 0\n", 14) &&
			  strstr(text, "\nvendor_id\t: ") && strstr(text, "\ncpu family\t: ") &&
			  strstr(text, "\nflags\t\t: ") && strstr(text, " fpu "),
		  "%.300s", text);
	n = read_file("/proc/mounts", text, sizeof(text));
	el_expect("mounts", n > 0 && strstr(text, " /proc proc "), "%.300s", text);
	n = read_file("/proc/self/mounts", text, sizeof(text));
	el_expect("self_mounts", n > 0 && strstr(text, " /proc proc "), "%.300s", text);
	n = read_file("/proc/filesystems", text, sizeof(text));
	el_expect("filesystems", n > 0 && strstr(text, "nodev\tproc\n") && strstr(text, "\ttmpfs\n"),
		  "%.300s", text);
	n = read_file("/proc/version", text, sizeof(text));
	el_expect("version", n > 0 && !strncmp(text, "Linux version ", 14), "\"%s\"", text);
	n = read_file("/proc/sys/kernel/ostype", text, sizeof(text));
	el_expect("ostype", n > 0 && !strcmp(text, "Linux\n"), "\"%s\"", text);
	n = read_file("/proc/sys/kernel/pid_max", text, sizeof(text));
	el_expect("pid_max", n > 0 && atol(text) >= 301 && text[n - 1] == '\n', "\"%s\"", text);
	el_expect("self_listed", listed(getpid()), "/proc does not list %d", (int)getpid());
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_main(argc, argv);
	/* The path execve was given (AT_EXECFN), not argv[0]: a name need not be a path. */
	const char *execfn = (const char *)getauxval(AT_EXECFN);

	if (!execfn || !realpath(execfn, self_path)) {
		printf("proccheck: cannot find myself (%s): %s\n", execfn ? execfn : argv[0],
		       strerror(errno));
		return 1;
	}
	check_self();
	check_cwd();
	check_own_files(argc, argv);
	check_offsets();
	check_fds();
	check_child();
	check_reexec();
	check_system();
	return el_summary("proccheck");
}
