/*
 * The program: forked, its counters opened on it by /init (pid = the
 * child) and the group leader passed to it over a socket (SCM_RIGHTS), since
 * the group exists only once the child does.  The child waits for it, then
 * execs.  A whole program (region=whole) gets no group: its counters are
 * opened alone, inherited, enabled by its execve; its TSC window runs from
 * the child's last instruction before execve to /init's first after waitpid.
 */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "com1.h"
#include "perf.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

int linit_region_page(char *err, size_t errlen)
{
	int fd = memfd_create("entrylab-region", 0);

	if (fd < 0 || ftruncate(fd, EL_LINUX_REGION_SIZE) ||
	    (fd != EL_LINUX_REGION_FD && dup2(fd, EL_LINUX_REGION_FD) < 0)) {
		snprintf(err, errlen, "the region page (memfd at descriptor %d): %s",
			 EL_LINUX_REGION_FD, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fd != EL_LINUX_REGION_FD)
		close(fd);
	return 0;
}

/* One byte, and the descriptor fd unless it is -1. */
static int send_fd(int sock, int fd)
{
	char byte = fd >= 0;
	struct iovec iov = {&byte, 1};
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* The descriptor send_fd sent; -1 for none, -2 when the message failed. */
static int recv_fd(int sock)
{
	char byte;
	struct iovec iov = {&byte, 1};
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -2;
	if (!byte)
		return -1;
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -2;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * In the child: the group leader at EL_LINUX_PERF_FD, the environment, exec.
 * With whole (region=whole) the TSC just before the execve, into the page
 * /init shares with it, and execve's errno there should it return.
 */
__attribute__((noreturn)) static void child(int sock, char **argv, struct linit_whole *whole)
{
	char *envp[] = {"HOME=/", "PATH=/bin", "TERM=linux",
			EL_LINUX_ENV_REGION "=" STR(EL_LINUX_REGION_FD),
			EL_LINUX_ENV_PERF "=" STR(EL_LINUX_PERF_FD), NULL};
	int leader = recv_fd(sock);

	linit_com1_release();
	if (leader == -2) {
		fprintf(stderr, "entrylab /init: the program's perf group did not arrive: %s\n",
			strerror(errno));
		_exit(127);
	}
	if (leader < 0)
		envp[4] = NULL;
	else if (dup2(leader, EL_LINUX_PERF_FD) < 0 || close(leader))
		_exit(127);
	if (whole) {
		/* A store first: the shared page's fault is taken before the TSC is read. */
		whole->exec_errno = 0;
		whole->tsc_exec = rdtsc_ordered();
	}
	execve(EL_LINUX_PROGRAM, argv, envp);
	if (whole)
		whole->exec_errno = errno ? errno : EINVAL;
	fprintf(stderr, "entrylab /init: cannot run %s: %s\n", EL_LINUX_PROGRAM, strerror(errno));
	_exit(127);
}

static void status_of(int ws, int *status)
{
	*status = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

static int wait_status(pid_t pid, int *status)
{
	int ws;

	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	status_of(ws, status);
	return 0;
}

/*
 * waitpid for a whole program: wait4 as a bare SYSCALL, the global label
 * EL_LINUX_WHOLE_END_SYMBOL on the instruction after it (the first /init
 * runs once the wait returned: where a trace's whole-program window
 * closes), then the TSC.  One copy only (noinline; a second would be a
 * duplicate symbol).  /init installs no signal handler, so no -EINTR
 * comes back and the label runs once.  wait4's result.
 */
__attribute__((noinline)) static long wait_whole(pid_t pid, int *ws, uint64_t *tsc)
{
	register long r10 __asm__("r10") = 0; /* no rusage */
	long ret;
	uint64_t lo, hi; /* RDTSC zero-extends EAX and EDX */

	__asm__ volatile("syscall\n"
			 ".globl " EL_LINUX_WHOLE_END_SYMBOL "\n"
			 EL_LINUX_WHOLE_END_SYMBOL ":\n\t"
			 "mov %%rax, %[ret]\n\t"
			 "lfence\n\t"
			 "rdtsc"
			 : [ret] "=&r"(ret), "=a"(lo), "=d"(hi), "+r"(r10)
			 : "1"((long)SYS_wait4), "D"((long)pid), "S"(ws), "2"(0L)
			 : "rcx", "r11", "memory");
	*tsc = (uint64_t)hi << 32 | lo;
	return ret;
}

/* The page the child and /init share across its execve (region=whole); NULL with err. */
static struct linit_whole *whole_page(char *err, size_t errlen)
{
	void *p = mmap(NULL, sizeof(struct linit_whole), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		snprintf(err, errlen, "the page shared with the program (region=whole): %s",
			 strerror(errno));
		return NULL;
	}
	return p;
}

/* Waits for the program; whole: as wait_whole, the TSC into w->tsc_wait.  0, or -1 with err. */
static int wait_program(pid_t pid, struct linit_whole *w, int *status, char *err,
			size_t errlen)
{
	uint64_t tsc;
	long ret;
	int ws;

	if (!w) {
		if (!wait_status(pid, status))
			return 0;
		snprintf(err, errlen, "waiting for the program: %s", strerror(errno));
		return -1;
	}
	while ((ret = wait_whole(pid, &ws, &tsc)) == -EINTR)
		;
	if (ret != pid) {
		snprintf(err, errlen, "waiting for the program: %s", strerror((int)-ret));
		return -1;
	}
	w->tsc_wait = tsc;
	status_of(ws, status);
	return 0;
}

int linit_run_program(const struct linit_conf *conf, char **argv, struct linit_run *r,
		      char *err, size_t errlen)
{
	int whole = conf->region == EL_REGION_SCOPE_WHOLE;
	struct linit_whole *w = NULL;
	struct linit_perf perf;
	int sv[2], rc, faults_fd = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->scope = conf->region;
	err[0] = '\0';
	if (linit_region_page(err, errlen) || (whole && !(w = whole_page(err, errlen))))
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "socketpair for the perf group: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], argv, w);
	}
	close(sv[1]);
	/* Page faults: perf's software event, on every kernel with perf (else unknown). */
	if (whole && !conf->no_faults)
		faults_fd = linit_perf_open_faults_whole(pid);
	rc = whole ? linit_perf_open_whole(&perf, conf->events, conf->nr_events, pid, err, errlen)
		   : linit_perf_open(&perf, conf->events, conf->nr_events, pid, err, errlen);
	if (rc || send_fd(sv[0], linit_perf_leader(&perf))) {
		if (!err[0])
			snprintf(err, errlen, "handing the perf group to the program: %s",
				 strerror(errno));
		kill(pid, SIGKILL);
		wait_status(pid, &r->status);
		return -1;
	}
	close(sv[0]);
	if (wait_program(pid, w, &r->status, err, errlen) || linit_perf_read(&perf, err, errlen))
		return -1;
	memcpy(r->c, perf.c, sizeof(r->c));
	linit_perf_close(&perf);
	if (w && faults_fd >= 0) {
		w->faults_counted = !linit_perf_read_faults(faults_fd, &w->page_faults);
		close(faults_fd);
	}
	if (w) {
		r->whole = *w;
		munmap(w, sizeof(*w));
	}
	if (pread(EL_LINUX_REGION_FD, &r->page, sizeof(r->page), 0) != sizeof(r->page)) {
		snprintf(err, errlen, "reading the region page: %s", strerror(errno));
		return -1;
	}
	close(EL_LINUX_REGION_FD);
	return 0;
}
