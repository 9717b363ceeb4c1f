#!/bin/sh
# One ctest entry of the KVM tier (tests/CMakeLists.txt, kvm.SUITE):
#
#   suite.sh KVM_TESTS --filter 'SUITE/*' --verbose --jobs 1
#
# Runs the Criterion binary with the arguments given and exits with its
# status.  Its output passes through, less what --verbose prints for each
# test the filter leaves out ("[SKIP] S::T: Test is disabled", 110-odd
# lines an entry that are no skip of anything) and the headers of suites
# left with no line.  No test here is disabled any other way.
set -u
# mawk reads a pipe a buffer at a time unless interactive: line by line, live.
case $(awk -W version 2>&1) in mawk*) awk="awk -W interactive" ;; *) awk=awk ;; esac
status=$(mktemp "${TMPDIR:-/tmp}/entrylab-suite.XXXXXX") || exit 1
{
	"$@" 2>&1
	echo $? >"$status"
} | $awk '
/^\[====\] Running [0-9]+ tests? from / { held = $0; next }
/^\[SKIP\] .*: Test is disabled$/ { next }
/^\[====\] / { held = "" }
{
	if (held != "") { print held; held = "" }
	print
	fflush()
}'
rc=$(cat "$status")
rm -f "$status"
exit "${rc:-1}"
