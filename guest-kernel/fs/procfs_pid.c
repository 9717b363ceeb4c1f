/*
 * /proc/PID's text files (proc(5)): cmdline, environ, comm, stat, statm,
 * status, mounts.  Figures this kernel does not keep print as Linux prints
 * them for a task that has none: page-fault and CPU-time counts are 0.
 * Identity (credentials, process group, session, controlling terminal)
 * comes from proc_task_ids() alone.
 */
#include "fs/procfs_priv.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "fs/tty.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/signal_frame.h"
#include "sys/errno.h"
#include "time/time.h"

#define CAP_FULL \
	((uint64_t)0x000001ffffffffff) /* root's capability sets (41 capabilities, Linux 6.1) */

struct proc_ids {
	int pgrp, session, tty_nr, tpgid;
	unsigned uid, gid; /* real ids, for stat's owner */
	const struct cred *cred;
};

#define CONSOLE_TTY_NR 0x501 /* tty_nr of /dev/console: major 5, minor 1 */

/* The ids a process shows: its credentials (cred.h), group, session and terminal (jobctl.h). */
static void proc_task_ids(const struct task *t, struct proc_ids *ids)
{
	const struct task_job *j = proc_job(t);
	bool ctty = jobctl_has_ctty(t);

	*ids = (struct proc_ids){.pgrp = j->pgid, .session = j->sid,
				 .tty_nr = ctty ? CONSOLE_TTY_NR : 0,
				 .tpgid = ctty && tty_console_pgrp() ? tty_console_pgrp() : -1,
				 .uid = t->cred.uid, .gid = t->cred.gid, .cred = &t->cred};
}

static char state_letter(const struct task *t)
{
	switch (t->state) {
	case TASK_RUNNABLE: return 'R';
	case TASK_BLOCKED: return 'S';
	case TASK_BLOCKED_NOINTR: return 'D';
	case TASK_STOPPED: return t->tracer ? 't' : 'T';
	case TASK_ZOMBIE: return 'Z';
	default: return 'X';
	}
}

static const char *state_name(char c)
{
	switch (c) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'D': return "D (disk sleep)";
	case 'T': return "T (stopped)";
	case 't': return "t (tracing stop)";
	case 'Z': return "Z (zombie)";
	default: return "X (dead)";
	}
}

static unsigned thread_count(const struct task *t)
{
	unsigned n = 0;

	for (unsigned i = 0; i < task_slots; i++)
		n += task_table[i].tgid == t->tgid && task_table[i].state != TASK_UNUSED &&
		     task_table[i].state != TASK_ZOMBIE && task_table[i].state != TASK_DEAD;
	return n ? n : 1;
}

/* The address space's sizes, in pages, as Linux's task_statm/task_mem count them. */
struct mem_sizes {
	uint64_t total, data, stack, exe, rss;
	uint64_t start_code, end_code, start_data, end_data;
};

static void mem_sizes(const struct mm *mm, struct mem_sizes *s)
{
	*s = (struct mem_sizes){0};
	if (!mm)
		return;
	for (unsigned i = 0; i < mm->vmas.n; i++) {
		const struct vma *v = &mm->vmas.v[i];
		uint64_t pages = (v->end - v->start) / PAGE_SIZE;

		s->total += pages;
		if (v->kind == VMA_STACK)
			s->stack += pages;
		else if ((v->prot & VMA_W) && v->kind != VMA_ANON_SHARED &&
			 v->kind != VMA_FILE_SHARED && v->kind != VMA_SPECIAL)
			s->data += pages;
		if (v->kind != VMA_FILE || v->file != mm->exe_file)
			continue;
		if (v->prot & VMA_X) {
			s->exe += pages;
			if (!s->start_code)
				s->start_code = v->start;
			s->end_code = v->end;
		} else if (v->prot & VMA_W) {
			if (!s->start_data)
				s->start_data = v->start;
			s->end_data = v->end;
		}
	}
	s->rss = mm->rss;
}

/* Copies [from, to) of mm's user memory into b (cmdline, environ); stops at a hole. */
static void user_bytes(struct pbuf *b, struct mm *mm, uint64_t from, uint64_t to)
{
	while (mm && from < to) {
		const char *p = mm_access_page(mm, from, false);
		uint64_t n = PAGE_SIZE - (from & (PAGE_SIZE - 1));

		if (!p)
			return;
		if (n > to - from)
			n = to - from;
		pb_bytes(b, p, n);
		from += n;
	}
}

