/*
 * Running the matrix: each boot in a child process that does exactly what
 * `entrylab run` does for one repeat (request_programs + record_run) and hands its
 * record back through a pipe.  A VMM crash then costs one run, not the
 * matrix; the parent tags each record with its experiment, variant and run,
 * appends it at once (a matrix that dies keeps what completed) and only then
 * prints its progress line.  Under --trace the child runs trace_prepare +
 * trace_once (`entrylab trace`) instead, and QEMU refusing a -cpu is a skip.
 * SIGINT/SIGTERM (matrix_signal.c) kill the boot in flight: it is abandoned
 * (no record) and the loop stops.  Runs marked in m->done (--resume) are
 * not run again.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host_io.h"
#include "matrix.h"
#include "matrix_run.h"
#include "bochs.h"
#include "nested.h"
#include "record.h"
#include "record_out.h"
#include "status.h"
#include "trace.h"

/* Everything one boot of a variant holds: its request, spec and programs; the trace job. */
struct boot_ctx {
	struct el_run_request req;
	struct el_run_spec spec;
	struct el_programs prog;
	struct el_trace_job job;
};

/*
 * The variant's request finished and its programs prepared as `run` does,
 * or as `trace` does under --trace.  no_job: a -cpu QEMU never gives (a
 * skip) still gets its record, so the trace's own checks are left out.
 */
static int boot_prepare(const struct matrix *m, const struct matrix_variant *mv,
			struct boot_ctx *b, bool no_job)
{
	int rc;

	memset(b, 0, sizeof(*b));
	b->req = mv->req;
	if ((rc = request_finish("matrix", &b->req, &b->spec)) ||
	    (rc = request_programs("matrix", &b->req, &b->prog, &b->spec)))
		return rc;
	if (!m->o.trace || no_job)
		return 0;
	b->job = (struct el_trace_job){.req = &b->req, .spec = &b->spec, .prog = &b->prog};
	return trace_prepare(&b->job);
}

/* A record for a run that did not boot (skipped, or its process died). */
struct json_object *matrix_record_without_run(const struct matrix *m,
					      const struct matrix_variant *mv,
					      const struct el_host_info *host,
					      enum el_run_status status, const char *detail)
{
	struct el_run_result *res = calloc(1, sizeof(*res));
	struct json_object *rec = NULL;
	struct boot_ctx *b = malloc(sizeof(*b));

	if (res && b && !boot_prepare(m, mv, b, true)) {
		res->status = status;
		snprintf(res->detail, sizeof(res->detail), "%s", detail);
		rec = record_build(&b->req, &b->spec, host, res);
	}
	if (b)
		programs_free(&b->prog);
	free(b);
	free(res);
	return rec;
}

/* One boot as `entrylab run` does it, or one trace as `entrylab trace` does. */
static struct json_object *boot(const struct matrix *m, const struct matrix_variant *mv,
				const struct el_host_info *host, int *code)
{
	struct el_trace_result out;
	struct el_run_result res;
	struct boot_ctx b;
	struct json_object *rec = NULL;

	if ((*code = boot_prepare(m, mv, &b, false)))
		goto done;
	if (m->o.bochs && strcmp(b.req.cpu_spec, "host")) {
		/* Bochs's CPU is --cpu-model's: a variant's --cpu axis cannot be honoured */
		memset(&res, 0, sizeof(res));
		res.status = EL_RUN_UNSUPPORTED;
		snprintf(res.detail, sizeof(res.detail), "--cpu %s with --engine bochs: the CPU is "
			 "--cpu-model %s; run this variant on KVM", b.req.cpu_spec, m->o.cpu_model);
		{
			struct el_host_info h = *host;

			h.kvm = "bochs";
			rec = record_build(&b.req, &b.spec, &h, &res);
		}
	} else if (m->o.bochs) {
		rec = bochs_record_run(&b.req, &b.spec, host, m->o.cpu_model, &res);
	} else {
		rec = m->o.trace ? trace_once(&b.job, &res, &out)
				 : record_run(&b.req, &b.spec, host, &res);
	}
	*code = record_exit_code(&res);
	if (m->o.verbose)
		report_problem(stderr, &res);
	if (m->o.trace)
		trace_result_free(&out);
	else
		el_run_result_free(&res);
done:
	trace_job_free(&b.job);
	programs_free(&b.prog);
	return rec;
}

static int child_run(const struct matrix *m, const struct matrix_variant *mv,
		     const struct el_host_info *host, int fd)
{
	struct json_object *rec;
	const char *text;
	int code, out = m->o.verbose ? 2 : open("/dev/null", O_WRONLY | O_CLOEXEC);

	matrix_signal_child_default();
	/* The program's own stdout would break up the table: stderr with -v, else dropped. */
	if (out >= 0)
		dup2(out, 1);
	if (!(rec = boot(m, mv, host, &code)))
		return code ? code : EL_EXIT_VMM;
	text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!io_write_all(fd, text, strlen(text)))
		code = EL_EXIT_VMM;
	return code;
}

static bool record_ok(struct json_object *rec)
{
	struct json_object *v;

	return json_object_object_get_ex(rec, "status", &v) &&
	       !strcmp(json_object_get_string(v), "ok");
}

/*
 * One boot in a child.  NULL with *code 0 when a stop signal abandoned it:
 * a boot that did not end well while we were stopping may have been cut
 * short by the signal, so it is not a result (--resume runs it again).
 */
