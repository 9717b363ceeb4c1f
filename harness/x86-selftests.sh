#!/bin/sh
# Linux's own x86 selftests (tools/testing/selftests/x86 of Debian's
# linux-source-6.1, unmodified), built static, run in the guest under entry
# variants, side by side with Linux booted on the same vCPU.
#
#   harness/x86-selftests.sh build CACHEDIR
#   harness/x86-selftests.sh run [-o DIR] [-t SECONDS] [-v VARIANTS] [-L]
#                                CACHEDIR [TEST...]
#
# build: extracts the selftests from /usr/src/linux-source-6.1.tar.xz (apt
#   installs linux-source-6.1 when it is missing and this runs as root) and
#   builds them with the kernel's own Makefile and EXTRA_CFLAGS=-static:
#   CACHEDIR/bin/NAME_64, and NAME_32 where `gcc -m32` works (gcc-multilib;
#   the Makefile decides).  Idempotent: CACHEDIR/.complete says which source
#   built it.  Exit status 2: cannot build here (no source, no root to get
#   it, no compiler); a test that uses it skips.
# run: every TEST (default: all of CACHEDIR/bin) in every variant of
#   VARIANTS (';'-separated `--append` strings; default the 8 of pti off/on x
#   entry.ret iret/sysret x entry.irq_return direct/trampoline) with
#   `entrylab run --exec`, and with -L once under `--guest linux`.  For each
#   run: the exit status and the [OK]/[FAIL]/[SKIP] lines the test printed
#   (Linux guest: the exit status only; its program output does not reach
#   the host yet).  Writes DIR/table.tsv (test, variant, status, ok, fail,
#   skip), DIR/NAME.VARIANT.out and .err, records in DIR/runs.jsonl, and
#   prints the table.  ENTRYLAB names the binary (default build/entrylab).
#   Exit status 0 when every run ended (whatever the tests said), 1 on a
#   usage or tool error.
#
# A test's exit status: 0 passed, 1 failed, 4 skipped (kselftest's KSFT_SKIP),
# 128+N killed by signal N; else entrylab's run status ("guest-crash": the kernel
# died, "timeout": the guest outlived -t), or "refused-RC" when entrylab would
# not run it (entrylab exit 124 without a summary line, a boot that timed out, is
# "timeout" too).
set -eu

me=x86-selftests.sh
src_tar=/usr/src/linux-source-6.1.tar.xz
src_top=linux-source-6.1

die() {
	echo "$me: $*" >&2
	exit 1
}
cannot() {
	echo "$me: cannot build the selftests here: $*" >&2
	exit 2
}

build() {
	[ $# -eq 1 ] || die "usage: $me build CACHEDIR"
	mkdir -p "$1"
	cache=$(cd "$1" && pwd)
	# One build at a time (tests may ask side by side); the others wait.
	exec 9>"$cache.lock"
	flock 9
	if [ -f "$cache/.complete" ] && [ -x "$cache/bin/sigreturn_64" ]; then
		echo "$me: $cache is up to date ($(cat "$cache/.complete"))"
		return 0
	fi
	for t in make cc tar xz; do
		command -v $t >/dev/null || cannot "$t not found (apt-get install make gcc tar xz-utils)"
	done
	if [ ! -f "$src_tar" ]; then
		[ "$(id -u)" = 0 ] || cannot "$src_tar is missing and installing linux-source-6.1 needs root"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			linux-source-6.1 >&2 ||
			cannot "apt-get install linux-source-6.1 failed"
	fi
	rm -rf "$cache/src" "$cache/bin" "$cache/.complete"
	mkdir -p "$cache/src" "$cache/bin"
	# Only what the x86 Makefile reads: its directory, lib.mk, kselftest.h and
	# the one kernel header sigreturn.c includes.
	tar -xJf "$src_tar" -C "$cache/src" \
		"$src_top/tools/testing/selftests/x86" \
		"$src_top/tools/testing/selftests/lib.mk" \
		"$src_top/tools/testing/selftests/kselftest.h" \
		"$src_top/arch/x86/include/asm/desc_defs.h" ||
		cannot "cannot extract the selftests from $src_tar"
	make -s -C "$cache/src/$src_top/tools/testing/selftests/x86" \
		OUTPUT="$cache/bin" EXTRA_CFLAGS=-static -j"$(nproc)" >&2 ||
		die "the selftests did not build (log above)"
	[ -x "$cache/bin/sigreturn_64" ] || die "no sigreturn_64 after the build"
	echo "$(dpkg-query -W -f '${Package} ${Version}' linux-source-6.1 2>/dev/null ||
		echo "$src_tar"), $(ls "$cache/bin" | grep -c '_32$') 32-bit and" \
		"$(ls "$cache/bin" | grep -c '_64$') 64-bit tests" >"$cache/.complete"
	echo "$me: built $cache/bin ($(cat "$cache/.complete"))"
}