static int gen_cmdline(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)node;
	if (t->mm)
		user_bytes(b, t->mm, t->mm->arg_start, t->mm->arg_end);
	return 0;
}

static int gen_environ(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)node;
	if (t->mm)
		user_bytes(b, t->mm, t->mm->env_start, t->mm->env_end);
	return 0;
}

static int gen_comm(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)node;
	pb_printf(b, "%s\n", t->comm);
	return 0;
}

/* Signals whose action is SIG_IGN (ign) or a handler (caught). */
static void sig_actions(const struct task *t, uint64_t *ign, uint64_t *caught)
{
	*ign = *caught = 0;
	if (!t->sighand)
		return;
	for (unsigned s = 1; s <= NSIG; s++) {
		uint64_t h = t->sighand->action[s - 1].handler, bit = 1ull << (s - 1);

		if (h == SIG_IGN)
			*ign |= bit;
		else if (h != SIG_DFL)
			*caught |= bit;
	}
}

static int gen_stat(struct pbuf *b, struct task *t, const struct inode *node)
{
	struct proc_ids ids;
	struct mem_sizes m;
	uint64_t ign, caught, pending = t->sig.pending.set;
	const struct mm *mm = t->mm;

	(void)node;
	proc_task_ids(t, &ids);
	mem_sizes(mm, &m);
	sig_actions(t, &ign, &caught);
	if (t->sighand)
		pending |= t->sighand->shared.set;
	/* 1-13: pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt */
	pb_printf(b, "%d (%s) %c %d %d %d %d %d 0 0 0 0 0 ", t->pid, t->comm, state_letter(t),
		  t->parent ? t->parent->tgid : 0, ids.pgrp, ids.session, ids.tty_nr, ids.tpgid);
	/* 14-25: utime stime cutime cstime priority nice num_threads itrealvalue starttime vsize rss rsslim */
	pb_printf(b, "0 0 0 0 20 0 %u 0 %lu %lu %lu 18446744073709551615 ", thread_count(t),
		  t->start_ns / NSEC_PER_TICK, m.total * PAGE_SIZE, m.rss);
	/* 26-37: startcode endcode startstack kstkesp kstkeip signal blocked sigignore sigcatch wchan nswap cnswap */
	pb_printf(b, "%lu %lu %lu 0 0 %lu %lu %lu %lu 0 0 0 ", m.start_code, m.end_code,
		  mm ? mm->start_stack : 0, pending & 0xffffffffu, t->sig.blocked & 0xffffffffu,
		  ign & 0xffffffffu, caught & 0xffffffffu);
	/* 38-52: exit_signal processor rt_priority policy blkio guest_time cguest_time
	 * start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	pb_printf(b, "%d 0 0 0 0 0 0 %lu %lu %lu %lu %lu %lu %lu %d\n", t->exit_signal,
		  m.start_data, m.end_data, mm ? mm->start_brk : 0, mm ? mm->arg_start : 0,
		  mm ? mm->arg_end : 0, mm ? mm->env_start : 0, mm ? mm->env_end : 0,
		  t->state == TASK_ZOMBIE ? t->exit_code : 0);
	return 0;
}

static int gen_statm(struct pbuf *b, struct task *t, const struct inode *node)
{
	struct mem_sizes m;

	(void)node;
	mem_sizes(t->mm, &m);
	/* size resident shared text lib data dt; shared (file-backed resident) is not counted */
	pb_printf(b, "%lu %lu 0 %lu 0 %lu 0\n", m.total, m.rss, m.exe, m.data + m.stack);
	return 0;
}

static unsigned pending_count(const struct sigpending_set *s)
{
	unsigned n = s->nq;

	for (uint64_t set = s->set; set; set &= set - 1)
		n++;
	return n;
}

