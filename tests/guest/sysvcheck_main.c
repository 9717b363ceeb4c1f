/* sysvcheck: the helpers and main (sysvcheck.h lists the areas). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysvcheck.h"

int sv_key(int base)
{
	return base + (int)(getpid() & 0xffff);
}

int sv_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

void sv_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* SIGUSR1 runs an empty handler with SA_RESTART: SysV IPC waits still end with EINTR. */
static void catch_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
}

int main(void)
{
	catch_usr1();
	sysvcheck_msg();
	sysvcheck_sem();
	return el_summary("sysvcheck");
}