static struct json_object *run_one(const struct matrix *m, const struct matrix_variant *mv,
				   const struct el_host_info *host, int *code)
{
	struct json_object *rec = NULL;
	char detail[256], *text;
	int p[2], st = 0;
	pid_t pid;

	*code = EL_EXIT_VMM;
	fflush(NULL);
	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		snprintf(detail, sizeof(detail), "could not start the run: %s", strerror(errno));
		return matrix_record_without_run(m, mv, host, EL_RUN_VMM_ERROR, detail);
	}
	if (pid == 0) {
		close(p[0]);
		_exit(child_run(m, mv, host, p[1]));
	}
	matrix_signal_child(pid);
	close(p[1]);
	text = io_read_fd(p[0], NULL);
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	matrix_signal_child(0);
	rec = text && *text ? json_tokener_parse(text) : NULL;
	free(text);
	if (matrix_signal_stopped() && !(rec && WIFEXITED(st) && record_ok(rec))) {
		json_object_put(rec);
		*code = 0;
		return NULL;
	}
	if (rec && WIFEXITED(st)) {
		*code = WEXITSTATUS(st);
		return rec;
	}
	json_object_put(rec);
	if (WIFSIGNALED(st))
		snprintf(detail, sizeof(detail), "the process running this boot died of signal %d "
			 "(%s) before handing back a record; rerun the variant with -v",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(detail, sizeof(detail), "the process running this boot exited with %d "
			 "without a record (messages above)", WEXITSTATUS(st));
	return matrix_record_without_run(m, mv, host, EL_RUN_VMM_ERROR, detail);
}

void matrix_tag(struct json_object *rec, const struct matrix *m, const struct matrix_variant *mv,
		unsigned run)
{
	const struct exp_variant *ev = &m->exp.variants[mv->index];
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(m->exp.name));
	json_object_object_add(o, "id", json_object_new_string(m->id));
	json_object_object_add(o, "variant", json_object_new_string(ev->name));
	json_object_object_add(o, "run", run ? json_object_new_int((int)run) : NULL);
	json_object_object_add(o, "runs", json_object_new_int((int)m->repeat));
	json_object_object_add(o, "baseline",
			       json_object_new_string(m->exp.variants[ev->baseline].name));
	json_object_object_add(o, "seed", json_object_new_string(m->exp.seed));
	json_object_object_add(o, "file", json_object_new_string(m->path));
	if (!run)
		json_object_object_add(o, "skipped", json_object_new_boolean(1));
	json_object_object_add(rec, "experiment", o);
}

/*
 * Under --trace, a run QEMU refused as unsupported (a +feat -cpu max lacks,
 * under `enforce`) is that variant's prerequisite failing: a skip, as a
 * feature KVM lacks is for run.  True after relabelling the record so.
 */
static bool trace_skipped(const struct matrix *m, struct json_object *rec)
{
	struct json_object *v;
	char detail[512];

	if (!m->o.trace || !json_object_object_get_ex(rec, "status", &v) ||
	    strcmp(json_object_get_string(v), "unsupported"))
		return false;
	snprintf(detail, sizeof(detail), "skipped: %s",
		 json_object_object_get_ex(rec, "detail", &v) ? json_object_get_string(v)
							     : "QEMU TCG cannot run it");
	json_object_object_add(rec, "detail", json_object_new_string(detail));
	return true;
}

/* The record on disk, then (only then) its progress line.  0, or -1 when it is lost. */
static int keep(struct json_object *rec, struct record_out *out, struct matrix_progress *p)
{
	int rc = record_out_append(out, rec);

	if (!rc)
		matrix_progress_record(p, rec);
	json_object_put(rec);
	return rc;
}

static int stop_writing(void)
{
	fprintf(stderr, "entrylab matrix: stopping: records cannot be written (above)\n");
	return EL_EXIT_VMM;
}

/* The runs of one selected variant that are not done yet; 0, or how the matrix stops. */
static int exec_variant(struct matrix *m, unsigned i, const struct el_host_info *host,
			struct record_out *out, struct matrix_progress *p, int *exit_code)
{
	const struct matrix_variant *mv = &m->v[i];
	struct json_object *rec;

	if (mv->skip[0]) {
		char detail[sizeof(mv->skip) + 16];

		if (matrix_done(m, i, 0))
			return 0;
		snprintf(detail, sizeof(detail), "skipped: %s", mv->skip);
		rec = matrix_record_without_run(m, mv, host, EL_RUN_UNSUPPORTED, detail);
		if (!rec)
			return EL_EXIT_VMM;
		matrix_tag(rec, m, mv, 0);
		return keep(rec, out, p) ? stop_writing() : 0;
	}
	for (unsigned run = 1; run <= m->repeat; run++) {
		int code;

		if (matrix_signal_stopped())
			return 128 + matrix_signal_stopped();
		if (matrix_done(m, i, run))
			continue;
		rec = run_one(m, mv, host, &code);
		if (!rec)
			return matrix_signal_stopped() ? 128 + matrix_signal_stopped() : EL_EXIT_VMM;
		if (trace_skipped(m, rec)) {
			matrix_tag(rec, m, mv, 0);
			return keep(rec, out, p) ? stop_writing() : 0;
		}
		matrix_tag(rec, m, mv, run);
		if (keep(rec, out, p))
			return stop_writing();
		if (code && !*exit_code)
			*exit_code = code;
	}
	return 0;
}

int matrix_exec(struct matrix *m, struct record_out *out)
{
	struct matrix_progress p;
	struct el_host_info host;
	int exit_code = 0, rc = 0;

	if (m->o.trace) {
		host_info_get(&host, NULL);
		host.kvm = "tcg";
	} else {
		host_info_collect(&host, nested_is_inner());
	}
	matrix_progress_init(&p, m);
	for (unsigned i = 0; i < m->nv && !rc; i++)
		rc = exec_variant(m, i, &host, out, &p, &exit_code);
	if (rc)
		return rc;
	/* Nothing could run on this host: every variant skipped. */
	return !p.total && m->nv ? EL_EXIT_UNSUPPORTED : exit_code;
}