static int gen_status(struct pbuf *b, struct task *t, const struct inode *node)
{
	struct proc_ids ids;
	struct mem_sizes m;
	uint64_t ign, caught, kb = PAGE_SIZE >> 10;
	char state = state_letter(t);
	int ppid = t->parent ? t->parent->tgid : 0;

	(void)node;
	proc_task_ids(t, &ids);
	mem_sizes(t->mm, &m);
	sig_actions(t, &ign, &caught);
	pb_printf(b, "Name:\t%s\nUmask:\t%04o\nState:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\n",
		  t->comm, t->umask, state_name(state), t->tgid, t->pid);
	pb_printf(b, "PPid:\t%d\nTracerPid:\t%d\n", ppid, t->tracer ? t->tracer->tgid : 0);
	pb_printf(b, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n", ids.cred->uid,
		  ids.cred->euid, ids.cred->suid, ids.cred->fsuid, ids.cred->gid, ids.cred->egid,
		  ids.cred->sgid, ids.cred->fsgid);
	pb_printf(b, "FDSize:\t%d\nGroups:\t", t->files ? FD_MAX : 0);
	for (uint32_t i = 0; i < ids.cred->ngroups; i++)
		pb_printf(b, "%u ", ids.cred->groups[i]);
	pb_printf(b, "\nNStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		  t->tgid, t->pid, ids.pgrp, ids.session);
	if (t->mm) {
		/* VmPeak/VmHWM are not tracked: left out rather than guessed. */
		pb_printf(b, "VmSize:\t%8lu kB\nVmLck:\t%8u kB\nVmPin:\t%8u kB\nVmRSS:\t%8lu kB\n",
			  m.total * kb, 0u, 0u, m.rss * kb);
		pb_printf(b, "VmData:\t%8lu kB\nVmStk:\t%8lu kB\nVmExe:\t%8lu kB\nVmLib:\t%8u kB\n",
			  m.data * kb, m.stack * kb, m.exe * kb, 0u);
		pb_printf(b, "VmPTE:\t%8lu kB\nVmSwap:\t%8u kB\n", t->mm->table_pages * kb, 0u);
	}
	pb_printf(b, "Threads:\t%u\nSigQ:\t%u/%u\n", thread_count(t),
		  pending_count(&t->sig.pending) +
			  (t->sighand ? pending_count(&t->sighand->shared) : 0),
		  SIGQUEUE_EXTRA);
	pb_printf(b,
		  "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\nSigIgn:\t%016lx\nSigCgt:\t%016lx\n",
		  t->sig.pending.set, t->sighand ? t->sighand->shared.set : 0, t->sig.blocked, ign,
		  caught);
	pb_printf(b,
		  "CapInh:\t%016lx\nCapPrm:\t%016lx\nCapEff:\t%016lx\nCapBnd:\t%016lx\nCapAmb:\t%016lx\n",
		  (uint64_t)0, ids.cred->euid ? 0 : CAP_FULL, ids.cred->euid ? 0 : CAP_FULL, CAP_FULL,
		  (uint64_t)0);
	pb_printf(b, "NoNewPrivs:\t%d\nSeccomp:\t0\nSeccomp_filters:\t0\n", t->no_new_privs);
	pb_printf(b,
		  "Cpus_allowed:\t1\nCpus_allowed_list:\t0\nMems_allowed:\t1\nMems_allowed_list:\t0\n");
	return 0;
}

/* The file systems as the kernel has them (vfs.c): Linux's /proc/mounts lines. */
static int gen_mounts(struct pbuf *b, struct task *t, const struct inode *node)
{
	(void)node;
	(void)t;
	pb_printf(b, "rootfs / rootfs rw 0 0\n"
		     "devtmpfs /dev devtmpfs rw,relatime,mode=755 0 0\n"
		     "proc /proc proc rw,relatime 0 0\n"
		     "tmpfs /tmp tmpfs rw,relatime 0 0\n");
	return 0;
}

PROC_SNAPSHOT(, proc_cmdline_ops, gen_cmdline);
PROC_SNAPSHOT(, proc_environ_ops, gen_environ);
PROC_SNAPSHOT(, proc_comm_ops, gen_comm);
PROC_SNAPSHOT(, proc_stat_ops, gen_stat);
PROC_SNAPSHOT(, proc_statm_ops, gen_statm);
PROC_SNAPSHOT(, proc_status_ops, gen_status);
PROC_SNAPSHOT(, proc_mounts_ops, gen_mounts);
