/*
 * The agent: PID 1 of the nested runner's VM once init (harness/nested/init)
 * has loaded KVM and exec'd `/nested/entrylab __nested-agent`.  It serves
 * requests from the host over the virtio-serial ports of nested_wire.h, one
 * at a time, until it has been idle for entrylab.idle= seconds (kernel
 * command line; 0: after one command), then powers the VM off.
 *
 * Every command starts clean:
 * - a fresh process (fork + exec of /nested/entrylab), its own session;
 * - its own mount namespace whose root is a new tmpfs with /dev, /proc,
 *   /sys, /bin and /nested bound in, the host's files at their host paths,
 *   an empty /tmp, and the records file bound in at NESTED_INNER_RECORDS;
 * - afterwards every process but this one is killed (kill(-1)), so the
 *   namespace and its tmpfs go with them: nothing of one command is left
 *   for the next, and the records file is emptied.
 * stdout and stderr of the command are the ports themselves: its output
 * reaches the host with no copy here, and when the host reads slowly the
 * command's writes wait, as with a pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host_io.h"
#include "nested.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "record_nested.h"

#define AGENT_ROOT "/run/el-root"          /* each command's tmpfs root (a mount point) */
#define AGENT_RECORDS "/run/el-records"    /* the records file, bound into the root */
#define AGENT_POLL_MS 50                   /* records shipped at least this often */
#define AGENT_REQ_STALL_S 10.0             /* a request that stops arriving midway is dropped */
#define AGENT_PORT_WAIT_MS 30000           /* for the ports to appear after insmod */

enum { PORT_CTL, PORT_OUT, PORT_ERR, NPORTS };
static const char *const port_names[NPORTS] = {NESTED_PORT_CTL, NESTED_PORT_OUT,
					       NESTED_PORT_ERR};

struct agent {
	int port[NPORTS];
	int kmsg;    /* /dev/kmsg, -1 if none */
	int records; /* AGENT_RECORDS */
	unsigned idle_s;
	bool once;   /* one command, then power off (the cold path) */
	uint64_t seq, ready_ms;
	struct nested_buf in; /* request bytes */
	size_t in_used;       /* of them, the request being served (dropped after it) */
	struct nested_cmd *cmd;
	uint64_t nonce;
	bool gone; /* the host went away during this command */
};

