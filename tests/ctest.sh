#!/bin/sh
# The whole suite, as `harness/bootstrap.sh test` runs it:
#
#   tests/ctest.sh BUILD [CTEST-ARGS...]
#
# ctest in BUILD with -V (every PASS/FAIL/SKIP line with its reason) and
# --output-on-failure, independent entries side by side: -j $(nproc), or
# $CTEST_PARALLEL_LEVEL when set.  Its output passes through as it comes;
# then a table of every entry (status, seconds as ctest measured them), of
# every tier (the name before the first '.': unit, kvm, bochs ...; busy =
# its entries' seconds summed, wall = its first start to its last end) and
# the total wall time; last, for each entry that failed, its FAIL and
# assertion lines (CI shows the tail of the log).  Exits with ctest's status.
set -u
build=${1:?usage: tests/ctest.sh BUILD [CTEST-ARGS...]}
shift
jobs=${CTEST_PARALLEL_LEVEL:-$(nproc)}
status=$(mktemp "${TMPDIR:-/tmp}/entrylab-ctest.XXXXXX") || exit 1
# mawk reads a pipe a buffer at a time unless interactive: line by line, so
# the log is live and the clock below is each line's.
case $(awk -W version 2>&1) in mawk*) awk="awk -W interactive" ;; *) awk=awk ;; esac
{
	ctest --test-dir "$build" -j "$jobs" --output-on-failure -V "$@"
	echo $? >"$status"
} | $awk -v jobs="$jobs" '
# srand() returns the previous seed: after srand() seeded it with the time
# of day, the second call gives that time in seconds (POSIX awk, mawk too).
function now() { srand(); return srand() }
function trim(s) { gsub(/\*\*\*/, " ", s); sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
BEGIN { t0 = now() }
{ print; fflush() }
# Why a test failed, kept per entry for the summary at the end (the tail of a
# CI log is what gets read): the FAIL lines of Criterion, assertion sites and the
# message lines under them, crashes and timeouts.
/^ *[0-9]+: / {
	k = $1 + 0
	if ($0 ~ /Test command:/) next
	if ($0 ~ /\[FAIL\]|Assertion Failed|CRASH|[Cc]rashed|Timed out|Timeout|Unexpected signal/) { if (nwhy[k] < 60) why[k] = why[k] $0 "\n"; more[k] = 4; nwhy[k]++ }
	else if (more[k] > 0 && nwhy[k] < 60) { why[k] = why[k] $0 "\n"; more[k]--; nwhy[k]++ }
}
/^ +Start +[0-9]+: / { start[$2 + 0] = now() }
/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
	line = $0
	sub(/^ *[0-9]+\/[0-9]+ Test +#/, "", line)
	n = line + 0
	sub(/^[0-9]+: /, "", line)
	name[n] = line; sub(/ .*/, "", name[n])
	rest = substr(line, length(name[n]) + 1)
	sub(/^ *\.*/, "", rest)
	# "Passed 12.38 sec", "***Failed  Error regular expression ... 0.02 sec",
	# "***Timeout 1200.01 sec", "***Skipped 0.01 sec", "***Exception: ..."
	k = split(rest, w, " ")
	secs[n] = w[k - 1] + 0
	st = trim(substr(rest, 1, length(rest) - length(w[k - 1]) - length(w[k]) - 2))
	stat[n] = st
	end[n] = now()
	if (!(n in start)) start[n] = end[n] - int(secs[n])
	if (n > max) max = n
}
END {
	if (!max) exit
	nw = 17
	for (n in name) if (length(name[n]) > nw) nw = length(name[n])
	c1 = "  %-" nw "s "
	printf "\n== test times (ctest -j %s)\n" c1 "%-36s %8s\n", jobs, "entry", "status", "seconds"
	for (n = 1; n <= max; n++) {
		if (!(n in name)) continue
		s = stat[n]
		if (length(s) > 36) s = substr(s, 1, 33) "..."
		printf c1 "%-36s %8.1f\n", name[n], s, secs[n]
		t = name[n]; sub(/\..*/, "", t)
		if (!(t in tn)) { order[++ntiers] = t; tfirst[t] = start[n]; tlast[t] = end[n] }
		tn[t]++
		tbusy[t] += secs[n]
		if (stat[n] != "Passed" && stat[n] != "Skipped") tbad[t]++
		if (stat[n] == "Skipped") tskip[t]++
		if (start[n] < tfirst[t]) tfirst[t] = start[n]
		if (end[n] > tlast[t]) tlast[t] = end[n]
		all++
		busy += secs[n]
		if (stat[n] != "Passed" && stat[n] != "Skipped") bad++
	}
	printf "\n== tiers (busy: the seconds of its entries summed; wall: first start to last end)\n"
	printf c1 "%7s %6s %7s %8s %6s\n", "tier", "entries", "failed", "skipped", "busy s", "wall s"
	for (i = 1; i <= ntiers; i++) {
		t = order[i]
		printf c1 "%7d %6d %7d %8.1f %6d\n", t, tn[t], tbad[t], tskip[t], tbusy[t],
			tlast[t] - tfirst[t]
	}
	printf c1 "%7d %6d %7s %8.1f %6d\n", "total", all, bad, "", busy, now() - t0
	for (n = 1; n <= max; n++)
		if ((n in name) && stat[n] != "Passed" && stat[n] != "Skipped") {
			printf "\n== why %s failed (%s)\n", name[n], stat[n]
			printf "%s", (n in why) ? why[n] : "  (no FAIL or assertion line; see its output above)\n"
		}
}'
rc=$(cat "$status")
rm -f "$status"
exit "${rc:-1}"
