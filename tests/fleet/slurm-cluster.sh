#!/bin/sh
# A private one-node Slurm cluster on this machine, for the test suite.
#
#   slurm-cluster.sh start STATE_DIR [FEATURES]   FEATURES: default classA,classB
#   slurm-cluster.sh stop STATE_DIR
#   slurm-cluster.sh env STATE_DIR                prints SLURM_CONF=STATE_DIR/slurm.conf
#
# Everything the cluster owns lives in STATE_DIR: slurm.conf, an
# empty plugstack.conf, its own MUNGE key, socket, seed and log, slurmctld's
# state, slurmd's spool, the logs, and the PIDs this script started
# (STATE_DIR/munged.pid, slurmctld.pid, slurmd.pid).  Nothing in /etc is read
# for the cluster or edited, no systemd is needed, and two STATE_DIRs give two
# clusters that do not meet: each has its own ClusterName (from the directory),
# its own MUNGE socket (AuthInfo=socket=...) and its own two TCP ports on
# 127.0.0.1 (a free pair in 20000-29999, below the ephemeral range).
#
# start: stops whatever an earlier start left in STATE_DIR, writes the
#   configuration, starts munged, slurmctld and slurmd in the background
#   (in the foreground modes -F/-D, so $! is the daemon itself) and waits until
#   sinfo shows the node idle (30 s at most).  Prints one line on success.  On
#   failure it says why, prints the tail of the daemons' logs, stops what it
#   started and exits 1.  Slurm or MUNGE missing, or not root: "SKIP: ..."
#   and exit 77.
# stop: cancels the cluster's jobs, TERMs exactly the recorded PIDs (KILL
#   after 5 s), then KILLs any slurmstepd or job process of the cluster still
#   there (sweep_pids below).  Idempotent; a missing STATE_DIR is fine.
# env: prints the line to export so that Slurm's commands use this cluster.
#
# Settings chosen to work without systemd or cgroup delegation:
# proctrack/linuxproc, task/none, no accounting, select/cons_tres with CR_CPU
# (every CPU a slot: two one-CPU array tasks run at once on two CPUs).
set -eu

# Debian puts the daemons in /usr/sbin; a caller's PATH may not have it.
PATH=$PATH:/usr/sbin:/sbin
export PATH

me=slurm-cluster.sh

usage() {
	echo "usage: $me start STATE_DIR [FEATURES] | stop STATE_DIR | env STATE_DIR" >&2
	exit 2
}

# A few sub-second waits: sleep(1) from coreutils takes fractions.
nap() { sleep 0.1; }

# is_running PID NAME: PID is alive (not a zombie) and its command name
# (/proc/PID/comm: the name it was started by, e.g. slurmd, though Debian's
# /usr/sbin/slurmd links to slurmd-wlm) is NAME; NAME empty: any.  Checking
# the name guards against a recorded PID that another process now has.
is_running() {
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[ "$state" != Z ] || return 1
	[ -z "$2" ] && return 0
	comm=$(cat "/proc/$1/comm" 2>/dev/null) || return 1
	[ "$comm" = "$2" ]
}

# kill_wait NAME GRACE PID...: of the PIDs, those that run NAME (empty: any)
# get SIGTERM and GRACE tenths of a second to end, then SIGKILL; returns when
# they are gone (2 s more at most after the SIGKILL).
kill_wait() {
	name=$1
	grace=$2
	shift 2
	live=""
	for p in "$@"; do
		if is_running "$p" "$name"; then live="$live $p"; fi
	done
	[ -n "$live" ] || return 0
	ended="$ended $live"
	left=$live
	sig=TERM
	i=0
	while [ -n "$left" ] && [ $i -le $((grace + 20)) ]; do
		if [ $i -eq 0 ] || [ $i -eq "$grace" ]; then
			[ $i -lt "$grace" ] || sig=KILL
			# shellcheck disable=SC2086 # $left is a list of PIDs
			kill -$sig $left 2>/dev/null || true
		fi
		nap
		i=$((i + 1))
		live=$left
		left=""
		for p in $live; do
			if is_running "$p" ""; then left="$left $p"; fi
		done
	done
}

