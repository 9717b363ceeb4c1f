/*
 * One fleet task on its node (fleet.h): what the node is (the record's
 * "fleet" object: results/README.md), whether it is the CPU its class
 * expects, the CPU the vCPU is pinned to, and the task's record file.
 * The facts are read, never guessed: what a node does not expose (no
 * cpufreq, no SMT control) is null.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet.h"
#include "host_info.h"
#include "host_io.h"

/* The first line of a sysfs file, trimmed; NULL when there is none. */
static struct json_object *sys_line(const char *path)
{
	char buf[128];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	return n ? json_object_new_string(buf) : NULL;
}

/* CPU 0's microcode revision: sysfs, else /proc/cpuinfo's "microcode" line. */
static struct json_object *microcode(void)
{
	struct json_object *o = sys_line("/sys/devices/system/cpu/cpu0/microcode/version");
	char line[256];
	FILE *f;

	if (o || !(f = fopen("/proc/cpuinfo", "r")))
		return o;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "microcode", 9) && colon) {
			colon[1 + strspn(colon + 1, " \t") + strcspn(colon + 1 + strspn(colon + 1,
											" \t"), "\n")] = '\0';
			o = json_object_new_string(colon + 1 + strspn(colon + 1, " \t"));
			break;
		}
		if (line[0] == '\n')
			break; /* CPU 0's block only */
	}
	fclose(f);
	return o;
}

static struct json_object *env_str(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? json_object_new_string(v) : NULL;
}

struct json_object *fleet_node_json(const struct fleet *f, unsigned task, int pinned_cpu)
{
	struct json_object *o = json_object_new_object();
	char host[256] = "";
	bool slurm = getenv("SLURM_JOB_ID") != NULL;
	bool parallel = !slurm && getenv("PARALLEL_SEQ") != NULL;

	gethostname(host, sizeof(host) - 1);
	json_object_object_add(o, "task", json_object_new_int((int)task));
	json_object_object_add(o, "class", json_object_new_string(f->c[f->t[task].cls].name));
	json_object_object_add(o, "host", json_object_new_string(host));
	json_object_object_add(o, "engine", json_object_new_string(
			       slurm ? "slurm" : parallel ? "parallel" : "none"));
	/* Slurm: the array's job id and the index; parallel: its sequence number and slot */
	json_object_object_add(o, "job", env_str(slurm ? (getenv("SLURM_ARRAY_JOB_ID")
							   ? "SLURM_ARRAY_JOB_ID"
							   : "SLURM_JOB_ID")
						    : "PARALLEL_SEQ"));
	json_object_object_add(o, "job_task", env_str(slurm ? "SLURM_ARRAY_TASK_ID"
							    : "PARALLEL_JOBSLOT"));
	json_object_object_add(o, "microcode", microcode());
	json_object_object_add(o, "smt", sys_line("/sys/devices/system/cpu/smt/control"));
	json_object_object_add(o, "governor", sys_line("/sys/devices/system/cpu/cpu0/cpufreq/"
						       "scaling_governor"));
	json_object_object_add(o, "pinned_cpu", pinned_cpu >= 0 ? json_object_new_int(pinned_cpu)
							      : NULL);
	return o;
}

bool fleet_expect_ok(const struct fleet *f, unsigned c, char *why, size_t len)
{
	const struct fleet_class *fc = &f->c[c];
	struct exp_host want = {0};
	struct el_host_info hi;

	if (!fc->expect[0])
		return true;
	host_info_get(&hi, NULL);
	if (experiment_parse_expect(fc->expect, &want)) {
		snprintf(why, len, "class %s's expect = %s is not VENDOR FAMILY MODEL; fix it in "
			 "the experiment file and emit the fleet again", fc->name, fc->expect);
		return false;
	}
	if (!strcmp(want.vendor, hi.vendor) && want.family == hi.family && want.model == hi.model)
		return true;
	snprintf(why, len, "this node's CPU is %s %u %u (%s), class %s expects %s; the task is "
		 "not counted in the class: give the class a constraint that selects only such "
		 "nodes (node features per CPU model), or correct its expect", hi.vendor,
		 hi.family, hi.model, hi.cpu_model, fc->name, fc->expect);
	return false;
}

int fleet_pin_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

void fleet_part_path(const struct fleet *f, unsigned task, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/task-%u.json", f->dir, FLEET_PARTS, task);
}

int fleet_part_write(const struct fleet *f, unsigned task, struct json_object *rec)
{
	const char *text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
	char path[4200], tmp[4600], host[128] = "";
	int fd, rc = -1;

	fleet_part_path(f, task, path, sizeof(path));
	gethostname(host, sizeof(host) - 1);
	/* a name of this node and process: two copies of one task never share it (NFS) */
	snprintf(tmp, sizeof(tmp), "%s/%s/.task-%u.%.60s.%d.tmp", f->dir, FLEET_PARTS, task,
		 host[strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789.-")] ? "host" : host, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && io_write_all(fd, text, strlen(text)) && io_write_all(fd, "\n", 1) &&
	    fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		rc = rename(tmp, path);
	}
	if (rc) {
		fprintf(stderr, "entrylab matrix: --run-one: the record was not kept: %s: %s; "
				"check %s/%s is writable and has space\n", fd >= 0 ? tmp : path,
			strerror(errno), f->dir, FLEET_PARTS);
		if (fd >= 0)
			close(fd);
		unlink(tmp);
	}
	return rc ? -1 : 0;
}
