/*
 * The nested runner's VMs (nested_priv.h, struct nested_runner): a warm one
 * taken from a slot, or started there, or a cold one for this command only.
 *
 * Warm runners live in $ENTRYLAB_NESTED_RUNNER_DIR, else
 * $XDG_RUNTIME_DIR/entrylab-nested, else /tmp/entrylab-nested-UID (mode
 * 0700, ours, or refused), under a key naming what the VM was built from
 * (this entrylab binary, base.cpio, the kernel, QEMU, the memory size):
 *
 *   KEY/N/lock      flock'd by the command using slot N, for its whole run
 *   KEY/N/pid       QEMU's pid
 *   KEY/N/{ctl,out,err}.sock   QEMU's ends of the three ports (nested_wire.h)
 *   KEY/N/console.log          the VM's console; KEY/N/qemu.log QEMU's own output
 *
 * A command takes the first slot whose lock is free (ENTRYLAB_NESTED_RUNNERS
 * slots, default one per CPU), or waits, saying so.  A slot whose QEMU is
 * gone is started again, and the command says so.  QEMU runs in its own
 * session, confined by its seccomp sandbox, and outlives the command; the
 * agent powers the VM off after ENTRYLAB_NESTED_IDLE seconds (default 600)
 * without a command.  Runners of another key (an older build) are stopped
 * when a new one starts, if idle.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array_size.h"
#include "cpio.h"
#include "host_io.h"
#include "nested.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "parse_num.h"
#include "qemu_spawn.h"
#include "status.h"

#define NESTED_QBOOT "/usr/share/qemu/qboot.rom"
#define RUNNERS_MAX 8
#define NESTED_RUN_AS "nobody"
#define IDLE_DEFAULT_S 600
#define COLD_IDLE_S 120

static const char *const sock_names[3] = {"ctl.sock", "out.sock", "err.sock"};
static const char *const port_names[3] = {NESTED_PORT_CTL, NESTED_PORT_OUT, NESTED_PORT_ERR};

/* A number from the environment in [0, max], else def. */
static unsigned env_uint(const char *name, unsigned def, unsigned max)
{
	const char *v = getenv(name);
	uint64_t n;

	return v && !el_parse_u64(v, 0, max, &n) ? (unsigned)n : def;
}

unsigned nested_runner_slots(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned def = cpus < 1 ? 1 : cpus > RUNNERS_MAX ? RUNNERS_MAX : (unsigned)cpus;
	unsigned n = env_uint("ENTRYLAB_NESTED_RUNNERS", def, RUNNERS_MAX);

	return n ? n : 1;
}

