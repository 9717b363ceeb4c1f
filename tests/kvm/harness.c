/*
 * Implementation of the black-box helpers (see harness.h).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "harness.h"

static char *slurp_fd(int fd)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	return buf;
}

void proc_run(struct el_proc *p, const char *const argv[])
{
	char outname[] = "/tmp/el-out-XXXXXX", errname[] = "/tmp/el-err-XXXXXX";
	int out = mkstemp(outname), err = mkstemp(errname), st;
	pid_t pid;

	cr_assert(out >= 0 && err >= 0, "mkstemp failed");
	unlink(outname);
	unlink(errname);
	pid = fork();
	cr_assert(pid >= 0, "fork failed");
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	cr_assert(waitpid(pid, &st, 0) == pid);
	p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	p->out = slurp_fd(out);
	p->err = slurp_fd(err);
	close(out);
	close(err);
	cr_log_info("exit %d\n--- stdout\n%s--- stderr\n%s", p->status, p->out, p->err);
}

void proc_free(struct el_proc *p)
{
	free(p->out);
	free(p->err);
}

void entrylab(struct el_proc *p, const char *first, ...)
{
	const char *argv[64];
	int n = 0;
	va_list ap;

	argv[n++] = EL_ENTRYLAB;
	argv[n++] = first;
	va_start(ap, first);
	while (n < 63 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	proc_run(p, argv);
}

const char *tmp_output(const char *name)
{
	static char dir[64], path[160];

	if (!dir[0]) {
		strcpy(dir, "/tmp/el-test-XXXXXX");
		cr_assert(mkdtemp(dir));
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	return path;
}

int record_count(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

struct json_object *last_record(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *last = NULL;
	size_t cap = 0;
	struct json_object *o;

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0) {
		free(last);
		last = strdup(line);
	}
	fclose(f);
	free(line);
	o = last ? json_tokener_parse(last) : NULL;
	free(last);
	return o;
}

struct json_object *jget(struct json_object *o, const char *path)
{
	char buf[256], *save, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, tok, &o))
			return NULL;
	return o;
}

const char *jstr(struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	return v ? json_object_get_string(v) : NULL;
}

bool nested_mode(void)
{
	static struct engine_probe p; /* the facts hold paths: off the stack */

	engine_probe(&(struct engine_request){0}, &p);
	return p.d.kind == ENGINE_NESTED;
}

const char *el_variant_pti(int i)
{
	return i & EL_VARIANT_PTI ? "on" : "off";
}

const char *el_variant_ret(int i)
{
	return i & EL_VARIANT_SYSRET ? "sysret" : "iret";
}

const char *el_variant_irq(int i)
{
	return i & EL_VARIANT_TRAMPOLINE ? "trampoline" : "direct";
}

void el_variant_append(int i, char *buf, size_t len)
{
	snprintf(buf, len, "pti=%s entry.ret=%s entry.irq_return=%s", el_variant_pti(i),
		 el_variant_ret(i), el_variant_irq(i));
}

bool in_path(const char *exe)
{
	char buf[512];
	const char *path = getenv("PATH");

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, exe);
		if (n && access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}