# stop_daemon NAME: stop the daemon whose PID start recorded in $dir/NAME.pid.
stop_daemon() {
	f="$dir/$1.pid"
	[ -f "$f" ] || return 0
	pid=$(cat "$f" 2>/dev/null || true)
	case "$pid" in
	'' | *[!0-9]*) ;;
	*) kill_wait "$1" 50 "$pid" ;;
	esac
	rm -f "$f"
}

# sweep_pids: processes of this cluster still there once its daemons are gone:
# - a job's processes: their environment has SLURM_CLUSTER_NAME=$cluster, a
#   name no other cluster has;
# - slurmstepd, one per job step, which outlives slurmd: it blanks its
#   environment, but keeps STATE_DIR/log/slurmd.log open (it logs there);
# - the daemons and their children (slurmctld's slurmscriptd), in case a PID
#   file was lost: start runs them with ENTRYLAB_SLURM_STATE=$dir.
# Prints the PIDs, one a line.
sweep_pids() {
	# One GNU grep reads every environment (-z: NUL-separated entries).
	grep -lzxF -e "ENTRYLAB_SLURM_STATE=$dir" -e "SLURM_CLUSTER_NAME=$cluster" \
		/proc/[0-9]*/environ 2>/dev/null |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$" || true
	{ grep -lx slurmstepd /proc/[0-9]*/comm 2>/dev/null || true; } | while read -r c; do
		d=${c%/comm}
		for fd in "$d"/fd/*; do
			if [ "$(readlink "$fd" 2>/dev/null)" = "$dir/log/slurmd.log" ]; then
				echo "${d#/proc/}"
				break
			fi
		done
	done
	return 0
}

# cancel_jobs: while slurmctld answers, cancel every job and wait (5 s at most)
# for them to leave the node, so no job process outlives the cluster.
cancel_jobs() {
	[ -f "$dir/slurm.conf" ] || return 0
	is_running "$(cat "$dir/slurmctld.pid" 2>/dev/null || echo x)" slurmctld || return 0
	ids=$(SLURM_CONF=$dir/slurm.conf timeout 5 squeue -h -o %A 2>/dev/null) || return 0
	[ -n "$ids" ] || return 0
	# shellcheck disable=SC2086 # $ids is a list of job ids
	SLURM_CONF=$dir/slurm.conf timeout 5 scancel $ids >/dev/null 2>&1 || true
	deadline=$(($(date +%s) + 5))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		n=$(SLURM_CONF=$dir/slurm.conf timeout 5 squeue -h -t R,CG,S,ST -o %A 2>/dev/null | wc -l) ||
			return 0
		[ "$n" -ne 0 ] || return 0
		nap
	done
}

do_stop() {
	ended=""
	cancel_jobs
	# slurmd before slurmctld (no node-down noise), MUNGE last: the Slurm
	# daemons sign their last messages with it.
	stop_daemon slurmd
	stop_daemon slurmctld
	stop_daemon munged
	# Anything of the cluster still there (a job cancel_jobs could not end,
	# daemons killed before stop) has no daemon left to end it: SIGKILL.
	left=$(sweep_pids | tr "\n" " " | sed "s/ $//; s/^/ /")
	if [ -n "$left" ]; then
		echo "$me: stop: killing leftover processes of $dir:$left" >&2
		# shellcheck disable=SC2086 # $left is a list of PIDs
		kill_wait "" 0 $left
	fi
	# An ended daemon is a zombie until init reaps it (here within about a
	# second): wait up to 3 s, so that pgrep right after stop finds nothing.
	i=0
	for p in $ended; do
		while [ -e "/proc/$p" ] && [ $i -lt 30 ]; do nap; i=$((i + 1)); done
	done
}

# fail WHY: say why start failed, show the logs' tails, stop, exit 1.
fail() {
	echo "$me: start failed: $*" >&2
	# Each daemon writes its log file and, in the foreground, a copy to
	# stderr: the stderr file matters only for what comes before the log opens.
	for l in munged slurmctld slurmd; do
		log=$dir/log/$l.log
		[ -s "$log" ] || log=$dir/log/$l.stderr
		if [ -s "$log" ]; then
			echo "--- tail of $log" >&2
			tail -n 15 "$log" >&2
		fi
	done
	do_stop
	exit 1
}

# port_busy PORT: some TCP socket (IPv4 or IPv6, any state) has this local port.
port_busy() {
	set -- ":$(printf %04X "$1")"
	for t in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$t" ] || continue
		awk -v p="$1" 'FNR > 1 && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' "$t" &&
			return 0
	done
	return 1
}

# pick_ports: a free pair (P, P+1) for slurmctld and slurmd, starting from a
# place derived from the directory so two suites rarely probe the same pair.
pick_ports() {
	n=$(printf %s "$dir" | cksum | cut -d' ' -f1)
	i=0
	while [ $i -lt 5000 ]; do
		p=$((20000 + ((n + i) % 5000) * 2))
		if ! port_busy $p && ! port_busy $((p + 1)); then
			ctld_port=$p
			slurmd_port=$((p + 1))
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

write_conf() {
	cat >"$dir/slurm.conf" <<EOF
# Written by tests/fleet/slurm-cluster.sh: a private one-node cluster.
ClusterName=$cluster
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
MailProg=/bin/true
# No systemd, no cgroup delegation, no accounting daemon.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Tests want quick turns.  KillWait: SIGKILL 2 s after scancel's SIGTERM
# (default 30).  Slurm never starts a batch job at submit: sbatch's jobs,
# array tasks and jobs whose dependency just cleared wait for slurmctld's
# background loop, which ticks once a second and schedules them only when
# batch_sched_delay (default 3 s) has passed since its last pass; with 0
# every tick is a pass, so a job starts within about 1 s of being able to
# (measured, submit to done: a trivial 4-task array on 2 CPUs 2-3 s, a job
# or a cleared dependency 1 s; with the defaults 3-6 s and 3 s).  A full
# pass over the queue every 1 s (default 60) costs nothing on one node.
KillWait=2
SchedulerParameters=batch_sched_delay=0,sched_interval=1
NodeName=$node NodeHostname=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=256 Feature=$features State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
	# No cgroup.conf: none is needed.  slurmd and slurmstepd load a cgroup
	# plugin whatever the settings (22.05 has no CgroupPlugin=disabled; the
	# default autodetect picks cgroup/v1 here) but, with the plugins above,
	# only read /sys/fs/cgroup/cpuset's cpus and mems: no cgroup is made
	# (seen with strace).  Slurm looks for cgroup.conf beside slurm.conf,
	# not in /etc/slurm (strace again: one stat of STATE_DIR/cgroup.conf).
	# An empty plugstack.conf keeps /etc/slurm/plugstack.conf (SPANK) out.
	: >"$dir/plugstack.conf"
}

# need_tools: Slurm and MUNGE installed, and root (SlurmUser=root, munged
# --force); else SKIP with the fix, exit 77.
need_tools() {
	missing=""
	for t in sbatch squeue sinfo scontrol scancel slurmctld slurmd munged munge unmunge; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	if [ -n "$missing" ]; then
		echo "SKIP: $me: not installed:$missing (fix: apt-get install slurm-wlm munge)"
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: $me: needs root (the daemons run as root)"
		exit 77
	fi
}

do_start() {
	node=$(uname -n | cut -d. -f1)
	cpus=$(nproc)
	# Unix socket paths are at most 107 bytes: slurmd's step sockets,
	# SPOOL/NODE_JOBID.STEPID, are the longest this cluster makes.
	if [ $((${#dir} + ${#node} + 32)) -gt 107 ]; then
		echo "$me: STATE_DIR $dir is too long for Unix socket paths (keep it under $((75 - ${#node})) bytes)" >&2
		exit 1
	fi

	# Leftovers of an earlier start in this directory: stop them, drop
	# their state (only what this script makes: never STATE_DIR itself).
	do_stop
	rm -rf "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/log" "$dir/run"
	rm -f "$dir/slurm.conf" "$dir/plugstack.conf"
	mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/log" "$dir/run"
	# munged refuses a key, socket or log directory others may write to.
	chmod 755 "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/log" "$dir/run"

	pick_ports || fail "no free TCP port pair in 20000-29999"
	write_conf

	# MUNGE: a key of its own, run as root (--force), in the foreground
	# (-F), where it logs to stderr and ignores --log-file.  The Slurm daemons
	# close the descriptors they inherit, munged does not: close 3-9 for it
	# (a pipe it kept open would hold up a caller reading to its end).
	dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$dir/munge/munge.key"
	ENTRYLAB_SLURM_STATE=$dir munged -F --force \
		--socket="$dir/munge/munge.socket" \
		--key-file="$dir/munge/munge.key" \
		--pid-file="$dir/run/munged.pid" \
		--seed-file="$dir/munge/munged.seed" \
		</dev/null >"$dir/log/munged.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	echo $! >"$dir/munged.pid"
	deadline=$(($(date +%s) + 10))
	until munge -n -S "$dir/munge/munge.socket" 2>/dev/null |
		unmunge -S "$dir/munge/munge.socket" >/dev/null 2>&1; do
		is_running "$(cat "$dir/munged.pid")" munged || fail "munged exited"
		[ "$(date +%s)" -lt "$deadline" ] || fail "munged did not answer within 10 s"
		nap
	done

	# The Slurm daemons, in the foreground (-D) so that $! is the daemon.
	# -c: slurmctld starts from a clean state whatever the directory has.
	ENTRYLAB_SLURM_STATE=$dir SLURM_CONF=$dir/slurm.conf \
		slurmctld -D -c -f "$dir/slurm.conf" </dev/null >"$dir/log/slurmctld.stderr" 2>&1 &
	echo $! >"$dir/slurmctld.pid"
	ENTRYLAB_SLURM_STATE=$dir SLURM_CONF=$dir/slurm.conf \
		slurmd -D -N "$node" -f "$dir/slurm.conf" </dev/null >"$dir/log/slurmd.stderr" 2>&1 &
	echo $! >"$dir/slurmd.pid"

	# Up when slurmd has registered and the node is idle.
	deadline=$(($(date +%s) + 30))
	while :; do
		state=$(SLURM_CONF=$dir/slurm.conf timeout 5 sinfo -h -o %T 2>/dev/null || true)
		[ "$state" != idle ] || break
		is_running "$(cat "$dir/slurmctld.pid")" slurmctld || fail "slurmctld exited"
		is_running "$(cat "$dir/slurmd.pid")" slurmd || fail "slurmd exited"
		if [ "$(date +%s)" -ge "$deadline" ]; then
			why=$(SLURM_CONF=$dir/slurm.conf timeout 5 sinfo -h -o "%T %E" 2>&1 || true)
			fail "node not idle within 30 s (sinfo: '${why:-nothing}')"
		fi
		nap
	done
	echo "slurm: one-node cluster up (node $node, features $features, conf $dir/slurm.conf)"
}

[ $# -ge 2 ] || usage
cmd=$1
case "$cmd" in
start) [ $# -le 3 ] || usage ;;
stop | env) [ $# -eq 2 ] || usage ;;
*) usage ;;
esac
features=${3:-classA,classB}
case "$features" in
'' | *[!A-Za-z0-9_,]* | ,* | *, | *,,*)
	echo "$me: FEATURES must be a comma list of names ([A-Za-z0-9_]), not '$features'" >&2
	exit 2 ;;
esac
case "$cmd" in
start) need_tools && mkdir -p "$2" ;;
*) [ -d "$2" ] || { [ "$cmd" = stop ] && exit 0; echo "$me: no $2" >&2; exit 1; } ;;
esac
dir=$(cd "$2" && pwd -P)
# The path is written into slurm.conf and environments unquoted.
case "$dir" in
*[!A-Za-z0-9._/+-]*)
	echo "$me: STATE_DIR must be a path of [A-Za-z0-9._/+-] only, not '$dir'" >&2
	exit 2 ;;
esac
# ClusterName: the directory's name (lower case, as Slurm wants) and a
# checksum of its whole path, so two clusters never share one.
base=$(basename "$dir" | tr "[:upper:]" "[:lower:]" | tr -c 'a-z0-9\n' '_' | cut -c1-20)
cluster="${base}_$(printf %s "$dir" | cksum | cut -d' ' -f1)"

case "$cmd" in
start) do_start ;;
stop) do_stop ;;
env) echo "SLURM_CONF=$dir/slurm.conf" ;;
esac