bool nested_runner_base(char *out, size_t cap, char *err, size_t errlen)
{
	const char *dir = getenv("ENTRYLAB_NESTED_RUNNER_DIR"), *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (dir && *dir)
		snprintf(out, cap, "%s", dir);
	else if (xdg && *xdg && xdg[0] == '/')
		snprintf(out, cap, "%s/entrylab-nested", xdg);
	else
		snprintf(out, cap, "/tmp/entrylab-nested-%u", (unsigned)geteuid());
	if (mkdir(out, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s; set ENTRYLAB_NESTED_RUNNER_DIR to a "
			 "writable directory", out, strerror(errno));
		return false;
	}
	if (lstat(out, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		snprintf(err, errlen, "%s is not a directory of ours with mode 0700 (a symlink, "
			 "another user's, or open to others); remove it or set "
			 "ENTRYLAB_NESTED_RUNNER_DIR", out);
		return false;
	}
	return true;
}

/* FNV-1a over what the VM is made of: a rebuilt entrylab or kernel is another key. */
static void runner_key(const struct nested_ready *ready, const char *memory, char out[17])
{
	const char *files[] = {"/proc/self/exe", ready->base, ready->kernel, ready->qemu_path};
	uint64_t h = 1469598103934665603ull;
	struct stat st;

	for (size_t i = 0; i < EL_ARRAY_SIZE(files); i++) {
		uint64_t v[5] = {0};

		if (stat(files[i], &st) == 0) {
			v[0] = st.st_dev;
			v[1] = st.st_ino;
			v[2] = (uint64_t)st.st_size;
			v[3] = (uint64_t)st.st_mtim.tv_sec;
			v[4] = (uint64_t)st.st_mtim.tv_nsec;
		}
		for (size_t b = 0; b < sizeof(v); b++)
			h = (h ^ ((const uint8_t *)v)[b]) * 1099511628211ull;
		for (const char *p = files[i]; *p; p++)
			h = (h ^ (uint8_t)*p) * 1099511628211ull;
	}
	for (const char *p = memory; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	h ^= NESTED_WIRE_VERSION;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static void path_in(char *out, size_t cap, const char *dir, const char *name)
{
	snprintf(out, cap, "%s/%s", dir, name);
}

/* The QEMU pid a slot names, if that process is QEMU for this very slot. */
static pid_t slot_qemu(const char *dir)
{
	char p[NESTED_PATH_MAX + 32], cmd[8192];
	size_t len = 0;
	long pid = 0;
	FILE *f;
	int fd;
	ssize_t n;

	path_in(p, sizeof(p), dir, "pid");
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 1)
		return 0;
	snprintf(p, sizeof(p), "/proc/%ld/cmdline", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (len < sizeof(cmd) - 1 && (n = read(fd, cmd + len, sizeof(cmd) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	for (size_t i = 0; i < len; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	cmd[len] = 0;
	/* A pid reused by another process does not name our socket path. */
	path_in(p, sizeof(p), dir, "ctl.sock");
	return strstr(cmd, p) ? (pid_t)pid : 0;
}

static void slot_clear(const char *dir)
{
	static const char *const files[] = {"ctl.sock", "out.sock", "err.sock", "pid", NULL};
	char p[NESTED_PATH_MAX + 32];

	for (const char *const *f = files; *f; f++) {
		path_in(p, sizeof(p), dir, *f);
		unlink(p);
	}
}

/* Stops a slot's QEMU (it is ours: slot_qemu checked); waits for it briefly. */
static void slot_kill(const char *dir)
{
	pid_t pid = slot_qemu(dir);

	if (pid > 0) {
		kill(pid, SIGKILL);
		for (int i = 0; i < 100 && kill(pid, 0) == 0; i++) {
			waitpid(pid, NULL, WNOHANG);
			usleep(10000);
		}
	}
	slot_clear(dir);
}

static int connect_one(const char *dir, const char *name)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd;

	if ((size_t)snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", dir, name) >=
	    sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* All three ports, or none. */
static bool runner_connect(struct nested_runner *rn)
{
	for (int i = 0; i < 3; i++) {
		rn->fd[i] = connect_one(rn->dir, sock_names[i]);
		if (rn->fd[i] < 0) {
			int e = errno;

			for (int k = 0; k < i; k++) {
				close(rn->fd[k]);
				rn->fd[k] = -1;
			}
			errno = e;
			return false;
		}
	}
	return true;
}

/* The runner's initramfs: base.cpio, then this binary as /nested/entrylab. */
static int runner_initrd(const struct nested_ready *ready)
{
	struct el_cpio c;
	int fd;

	el_cpio_init(&c);
	el_cpio_add_dir(&c, "nested", 0755);
	el_cpio_add_host_file(&c, "nested/entrylab", 0755, "/proc/self/exe");
	if (el_cpio_finish(&c)) {
		fprintf(stderr, "entrylab: nested runner: %s\n", c.error);
		el_cpio_free(&c);
		return -1;
	}
	fd = nested_initrd_memfd(ready->base, c.buf, c.len);
	el_cpio_free(&c);
	return fd;
}

enum { FD_INITRD = 3, FD_CONSOLE };

static int runner_spawn(struct nested_runner *rn, const struct nested_runner_opts *o)
{
	char append[512], initrd[32], serial[NESTED_PATH_MAX + 16], sock[3][NESTED_PATH_MAX + 64];
	char port[3][64], logp[NESTED_PATH_MAX + 32], err[512];
	const char *argv[64];
	struct qemu_fd_map map[4];
	unsigned n = 0, nmap = 0;
	bool not_found;
	int initrd_fd, log_fd, rc;

	/* Cold: one command; a VM whose command never comes (we died) goes after COLD_IDLE_S. */
	snprintf(append, sizeof(append), "%s entrylab.idle=%u%s", NESTED_KERNEL_APPEND,
		 rn->warm ? env_uint("ENTRYLAB_NESTED_IDLE", IDLE_DEFAULT_S, 86400) : COLD_IDLE_S,
		 rn->warm ? "" : " entrylab.once");
	snprintf(initrd, sizeof(initrd), "/dev/fd/%d", FD_INITRD);
	path_in(logp, sizeof(logp), rn->dir, "console.log");
	if (snprintf(serial, sizeof(serial), "file:%s", logp) >= (int)sizeof(serial))
		return EL_EXIT_VMM;
	argv[n++] = o->ready->qemu;
	for (const char *const *f = (const char *const[]){
		     "-nodefaults", "-no-user-config", "-display", "none", "-machine", "q35",
		     "-accel", "tcg", "-cpu", "max", "-smp", "1", "-no-reboot", "-sandbox",
		     "on,obsolete=deny,elevateprivileges=allow,spawn=deny,resourcecontrol=deny",
		     "-device", "virtio-serial-pci,max_ports=4", NULL};
	     *f; f++)
		argv[n++] = *f;
	/*
	 * As root: QEMU gives up root for nobody once its files and sockets are
	 * open (its sandbox must then allow the set*id calls: once root is
	 * gone, none can take it back).
	 */
	if (geteuid() == 0) {
		argv[n++] = "-runas";
		argv[n++] = NESTED_RUN_AS;
	}
	argv[n++] = "-m";
	argv[n++] = o->memory;
	argv[n++] = "-kernel";
	argv[n++] = o->ready->kernel;
	argv[n++] = "-initrd";
	argv[n++] = initrd;
	if (access(NESTED_QBOOT, R_OK) == 0) {
		/* qboot starts a PVH kernel ~0.2 s sooner than SeaBIOS under TCG */
		argv[n++] = "-bios";
		argv[n++] = NESTED_QBOOT;
	}
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n++] = "-serial";
	argv[n++] = serial;
	for (int i = 0; i < 3; i++) {
		snprintf(sock[i], sizeof(sock[i]), "socket,id=p%d,path=%s/%s,server=on,wait=off", i,
			 rn->dir, sock_names[i]);
		snprintf(port[i], sizeof(port[i]), "virtserialport,chardev=p%d,name=%s", i,
			 port_names[i]);
		argv[n++] = "-chardev";
		argv[n++] = sock[i];
		argv[n++] = "-device";
		argv[n++] = port[i];
	}
	argv[n] = NULL;

	slot_clear(rn->dir);
	initrd_fd = runner_initrd(o->ready);
	if (initrd_fd < 0)
		return EL_EXIT_VMM;
	path_in(logp, sizeof(logp), rn->dir, "qemu.log");
	log_fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log_fd < 0) {
		fprintf(stderr, "entrylab: nested runner: cannot create %s: %s\n", logp,
			strerror(errno));
		close(initrd_fd);
		return EL_EXIT_VMM;
	}
	map[nmap++] = (struct qemu_fd_map){initrd_fd, FD_INITRD};
	map[nmap++] = (struct qemu_fd_map){log_fd, 1};
	map[nmap++] = (struct qemu_fd_map){log_fd, 2};
	rc = qemu_spawn_ex(argv, map, nmap, rn->warm ? QEMU_SPAWN_DETACH : 0, &rn->pid, &not_found,
			   err, sizeof(err));
	close(initrd_fd);
	close(log_fd);
	if (rc) {
		fprintf(stderr, "entrylab: nested runner: %s; install QEMU (apt-get install "
				"qemu-system-x86) or set ENTRYLAB_QEMU to its path\n", err);
		return EL_EXIT_VMM;
	}
	path_in(logp, sizeof(logp), rn->dir, "pid");
	{
		char text[32];
		int len = snprintf(text, sizeof(text), "%ld\n", (long)rn->pid);

		if (io_write_new_file(logp, text, (size_t)len, err, sizeof(err)))
			fprintf(stderr, "entrylab: nested runner: %s\n", err);
	}
	return 0;
}

/* The last lines of a file, to stderr (the console of a VM that failed). */
void nested_runner_print_tail(const struct nested_runner *rn, const char *name, int lines)
{
	char p[NESTED_PATH_MAX + 32], ebuf[128];
	size_t len, start;
	int seen = 0;
	char *text;

	path_in(p, sizeof(p), rn->dir, name);
	text = io_read_file(p, 16u << 20, &len, ebuf, sizeof(ebuf));
	if (!text || !len) {
		free(text);
		return;
	}
	start = len;
	while (start > 0 && seen <= lines)
		seen += text[--start] == '\n';
	fprintf(stderr, "last lines of %s:\n", p);
	nested_print_text(text + start + (start > 0), len - start - (start > 0));
	free(text);
}

/* The VM up: QEMU started, the ports connected, a PING answered within the boot allowance. */
static int runner_boot(struct nested_runner *rn, const struct nested_runner_opts *o)
{
	const double t0 = nested_now_s();
	int rc = runner_spawn(rn, o);

	if (rc)
		return rc;
	rn->started = true;
	/* QEMU makes its sockets as it starts, before the guest runs. */
	while (!runner_connect(rn)) {
		int status;

		if ((rn->warm ? kill(rn->pid, 0) < 0 : waitpid(rn->pid, &status, WNOHANG) == rn->pid) ||
		    nested_now_s() - t0 > 10) {
			fprintf(stderr, "entrylab: nested runner: QEMU (pid %ld) did not open its "
					"ports (%s)\n", (long)rn->pid, strerror(errno));
			nested_runner_print_tail(rn, "qemu.log", 20);
			return EL_EXIT_VMM;
		}
		if (o->stop && *o->stop)
			return 128 + *o->stop;
		usleep(5000);
	}
	rc = nested_session_ping(rn, o->boot_timeout_s, o->stop);
	if (rc) {
		if (rc < 128)
			nested_runner_print_tail(rn, "console.log", 40);
		return rc;
	}
	return 0;
}

/* Stops idle runners of other keys (older builds): they would only wait out their idle time. */
static void reap_other_keys(const char *base, const char *key, bool verbose)
{
	DIR *d = opendir(base);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char kdir[NESTED_PATH_MAX], sdir[NESTED_PATH_MAX + 300], lock[NESTED_PATH_MAX + 320];
		bool all_idle = true;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, key) || strlen(e->d_name) != 16)
			continue;
		snprintf(kdir, sizeof(kdir), "%s/%s", base, e->d_name);
		for (unsigned s = 0; s < RUNNERS_MAX; s++) {
			int fd;

			snprintf(sdir, sizeof(sdir), "%s/%u", kdir, s);
			snprintf(lock, sizeof(lock), "%s/lock", sdir);
			fd = open(lock, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				if (verbose && slot_qemu(sdir) > 0)
					fprintf(stderr, "entrylab: nested runner: stopped the idle "
							"runner of an older build (%s)\n", sdir);
				slot_kill(sdir);
				unlink(lock);
				rmdir(sdir);
			} else {
				all_idle = false;
			}
			close(fd);
		}
		if (all_idle)
			rmdir(kdir);
	}
	if (d)
		closedir(d);
}

/* The first free slot's lock, or -1; waits (saying so once) while all are taken. */
static int take_slot(struct nested_runner *rn, const char *kdir, unsigned slots,
		     const volatile sig_atomic_t *stop, int *stopped)
{
	bool told = false;

	for (;;) {
		for (unsigned s = 0; s < slots; s++) {
			char lock[NESTED_PATH_MAX + 64];
			int fd;

			if (snprintf(rn->dir, sizeof(rn->dir), "%s/%u", kdir, s) >= (int)sizeof(rn->dir))
				return -1;
			if (mkdir(rn->dir, 0700) < 0 && errno != EEXIST)
				return -1;
			snprintf(lock, sizeof(lock), "%s/lock", rn->dir);
			fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			if (fd < 0)
				return -1;
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				rn->slot = s;
				return fd;
			}
			close(fd);
		}
		if (!told) {
			fprintf(stderr, "entrylab: nested runner: all %u warm runners are busy with "
					"other commands; waiting for one (ENTRYLAB_NESTED_RUNNERS "
					"sets how many)\n", slots);
			told = true;
		}
		if (stop && *stop) {
			*stopped = *stop;
			return -1;
		}
		usleep(20000);
	}
}

int nested_runner_get(struct nested_runner *rn, const struct nested_runner_opts *o)
{
	pid_t old;
	bool refused;
	const double t0 = nested_now_s();
	char base[NESTED_PATH_MAX - 64], kdir[NESTED_PATH_MAX], key[17], err[NESTED_PATH_MAX + 200];
	int stopped = 0, rc;

	memset(rn, 0, sizeof(*rn));
	rn->fd[0] = rn->fd[1] = rn->fd[2] = rn->lock = -1;
	rn->warm = o->warm;
	if (!rn->warm) {
		/* Cold: a private directory, a VM for this command only. */
		snprintf(rn->dir, sizeof(rn->dir), "%s/entrylab-nested-cold.XXXXXX",
			 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(rn->dir)) {
			fprintf(stderr, "entrylab: nested runner: mkdtemp %s: %s; set TMPDIR to a "
					"writable directory\n", rn->dir, strerror(errno));
			return EL_EXIT_VMM;
		}
		rc = runner_boot(rn, o);
		rn->setup_s = nested_now_s() - t0;
		if (rc)
			nested_runner_put(rn, true);
		return rc;
	}
	if (!nested_runner_base(base, sizeof(base), err, sizeof(err))) {
		fprintf(stderr, "entrylab: nested runner: %s\n", err);
		return EL_EXIT_VMM;
	}
	runner_key(o->ready, o->memory, key);
	snprintf(kdir, sizeof(kdir), "%s/%s", base, key);
	if (mkdir(kdir, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "entrylab: nested runner: mkdir %s: %s\n", kdir, strerror(errno));
		return EL_EXIT_VMM;
	}
	rn->lock = take_slot(rn, kdir, nested_runner_slots(), o->stop, &stopped);
	if (rn->lock < 0) {
		if (stopped)
			return 128 + stopped;
		fprintf(stderr, "entrylab: nested runner: cannot take a slot in %s: %s\n", kdir,
			strerror(errno));
		return EL_EXIT_VMM;
	}
	rn->wait_s = nested_now_s() - t0;
	if (runner_connect(rn)) {
		rn->pid = slot_qemu(rn->dir);
		rn->setup_s = nested_now_s() - t0 - rn->wait_s;
		return 0;
	}
	/*
	 * Nothing answers in this slot: its first use (no socket), or a runner
	 * that powered off when idle or was killed (a socket nobody listens on),
	 * or a QEMU that is there but does not listen.
	 */
	refused = errno == ECONNREFUSED;
	old = slot_qemu(rn->dir);
	path_in(err, sizeof(err), rn->dir, "pid");
	/* A pid file: a runner was here (QEMU removes its sockets when it powers off). */
	if (old > 0 || refused || access(err, F_OK) == 0) {
		fprintf(stderr, "entrylab: nested runner: the warm runner in slot %u %s; starting "
				"a new one\n", rn->slot,
			old > 0 ? "does not answer (its QEMU is still there: killed it)"
				: "is gone (powered off when idle, or killed)");
		slot_kill(rn->dir);
	}
	reap_other_keys(base, key, o->verbose);
	rc = runner_boot(rn, o);
	rn->setup_s = nested_now_s() - t0 - rn->wait_s;
	if (rc)
		nested_runner_put(rn, true);
	return rc;
}

void nested_runner_put(struct nested_runner *rn, bool broken)
{
	for (int i = 0; i < 3; i++) {
		if (rn->fd[i] >= 0)
			close(rn->fd[i]);
		rn->fd[i] = -1;
	}
	if (!rn->warm) {
		/* The agent powers off once we hang up; a VM that does not is killed. */
		int status;

		for (int i = 0; rn->pid > 0 && i < 300; i++) {
			if (waitpid(rn->pid, &status, WNOHANG) == rn->pid) {
				rn->pid = 0;
				break;
			}
			usleep(10000);
		}
		if (rn->pid > 0) {
			kill(rn->pid, SIGKILL);
			waitpid(rn->pid, &status, 0);
		}
		if (rn->dir[0]) {
			char p[NESTED_PATH_MAX + 32];

			slot_clear(rn->dir);
			path_in(p, sizeof(p), rn->dir, "console.log");
			unlink(p);
			path_in(p, sizeof(p), rn->dir, "qemu.log");
			unlink(p);
			rmdir(rn->dir);
		}
		return;
	}
	if (broken && rn->dir[0])
		slot_kill(rn->dir);
	if (rn->lock >= 0)
		close(rn->lock);
	rn->lock = -1;
}

/* ---- entrylab runner status|stop ---- */

int nested_runner_list(bool stop, FILE *out)
{
	char base[NESTED_PATH_MAX - 64], err[NESTED_PATH_MAX + 200];
	DIR *d;
	struct dirent *e;
	unsigned found = 0;

	if (!nested_runner_base(base, sizeof(base), err, sizeof(err))) {
		fprintf(stderr, "entrylab runner: %s\n", err);
		return EL_EXIT_VMM;
	}
	d = opendir(base);
	while (d && (e = readdir(d))) {
		char sdir[NESTED_PATH_MAX + 300], lock[NESTED_PATH_MAX + 320];

		if (e->d_name[0] == '.' || strlen(e->d_name) != 16)
			continue;
		for (unsigned s = 0; s < RUNNERS_MAX; s++) {
			pid_t pid;
			bool busy;
			int fd;

			snprintf(sdir, sizeof(sdir), "%s/%s/%u", base, e->d_name, s);
			snprintf(lock, sizeof(lock), "%s/lock", sdir);
			fd = open(lock, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			busy = flock(fd, LOCK_EX | LOCK_NB) < 0;
			pid = slot_qemu(sdir);
			if (pid > 0 || busy) {
				found++;
				if (stop && !busy) {
					slot_kill(sdir);
					fprintf(out, "stopped  %s  (QEMU pid %ld)\n", sdir, (long)pid);
				} else {
					fprintf(out, "%-8s %s  QEMU pid %ld\n", busy ? "busy" : "idle",
						sdir, (long)pid);
				}
			}
			close(fd);
		}
	}
	if (d)
		closedir(d);
	if (!found)
		fprintf(out, "no warm nested runner in %s\n", base);
	return 0;
}