static uint64_t uptime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	/* stderr is the VM's console (ttyS0) */
	fprintf(stderr, "nested-agent: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

/* /dev/vportNpM by the name QEMU gave the port. */
static int open_port(const char *name)
{
	glob_t g;
	int fd = -1;

	if (glob("/sys/class/virtio-ports/*/name", 0, NULL, &g))
		return -1;
	for (size_t i = 0; i < g.gl_pathc && fd < 0; i++) {
		char buf[64] = "", dev[300];
		FILE *f = fopen(g.gl_pathv[i], "r");
		const char *base;

		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
		if (strcmp(buf, name))
			continue;
		/* .../virtio-ports/vport0p1/name -> /dev/vport0p1 */
		*strrchr(g.gl_pathv[i], '/') = 0;
		base = strrchr(g.gl_pathv[i], '/') + 1;
		snprintf(dev, sizeof(dev), "/dev/%s", base);
		fd = open(dev, O_RDWR | O_CLOEXEC);
	}
	globfree(&g);
	return fd;
}

/*
 * The kernel command line's entrylab.idle=SECONDS (power off after that
 * long without a command; 0: never) and entrylab.once (power off after
 * one command: the cold path).
 */
static unsigned cmdline_idle(bool *once)
{
	char buf[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	const char *p;

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	p = strstr(buf, "entrylab.idle=");
	*once = strstr(buf, "entrylab.once") != NULL;
	return p ? (unsigned)strtoul(p + strlen("entrylab.idle="), NULL, 10) : 0;
}

/* Whether the host has the port open (virtio_console: POLLHUP when it has not). */
static bool host_connected(int fd)
{
	struct pollfd p = {.fd = fd, .events = 0};

	return poll(&p, 1, 0) >= 0 && !(p.revents & POLLHUP);
}

/* Writes all of it; false once the host is gone. */
static bool port_write(struct agent *a, int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		ssize_t n;

		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			return false;
		if (pfd.revents & (POLLHUP | POLLERR) || !host_connected(a->port[PORT_CTL])) {
			a->gone = true;
			return false;
		}
		if (!(pfd.revents & POLLOUT))
			continue;
		n = write(fd, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			a->gone = true;
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool send_frame(struct agent *a, enum nested_frame type, const void *data, size_t len)
{
	struct nested_frame_head h;

	nested_frame_head(&h, type, len);
	return port_write(a, a->port[PORT_CTL], &h, sizeof(h)) &&
	       port_write(a, a->port[PORT_CTL], data, len);
}

static bool send_mark(struct agent *a, int port, enum nested_mark_kind kind)
{
	uint8_t m[NESTED_MARK_LEN];

	nested_mark(m, kind, a->nonce);
	return port_write(a, a->port[port], m, sizeof(m));
}

static void send_fail(struct agent *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_fail(struct agent *a, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("%s", msg);
	send_frame(a, NESTED_F_FAIL, msg, strlen(msg));
}

/* The kernel's log since the last call, one LOG frame per record ("LEVEL,SEQ,TS,-;TEXT"). */
static void ship_kmsg(struct agent *a)
{
	char rec[8192];
	ssize_t n;

	while (a->kmsg >= 0 && (n = read(a->kmsg, rec, sizeof(rec) - 1)) != 0) {
		char *text;

		if (n < 0) {
			if (errno == EPIPE)
				continue; /* overwritten records: go on with what is there */
			break;
		}
		rec[n] = 0;
		text = strchr(rec, ';');
		text = text ? text + 1 : rec;
		if (!send_frame(a, NESTED_F_LOG, text, strlen(text)))
			return;
	}
}

/* What the records file gained since *shipped. */
static void ship_records(struct agent *a, off_t *shipped)
{
	char buf[NESTED_CHUNK];
	struct stat st;

	while (!a->gone && fstat(a->records, &st) == 0 && st.st_size > *shipped) {
		size_t want = (size_t)(st.st_size - *shipped);
		ssize_t n = pread(a->records, buf, want < sizeof(buf) ? want : sizeof(buf),
				  *shipped);

		if (n <= 0 || !send_frame(a, NESTED_F_RECORDS, buf, (size_t)n))
			return;
		*shipped += n;
	}
}

/* Waits for a whole request; false when idle for idle_s (0: never times out here). */
static bool read_request(struct agent *a, double idle_deadline, char *err, size_t errlen)
{
	const int ctl = a->port[PORT_CTL];
	double stall_deadline = 0;
	sigset_t io;

	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	for (;;) {
		bool found = false;
		size_t need = 0, drop;
		struct pollfd p = {.fd = ctl, .events = POLLIN};
		char chunk[65536];
		ssize_t n;
		double now = (double)uptime_ms() / 1000.0;

		if (a->in.len) {
			drop = nested_req_find(a->in.p, a->in.len, a->cmd, &found, &need, err,
					       errlen);
			if (found) {
				/* Its decoded strings live in these bytes: dropped after it ran. */
				a->in_used = drop;
				return true;
			}
			memmove(a->in.p, a->in.p + drop, a->in.len - drop);
			a->in.len -= drop;
		}
		if (a->in.len && stall_deadline && now > stall_deadline) {
			say("dropped %zu bytes of a request that stopped arriving", a->in.len);
			a->in.len = 0;
		}
		/* Not while a host is connected: it is about to send (or sending). */
		if (idle_deadline && now > idle_deadline && !a->in.len && !host_connected(ctl))
			return false;
		if (poll(&p, 1, 0) < 0 && errno != EINTR)
			return false;
		if (!(p.revents & (POLLIN | POLLHUP))) {
			poll(&p, 1, 100);
			continue;
		}
		/* With nobody connected the port polls readable and reads 0 once drained. */
		n = read(ctl, chunk, sizeof(chunk));
		if (n <= 0) {
			/* QEMU's SIGIO wakes us when the host opens the port or writes to it. */
			struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000000};

			sigtimedwait(&io, NULL, &ts);
			continue;
		}
		nested_buf_put(&a->in, chunk, (size_t)n);
		if (a->in.oom) {
			say("out of memory for a request; dropped it");
			nested_buf_free(&a->in);
		}
		stall_deadline = now + AGENT_REQ_STALL_S;
	}
}

static int mkdirs(const char *path, mode_t mode)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, mode) < 0 && errno != EEXIST ? -1 : 0;
}

/* The names bound into each command's root: a host path may not start with one. */
static const char *const bound[] = {"dev", "proc", "sys", "bin", "nested", NULL};

static bool path_is_ours(const char *path)
{
	for (const char *const *b = bound; *b; b++) {
		size_t n = strlen(*b);

		if (!strncmp(path + 1, *b, n) && (path[1 + n] == '/' || !path[1 + n]))
			return true;
	}
	return false;
}

/* In the child: the command's root.  Returns an error text, NULL when it is ready. */
static const char *child_root(const struct nested_cmd *c, char *err, size_t errlen)
{
	char p[4200];

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return "unshare(CLONE_NEWNS) failed";
	if (mount("tmpfs", AGENT_ROOT, "tmpfs", 0, "mode=0755") < 0)
		return "mounting the command's tmpfs failed";
	for (const char *const *b = bound; *b; b++) {
		snprintf(p, sizeof(p), AGENT_ROOT "/%s", *b);
		if (mkdir(p, 0755) < 0)
			return "mkdir in the command's root failed";
		snprintf(err, errlen, "/%s", *b);
		if (mount(err, p, NULL, MS_BIND | MS_REC, NULL) < 0)
			return "binding a system directory failed";
	}
	if (mkdir(AGENT_ROOT "/tmp", 01777) < 0 || chmod(AGENT_ROOT "/tmp", 01777) < 0)
		return "making /tmp failed";
	if (close(open(AGENT_ROOT NESTED_INNER_RECORDS, O_CREAT | O_WRONLY, 0644)) < 0 ||
	    mount(AGENT_RECORDS, AGENT_ROOT NESTED_INNER_RECORDS, NULL, MS_BIND, NULL) < 0)
		return "binding the records file failed";
	if (strcmp(c->cwd, "/")) {
		if (path_is_ours(c->cwd)) {
			snprintf(err, errlen, "the working directory %s is a system directory "
				 "of the nested VM; run from another directory", c->cwd);
			return err;
		}
		snprintf(p, sizeof(p), AGENT_ROOT "%s", c->cwd);
		if (mkdirs(p, 0755) < 0)
			return "making the working directory failed";
	}
	for (unsigned i = 0; i < c->nfiles; i++) {
		const struct nested_file *f = &c->files[i];
		int fd;

		if (path_is_ours(f->path)) {
			snprintf(err, errlen, "%s is under a system directory of the nested VM; "
				 "copy it elsewhere", f->path);
			return err;
		}
		snprintf(p, sizeof(p), AGENT_ROOT "%s", f->path);
		*strrchr(p, '/') = 0;
		if (mkdirs(p, 0755) < 0)
			return "making a file's directory failed";
		snprintf(p, sizeof(p), AGENT_ROOT "%s", f->path);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, f->mode ? f->mode : 0644);
		if (fd < 0 || !io_write_all(fd, f->data, f->len) || close(fd) < 0) {
			snprintf(err, errlen, "writing %s in the nested VM failed: %s", f->path,
				 strerror(errno));
			return err;
		}
	}
	if (chroot(AGENT_ROOT) < 0 || chdir(c->cwd) < 0)
		return "entering the command's root failed";
	return NULL;
}

/* In the child: never returns.  Setup errors go back through errfd. */
static void child_run(struct agent *a, int errfd, const char *const *env)
{
	const struct nested_cmd *c = a->cmd;
	char err[512];
	const char *why;
	char *argv[NESTED_MAX_ARGS + 2];
	int nul;

	setsid();
	signal(SIGPIPE, SIG_DFL);
	why = child_root(c, err, sizeof(err));
	nul = open("/dev/null", O_RDONLY);
	if (!why && (nul < 0 || dup2(nul, 0) < 0 || dup2(a->port[PORT_OUT], 1) < 0 ||
		     dup2(a->port[PORT_ERR], 2) < 0))
		why = "setting up stdin, stdout and stderr failed";
	if (!why) {
		argv[0] = "/nested/entrylab";
		for (unsigned i = 0; i < c->nargs; i++)
			argv[i + 1] = (char *)c->args[i];
		argv[c->nargs + 1] = NULL;
		execve(argv[0], argv, (char *const *)env);
		snprintf(err, sizeof(err), "exec /nested/entrylab: %s", strerror(errno));
		why = err;
	}
	if (write(errfd, why, strlen(why)) < 0)
		_exit(126);
	_exit(127);
}

/* Every process but us, gone; the records file emptied. */
static void reap_all(struct agent *a)
{
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	if (ftruncate(a->records, 0) < 0)
		say("emptying the records file failed: %s", strerror(errno));
}

static void run_command(struct agent *a)
{
	static const char *env[NESTED_MAX_ENV + 8];
	char seq[64], up[64], errbuf[512];
	struct nested_ack ack = {.seq = a->cmd->ping ? a->seq : ++a->seq, .uptime_ms = uptime_ms(),
				 .ready_ms = a->ready_ms};
	struct nested_exit ex = {0};
	unsigned ne = 0;
	int errp[2], status = 0;
	off_t shipped = 0;
	bool done = false;
	pid_t pid;
	ssize_t n;

	env[ne++] = "PATH=/bin";
	env[ne++] = "HOME=/";
	env[ne++] = "TERM=dumb";
	env[ne++] = NESTED_ENV_INNER "=1";
	env[ne++] = NESTED_ENV_OUTPUT "=" NESTED_INNER_RECORDS;
	snprintf(seq, sizeof(seq), EL_NESTED_ENV_RUNNER_SEQ "=%llu", (unsigned long long)ack.seq);
	snprintf(up, sizeof(up), EL_NESTED_ENV_RUNNER_UPTIME "=%.3f", (double)ack.uptime_ms / 1e3);
	env[ne++] = seq;
	env[ne++] = up;
	for (unsigned i = 0; i < a->cmd->nenv; i++)
		env[ne++] = a->cmd->env[i];
	env[ne] = NULL;

	/* The data ports: open on the host's side before a byte goes there. */
	for (int i = 0; i < 100 && !(host_connected(a->port[PORT_OUT]) &&
				     host_connected(a->port[PORT_ERR])); i++)
		usleep(20000);
	if (!send_mark(a, PORT_CTL, NESTED_MARK_BEGIN) ||
	    !send_frame(a, NESTED_F_ACK, &ack, sizeof(ack)))
		return;
	if (a->cmd->ping)
		return;
	if (!host_connected(a->port[PORT_OUT]) || !host_connected(a->port[PORT_ERR])) {
		send_fail(a, "the host did not open the stdout and stderr ports within 2 s");
		return;
	}
	if (!send_mark(a, PORT_OUT, NESTED_MARK_BEGIN) || !send_mark(a, PORT_ERR, NESTED_MARK_BEGIN))
		return;
	if (a->kmsg >= 0)
		lseek(a->kmsg, 0, SEEK_END);
	if (pipe2(errp, O_CLOEXEC) < 0) {
		send_fail(a, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0)
		child_run(a, errp[1], env);
	close(errp[1]);
	if (pid < 0) {
		close(errp[0]);
		send_fail(a, "fork: %s", strerror(errno));
		return;
	}
	/* EOF: exec'd.  Text: the set-up failed and it said why. */
	n = read(errp[0], errbuf, sizeof(errbuf) - 1);
	close(errp[0]);
	if (n > 0) {
		errbuf[n] = 0;
		waitpid(pid, NULL, 0);
		send_fail(a, "%s", errbuf);
		return;
	}
	while (!done && !a->gone) {
		struct pollfd p[2] = {{.fd = a->port[PORT_CTL], .events = POLLIN},
				      {.fd = a->kmsg, .events = POLLIN}};
		pid_t w;

		poll(p, a->kmsg >= 0 ? 2 : 1, AGENT_POLL_MS);
		/* The host hung up, or sent something while we run: it is not listening. */
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			a->gone = true;
			break;
		}
		if (p[1].revents & POLLIN)
			ship_kmsg(a);
		ship_records(a, &shipped);
		while ((w = waitpid(-1, &status, WNOHANG)) > 0)
			if (w == pid)
				done = true;
	}
	if (a->gone) {
		say("the host went away during command %llu: stopped it",
		    (unsigned long long)ack.seq);
		reap_all(a);
		return;
	}
	/* Its descendants too: then nothing writes to the ports but us. */
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	ship_kmsg(a);
	ship_records(a, &shipped);
	if (WIFSIGNALED(status))
		ex = (struct nested_exit){.how = NESTED_KILLED, .value = WTERMSIG(status)};
	else
		ex = (struct nested_exit){.how = NESTED_EXITED, .value = WEXITSTATUS(status)};
	/*
	 * EXIT first, on the port the host always reads; then the end marks,
	 * which wait for a data port the host may not be reading (its stdout
	 * stalled): it reads again once it has given up on that reader.
	 */
	if (send_frame(a, NESTED_F_EXIT, &ex, sizeof(ex)) && send_mark(a, PORT_OUT, NESTED_MARK_END))
		send_mark(a, PORT_ERR, NESTED_MARK_END);
	reap_all(a);
}

int nested_agent_main(void)
{
	static struct nested_cmd cmd;
	struct agent a = {.kmsg = -1, .cmd = &cmd};
	char err[300];
	sigset_t io;

	if (getpid() != 1) {
		fprintf(stderr, "entrylab: __nested-agent runs only as PID 1 of the nested "
				"runner's VM (harness/nested/init)\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	sigprocmask(SIG_BLOCK, &io, NULL);
	a.idle_s = cmdline_idle(&a.once);
	for (int i = 0; i < NPORTS; i++) {
		/*
		 * virtio_console adds the ports and names them as QEMU's control
		 * messages arrive, after insmod has returned: wait for them.
		 */
		for (int t = 0; t < AGENT_PORT_WAIT_MS / 10 && (a.port[i] = open_port(port_names[i])) < 0;
		     t++)
			usleep(10000);
		if (a.port[i] < 0) {
			say("no virtio port named %s after %d s: %s", port_names[i],
			    AGENT_PORT_WAIT_MS / 1000, strerror(errno));
			power_off();
		}
	}
	/* Woken by SIGIO when the host opens the control port or writes to it. */
	fcntl(a.port[PORT_CTL], F_SETOWN, 1);
	fcntl(a.port[PORT_CTL], F_SETFL, fcntl(a.port[PORT_CTL], F_GETFL) | O_ASYNC);
	a.kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (mkdir("/run", 0755) < 0 && errno != EEXIST)
		say("mkdir /run: %s", strerror(errno));
	if (mkdir(AGENT_ROOT, 0755) < 0 && errno != EEXIST)
		say("mkdir " AGENT_ROOT ": %s", strerror(errno));
	a.records = open(AGENT_RECORDS, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (a.records < 0) {
		say("cannot create " AGENT_RECORDS ": %s", strerror(errno));
		power_off();
	}
	a.ready_ms = uptime_ms();
	say("ready after %.2f s; idle time %u s", (double)a.ready_ms / 1e3, a.idle_s);
	for (;;) {
		double idle_deadline = a.idle_s ? (double)uptime_ms() / 1e3 + a.idle_s : 0;
		bool served;

		if (!read_request(&a, idle_deadline, err, sizeof(err))) {
			say("idle for %u s: powering off", a.idle_s);
			power_off();
		}
		a.nonce = cmd.nonce;
		a.gone = false;
		served = !err[0] && !cmd.ping;
		if (err[0]) {
			if (send_mark(&a, PORT_CTL, NESTED_MARK_BEGIN))
				send_fail(&a, "a malformed request: %s", err);
		} else {
			run_command(&a);
		}
		/* Its strings are not needed any more. */
		memmove(a.in.p, a.in.p + a.in_used, a.in.len - a.in_used);
		a.in.len -= a.in_used;
		a.in_used = 0;
		if (served && a.once) {
			/* One command (the cold path): the host reads the end, then QEMU goes. */
			for (int i = 0; i < 100 && host_connected(a.port[PORT_CTL]); i++)
				usleep(50000);
			power_off();
		}
	}
}
