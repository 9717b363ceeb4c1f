#!/bin/sh
# Runs the libFuzzer targets of tests/fuzz/ built in FUZZ_BUILD (the fuzz
# subproject's build directory, build/tests/fuzz).
#
#   run.sh FUZZ_BUILD                  every target for $FUZZ_SECONDS (10) each: the ctest `fuzz`
#   run.sh FUZZ_BUILD TARGET SECONDS   one target, long (log in /tmp/fuzz-TARGET.log)
#   run.sh FUZZ_BUILD all SECONDS      every target, long (cmake --build build -t fuzz_long: 600)
#
# Each target first replays its regressions (regressions/TARGET/*, inputs that
# crashed it once), then fuzzes from its committed corpus (corpus/TARGET/; new
# inputs go to a scratch directory, never into the tree).  A crash or a broken
# property fails the run; the input is kept under the scratch directory and
# its path printed: copy it to regressions/TARGET/ with the fix.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh FUZZ_BUILD [TARGET SECONDS]}
only=${2:-}
seconds=${3:-${FUZZ_SECONDS:-10}}
scratch=$(mktemp -d /tmp/entrylab-fuzz.XXXXXX)
status=0

if [ -n "$only" ] && [ "$only" != all ]; then
	targets=$only
else
	targets=$(cat "$build/fuzz_targets.txt")
fi
for t in $targets; do
	bin=$build/fuzz_$t
	log=${only:+/tmp/fuzz-$t.log}
	log=${log:-$scratch/$t.log}
	if [ ! -x "$bin" ]; then
		echo "fuzz: $t: no $bin; build the fuzz tier first (cmake --build build)"
		status=1
		continue
	fi
	mkdir -p "$scratch/$t/corpus" "$scratch/$t/crash"
	reg=$here/regressions/$t
	if [ -d "$reg" ] && [ -n "$(ls "$reg")" ]; then
		if ! "$bin" "$reg"/* >"$scratch/$t.reg.log" 2>&1; then
			echo "fuzz: $t: FAIL: a regression input crashes again (log $scratch/$t.reg.log)"
			tail -20 "$scratch/$t.reg.log"
			status=1
			continue
		fi
		echo "fuzz: $t: $(ls "$reg" | wc -l) regression input(s) replayed, no crash"
	fi
	# options/TARGET: extra libFuzzer flags (exit_loop: -close_fd_mask=3, the
	# guest's EL_HC_WRITE output is not ours to print; libFuzzer keeps its own).
	extra=$(cat "$here/options/$t" 2>/dev/null)
	"$bin" $extra -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$scratch/$t/crash/" "$scratch/$t/corpus" "$here/corpus/$t" \
		>"$log" 2>&1
	rc=$?
	done_line=$(grep -a 'DONE' "$log" | tail -1)
	execs=$(grep -a '^stat::number_of_executed_units' "$log" | awk '{print $2}')
	if [ $rc -ne 0 ]; then
		echo "fuzz: $t: FAIL (exit $rc) after ${execs:-?} execs; log $log, input:"
		ls "$scratch/$t/crash/"
		grep -a -m3 'ERROR\|property broken\|runtime error' "$log"
		status=1
	else
		echo "fuzz: $t: ${seconds}s, ${execs:-?} execs: ${done_line:-no DONE line (see $log)}"
	fi
done
[ $status -eq 0 ] && rm -rf "$scratch"
exit $status