all_variants="pti=off entry.ret=iret entry.irq_return=direct;pti=off entry.ret=iret entry.irq_return=trampoline;pti=off entry.ret=sysret entry.irq_return=direct;pti=off entry.ret=sysret entry.irq_return=trampoline;pti=on entry.ret=iret entry.irq_return=direct;pti=on entry.ret=iret entry.irq_return=trampoline;pti=on entry.ret=sysret entry.irq_return=direct;pti=on entry.ret=sysret entry.irq_return=trampoline"

# A variant's short name for the table and the files: "pti=on entry.ret=sysret" -> on/sysret.
short() {
	echo "$1" | tr ' ' '\n' | sed 's/^[^=]*=//' | paste -sd/ -
}

# run_one TEST LABEL ARGS...: one entrylab run, one row of the table.
run_one() {
	t=$1 label=$2
	shift 2
	base="$out/$t.$(echo "$label" | tr '/' '-')"
	set +e
	"$entrylab" run "$@" --timeout "$secs" -o "$out/runs.jsonl" --exec "$cache/bin/$t" \
		>"$base.out" 2>"$base.err"
	rc=$?
	set -e
	# "entrylab run PROG: ok, exit status N (...)" gives N; "...: guest-crash (...)"
	# or "...: timeout (...)" the status word; no such line: entrylab refused
	# the run (its reason is the first line of the .err file).
	line=$(grep '^entrylab run ' "$base.out" | tail -1)
	case $line in
	*", exit status "*) status=$(echo "$line" | sed 's/.*, exit status \([0-9]*\).*/\1/') ;;
	"") if [ "$rc" = 124 ]; then status=timeout; else status="refused-$rc"; fi ;;
	*) status=$(echo "$line" | sed 's/^entrylab run [^ ]*: \([a-z-]*\).*/\1/') ;;
	esac
	ok=$(grep -c '^\[OK\]' "$base.out" || true)
	fail=$(grep -c '^\[FAIL\]' "$base.out" || true)
	skip=$(grep -c '^\[SKIP\]' "$base.out" || true)
	case $label in linux) ok=- fail=- skip=- ;; esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$label" "$status" "$ok" "$fail" "$skip" >>"$out/table.tsv"
	printf '  %-28s %-26s %-8s ok %-4s fail %-3s skip %s\n' "$t" "$label" "$status" "$ok" "$fail" "$skip"
}

run() {
	out=results/x86-selftests-$(date +%Y%m%d-%H%M%S) secs=120 variants=$all_variants linux=0
	while getopts o:t:v:L opt; do
		case $opt in
		o) out=$OPTARG ;;
		t) secs=$OPTARG ;;
		v) variants=$OPTARG ;;
		L) linux=1 ;;
		*) die "usage: $me run [-o DIR] [-t SECONDS] [-v 'APPEND;APPEND...'] [-L] CACHEDIR [TEST...]" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -ge 1 ] || die "usage: $me run [-o DIR] [-t SECONDS] [-v VARIANTS] [-L] CACHEDIR [TEST...]"
	cache=$(cd "$1" && pwd) || die "no cache $1 (run: $me build $1)"
	shift
	[ -f "$cache/.complete" ] || die "$cache is not built (run: $me build $cache)"
	case $secs in '' | *[!0-9]*) die "-t wants whole seconds, not '$secs'" ;; esac
	entrylab=${ENTRYLAB:-build/entrylab}
	[ -x "$entrylab" ] || die "no $entrylab (build first, or set ENTRYLAB)"
	tests=${*:-$(cd "$cache/bin" && ls)}
	for t in $tests; do
		[ -x "$cache/bin/$t" ] || die "no test $t in $cache/bin (names end in _64 or _32)"
	done
	mkdir -p "$out"
	: >"$out/table.tsv"
	for t in $tests; do
		[ $linux = 1 ] && run_one "$t" linux --guest linux
		echo "$variants" | tr ';' '\n' | while IFS= read -r v; do
			[ -n "$v" ] || continue
			# shellcheck disable=SC2086
			run_one "$t" "$(short "$v")" --append "$v"
		done
	done
	echo "$me: $(wc -l <"$out/table.tsv") runs; table $out/table.tsv"
}

[ $# -ge 1 ] || die "usage: $me build CACHEDIR | run [...] CACHEDIR [TEST...]"
cmd=$1
shift
case $cmd in
build) build "$@" ;;
run) run "$@" ;;
*) die "unknown command '$cmd' (build or run)" ;;
esac
