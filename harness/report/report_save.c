/*
 * report_save(): the matrix directory's summary.csv (every metric, with a
 * header), one SVG chart per headline metric, and report.md (which links
 * the charts), in that order.  report_write_file(): temporary file, fsync,
 * rename, so each file appears whole or not at all.
 */
#include "report_save.h"

#include <errno.h>
#include <json-c/json.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "report_md.h"

int report_write_file(const char *dir, const char *name, const char *data, size_t len, char *err,
		      size_t errlen)
{
	char tmp[4096], path[4096];
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name) >= (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		snprintf(err, errlen, "report directory path too long: %s; use a shorter one", dir);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s; %s", tmp, strerror(errno),
			 errno == ENOENT ? "create the directory first" : "make the directory writable");
		return -1;
	}
	if (!io_write_all(fd, data, len) || fsync(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s; check free space", tmp,
			 errno ? strerror(errno) : "short write");
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s; check free space", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Renders one file with print into memory, then writes it whole. */
struct save_job {
	const struct report *r;
	const struct report_meta *meta;
	const struct report_headline *h;
	unsigned nh;
	const struct metric *m;
	unsigned nm;
	const struct report_files *files;
};

static void print_csv(FILE *f, const struct save_job *j)
{
	report_csv_header(f, ",");
	report_csv_rows(f, j->r, ",", j->m, j->nm);
}

static void print_md(FILE *f, const struct save_job *j)
{
	report_md(f, j->r, j->meta, j->h, j->nh, j->files);
}

static int save_one(const char *dir, const char *name,
		    void (*print)(FILE *, const struct save_job *), const struct save_job *j,
		    const struct report_headline *h, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f) {
		snprintf(err, errlen, "out of memory writing %s", name);
		return -1;
	}
	if (print)
		print(f, j);
	else
		report_svg(f, j->r, j->meta, h);
	if (fclose(f)) {
		free(buf);
		snprintf(err, errlen, "out of memory writing %s", name);
		return -1;
	}
	rc = report_write_file(dir, name, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* Whether m has no value in any group for want of the quantity (not for want of a PMU). */
static bool never_measured(const struct report *r, const struct metric *m)
{
	for (unsigned g = 0; g < r->n; g++) {
		struct report_cell c;

		report_cell_of(r, g, m, &c);
		if (c.runs && c.status != MS_MISSING)
			return false;
	}
	return true;
}

/*
 * The headline metrics: meta's, less those no record can have (a timed
 * metric of `matrix --trace` records); else the report's first columns
 * that have values.
 */
static unsigned headline_of(const struct report *r, const struct report_meta *meta,
			    struct report_headline *h)
{
	struct report_headline all[REPORT_MAX_HEADLINE];
	char err[256];
	int n = meta && meta->headline ? report_headline_parse(meta->headline, NULL, 0, all,
							       REPORT_MAX_HEADLINE, err,
							       sizeof(err))
				       : -1;
	unsigned k = 0;
	bool runs = false, traces = report_all_traces(r);

	for (unsigned g = 0; g < r->n; g++)
		runs = runs || json_object_array_length(r->g[g].runs);
	/* Without a single run, the table keeps its columns and says why it is empty. */
	for (int i = 0; i < n; i++)
		/* a trace report: only what a trace counts exactly (metric_traced) */
		if ((!runs || !never_measured(r, &all[i].m)) && (!traces || metric_traced(&all[i].m)))
			h[k++] = all[i];
	for (unsigned i = 0; i < r->nm && !k; i++) {
		if (never_measured(r, &r->m[i]))
			continue;
		h[k].m = r->m[i];
		snprintf(h[k].unit, sizeof(h[k].unit), "%s", r->m[i].label);
		k++;
		if (i + 1 < r->nm && !never_measured(r, &r->m[i + 1]) &&
		    r->m[i].num.base == MB_TRACE_KERNEL) {
			/* traces: kernel and user instructions side by side */
			h[k].m = r->m[i + 1];
			snprintf(h[k].unit, sizeof(h[k].unit), "%s", r->m[i + 1].label);
			k++;
		}
	}
	return k;
}

unsigned report_columns(const struct report *r, const struct report_meta *meta,
			struct report_headline *h, unsigned *nh, struct metric *m, unsigned max)
{
	struct metric hm[REPORT_MAX_HEADLINE + REPORT_MAX_METRICS];
	unsigned nhm;

	*nh = headline_of(r, meta, h);
	for (nhm = 0; nhm < *nh; nhm++)
		hm[nhm] = h[nhm].m;
	/* A report whose columns were not chosen yet: the default ones. */
	if (!r->nm)
		nhm += (unsigned)metric_defaults(hm + nhm, REPORT_MAX_METRICS, false);
	return report_all_metrics(r, hm, nhm, m, max);
}

void report_chart_names(const struct report_meta *meta, const struct report_headline *h,
			unsigned nh, struct report_files *files)
{
	for (unsigned i = 0; i < nh; i++) {
		report_svg_name(meta, &h[i], files->charts[i], sizeof(files->charts[i]));
		/* two headline metrics shown in one unit: the second chart gets -2.svg */
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(files->charts[k], files->charts[i])) {
				char *dot = strrchr(files->charts[i], '.');

				snprintf(dot, sizeof(files->charts[i]) - (size_t)(dot - files->charts[i]),
					 "-%u.svg", i + 1);
				break;
			}
	}
	files->ncharts = nh;
}

int report_save(const struct report *r, const char *dir, const struct report_meta *meta, char *err,
		size_t errlen)
{
	struct metric m[2 * REPORT_MAX_METRICS];
	struct report_headline h[REPORT_MAX_HEADLINE];
	struct report_files files = {0};
	struct save_job j = {.r = r, .meta = meta, .h = h, .m = m, .files = &files};

	j.nm = report_columns(r, meta, h, &j.nh, m, 2 * REPORT_MAX_METRICS);
	if (save_one(dir, "summary.csv", print_csv, &j, NULL, err, errlen))
		return -1;
	report_chart_names(meta, h, j.nh, &files);
	for (unsigned i = 0; i < j.nh; i++)
		if (save_one(dir, files.charts[i], NULL, &j, &h[i], err, errlen))
			return -1;
	return save_one(dir, "report.md", print_md, &j, NULL, err, errlen);
}
