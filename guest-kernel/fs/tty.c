/*
 * The console terminal (tty.h).
 */
#include "fs/tty.h"
#include "lib/string.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TCSBRK 0x5409
#define TCXONC 0x540a
#define TCFLSH 0x540b
#define TIOCSCTTY 0x540e
#define TIOCGPGRP 0x540f
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429

#define TOSTOP 0x100u
#define NCCS 19

/* Linux's struct termios (the kernel's, as TCGETS passes it). */
struct ktermios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[NCCS];
};
_Static_assert(sizeof(struct ktermios) == 36, "struct termios of x86-64 Linux");

struct kwinsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

static struct {
	int session, pgrp;
	struct ktermios t;
	struct kwinsize ws; /* 0 x 0, as a serial console starts */
} console = {
	/* Linux's tty_std_termios: ICRNL|IXON, OPOST|ONLCR, B38400|CS8|CREAD|HUPCL, and ISIG|
	 * ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN, with INIT_C_CC. */
	.t = {0x500, 0x5, 0xbf, 0x8a3b, 0,
	      {3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0, 0, 0}},
};

void tty_console_set_session(int sid, int pgrp)
{
	console.session = sid;
	console.pgrp = pgrp;
}

int tty_console_session(void)
{
	return console.session;
}

int tty_console_pgrp(void)
{
	return console.pgrp;
}

static bool sig_refused(const struct task *t, int sig)
{
	return (t->sig.blocked & BIT(sig - 1)) || t->sighand->action[sig - 1].handler == SIG_IGN;
}

/*
 * Linux __tty_check_change: a background process of the terminal's session
 * gets sig for its whole group and the call restarts once it is continued;
 * a refused SIGTTOU lets it go on, a refused SIGTTIN or an orphaned group
 * is -EIO.
 */
static long check_change(int sig)
{
	struct task *t = current;
	int pgid = proc_job(t)->pgid;
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL};

	if (!jobctl_has_ctty(t) || !console.pgrp || pgid == console.pgrp)
		return 0;
	if (sig_refused(t, sig))
		return sig == SIGTTOU ? 0 : -EIO;
	if (jobctl_pgrp_orphaned(pgid))
		return -EIO;
	jobctl_kill_pgrp(pgid, sig, &info, false);
	return -ERESTARTSYS;
}

long tty_check_io(bool write)
{
	if (write && !(console.t.c_lflag & TOSTOP))
		return 0;
	return check_change(write ? SIGTTOU : SIGTTIN);
}

/* Linux disassociate_ctty for a session leader: the foreground group gets SIGHUP and SIGCONT. */
static void hangup_session(void)
{
	struct ksiginfo info = {.code = SI_KERNEL};

	if (console.pgrp > 0) {
		info.signo = SIGHUP;
		jobctl_kill_pgrp(console.pgrp, SIGHUP, &info, false);
		info.signo = SIGCONT;
		jobctl_kill_pgrp(console.pgrp, SIGCONT, &info, false);
	}
	console.session = console.pgrp = 0;
}

static long set_ctty(uint64_t arg)
{
	struct task *t = current;
	struct task_job *j = proc_job(t);

	if (j->sid == t->tgid && console.session == j->sid)
		return 0; /* already its terminal */
	if (j->sid != t->tgid || jobctl_has_ctty(t))
		return -EPERM;
	if (console.session && console.session != j->sid &&
	    !(arg == 1 && cred_capable(t)))
		return -EPERM;
	console.session = j->sid;
	console.pgrp = j->pgid;
	j->no_ctty = false;
	return 0;
}

static long set_pgrp(uint64_t arg)
{
	int pgrp;
	long err = check_change(SIGTTOU);

	if (err)
		return err;
	if (!jobctl_has_ctty(current))
		return -ENOTTY;
	if (copy_from_user(&pgrp, arg, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (!jobctl_pgrp_exists(pgrp, 0))
		return -ESRCH;
	if (!jobctl_pgrp_exists(pgrp, console.session))
		return -EPERM;
	console.pgrp = pgrp;
	return 0;
}

long tty_ioctl(struct file *f, uint64_t cmd, uint64_t arg)
{
	struct ktermios nt;
	struct kwinsize ws;
	long err;

	(void)f;
	switch (cmd) {
	case TCGETS:
		return copy_to_user(arg, &console.t, sizeof(console.t));
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		err = check_change(SIGTTOU);
		if (err)
			return err;
		if (copy_from_user(&nt, arg, sizeof(nt)))
			return -EFAULT;
		console.t = nt;
		return 0;
	case TIOCGWINSZ:
		return copy_to_user(arg, &console.ws, sizeof(console.ws));
	case TIOCSWINSZ:
		/* Linux sends SIGWINCH to the foreground group when the size changes. */
		if (copy_from_user(&ws, arg, sizeof(ws)))
			return -EFAULT;
		if (memcmp(&ws, &console.ws, sizeof(ws)) && console.pgrp > 0) {
			struct ksiginfo info = {.signo = SIGWINCH, .code = SI_KERNEL};

			jobctl_kill_pgrp(console.pgrp, SIGWINCH, &info, false);
		}
		console.ws = ws;
		return 0;
	case TIOCGPGRP:
		if (!jobctl_has_ctty(current))
			return -ENOTTY;
		return copy_to_user(arg, &console.pgrp, sizeof(console.pgrp));
	case TIOCSPGRP:
		return set_pgrp(arg);
	case TIOCGSID:
		if (!jobctl_has_ctty(current) || !console.session)
			return -ENOTTY;
		return copy_to_user(arg, &console.session, sizeof(console.session));
	case TIOCSCTTY:
		return set_ctty(arg);
	case TIOCNOTTY:
		if (!jobctl_has_ctty(current))
			return -ENOTTY;
		if (proc_job(current)->sid == current->tgid)
			hangup_session();
		else
			proc_job(current)->no_ctty = true;
		return 0;
	case FIONREAD:
	case TIOCOUTQ:
		/* Nothing to read ever; output is written through at once. */
		return copy_to_user(arg, &(int){0}, sizeof(int));
	case TCSBRK:
	case TCXONC:
	case TCFLSH:
		return 0;
	default:
		return -ENOTTY;
	}
}
