#!/bin/sh
# Every function and every repository path the Markdown files name exists:
#
#   tests/scripts/doc-refs.sh [SRC]      (SRC: the repository, default .)
#
# Reads every *.md under SRC (build*/ and .git left out) and prints each
# reference that names nothing as `FILE:LINE: what`; exits 1 when there is
# any, 0 when none.  What counts as a reference:
#
# Functions.  An inline code span that is just a name and `()`, such as
# `exit_loop_run()`.  It must be defined in a source file (*.c *.h *.S *.sh
# *.cmake CMakeLists.txt): a C definition or prototype (the first `NAME(` on
# a line that starts at column 0, after its type or below it), `#define
# NAME(`, an assembly label `NAME:` or SYM_*START(NAME), a shell function
# `NAME() {`, a CMake function(NAME) or macro(NAME).  Functions of Linux and
# libc are written as their manuals write them, `getpid(2)`, `mmap(addr,
# len)`: a span with anything between the brackets is not checked.
#
# Paths.  The words of inline code spans, of fenced blocks and of the text
# around them, and link targets ([text](target)), after trimming quotes,
# brackets and trailing punctuation, an `...=` prefix (`--kernel=PATH`), a
# `#anchor` and a `:LINE` suffix.  A word is a path when
#   - it contains a '/' and either ends with a known extension ($ext below:
#     .c .h .S .md .sh .txt .cmake ...) or, inside code (spans and fenced
#     blocks), its first component is a folder of the repository root or of
#     the Markdown file's folder (`cli/`, `kvm/` in tests/README.md); in
#     running text a '/' means "or" as often as a folder (read/write);
#   - or it has no '/' and ends with a known extension (`test_fleet.c`).
# Left out, as they are not the repository's files:
#   - URLs (`://`), absolute paths (`/dev/kvm`, `/proc/self`: the host's or
#     the guest's), `~/...`, `./a.out` (the reader's own directory);
#   - a relative path that climbs out of the repository
#     (`../linux-patched/vmlinux`);
#   - `<stdint.h>`, `<linux/perf_event.h>`: a system header;
#   - `80f655a:vmm/main.c`: a file as it was in a commit (git's REV:PATH);
#   - anything under build/ or results/, which are generated (the .md files
#     of results/ themselves are checked);
#   - the names of files a command or the reader writes ($made below:
#     report.md, submit.sh, prog.c ...);
#   - placeholders: a word with `*`, `?`, `...`, `<`, `{`, `$`, `%` or `|`,
#     or with a word in capitals in a component (NAME, DIR, NAME.h,
#     BENCH-TIME-PID, task-ID.json; README.md and CMakeLists.txt are
#     names);
#   - Linux's own files (`arch/x86/entry/entry_64.S`): on a line that says
#     "Linux's" or "linux-source" a word with a '/' is not checked.
# A path with a '/' must exist relative to the repository root or to the
# Markdown file's folder, or be the end of a repository path: docs name
# files relative to a folder they named just before (`entry/entry.S` in
# guest-kernel/arch/x86_64/), and `entrylab/abi.h` as it is included.  A
# program is named by its source: `tests/guest/tracecheck` is
# tests/guest/tracecheck.c.  A bare file name must be the name of some file
# in the repository.
set -u
src=${1:-.}
cd "$src" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/doc-refs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

find . \( -name '.git' -o -path './build*' \) -prune -o -print | sed 's|^\./||' >"$tmp/paths"
grep '\.md$' "$tmp/paths" | sort >"$tmp/md"
grep -E '\.(c|h|S|sh|cmake)$|(^|/)CMakeLists\.txt$' "$tmp/paths" >"$tmp/sources"

# The names defined in the sources, one a line.
tr '\n' '\0' <"$tmp/sources" | xargs -0 awk '
FNR == 1 { prev = "" }
{
	line = $0
	if (match(line, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*\(/)) {
		s = substr(line, RSTART, RLENGTH - 1); sub(/.*define[ \t]+/, "", s); print s
	} else if (match(line, /^[A-Za-z_.][A-Za-z0-9_.]*:/)) {
		print substr(line, 1, RLENGTH - 1)
	} else if (match(line, /SYM_[A-Z_]*START[A-Z_]*\([A-Za-z_][A-Za-z0-9_]*/)) {
		s = substr(line, RSTART, RLENGTH); sub(/.*\(/, "", s); print s
	} else if (match(line, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\(\)[ \t]*\{/)) {
		s = line; sub(/^[ \t]*/, "", s); sub(/[ \t]*\(.*/, "", s); print s
	} else if (match(line, /^[ \t]*(function|macro)\([A-Za-z_][A-Za-z0-9_]*/)) {
		s = substr(line, RSTART, RLENGTH); sub(/.*\(/, "", s); print s
	} else if (line ~ /^[A-Za-z_]/ && match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
		# The first name followed by "(" on a line that starts at column 0:
		# "static int foo(void)", "foo(int a)" below its type, "TYPE *foo(".
		s = line
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			n = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
			if (n !~ /^(if|while|for|switch|return|sizeof|typeof|__attribute__|_Static_assert|static_assert|alignas|_Alignas)$/) { print n; break }
			s = substr(s, RSTART + RLENGTH)
		}
	}
	prev = line
}' | sort -u >"$tmp/defs"

# Files a command writes (matrix: report.md, submit.sh, plan.json; Bochs:
# com1.txt) or the reader writes (prog.c, experiment.ini, my-patch.ini).
made='report.md submit.sh plan.json com1.txt prog.c experiment.ini my-patch.ini'
ext='c|h|S|md|sh|txt|cmake|ld|lds|ini|def|json'
rc=0
tr '\n' '\0' <"$tmp/md" | xargs -0 awk -v defs="$tmp/defs" -v paths="$tmp/paths" \
	-v made="$made" -v ext="[.]($ext)\$" '
BEGIN {
	while ((getline l < defs) > 0) def[l] = 1
	while ((getline l < paths) > 0) {
		have[l] = 1
		n = split(l, c, "/"); base[c[n]] = 1
		if (n == 1) top[l] = 1
		s = l
		while (sub(/^[^\/]*\//, "", s)) tail[s] = 1
	}
	have[""] = 1
	n = split(made, c, " ")
	for (i = 1; i <= n; i++) ismade[c[i]] = 1
	bad = 0
}
FNR == 1 {
	dir = FILENAME; sub(/^\.\//, "", dir)
	if (!sub(/\/[^\/]*$/, "", dir)) dir = ""
	fence = 0
}
function norm(p,    n, c, i, o, k) {
	n = split(p, c, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (c[i] == "" || c[i] == ".") continue
		if (c[i] == "..") { if (k == 0) return "/outside"; k--; continue }
		o[++k] = c[i]
	}
	p = ""
	for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") o[i]
	return p
}
function report(what) {
	if ((FILENAME SUBSEP FNR SUBSEP what) in said) return
	said[FILENAME, FNR, what] = 1
	sub(/^\.\//, "", FILENAME)
	print FILENAME ":" FNR ": " what; bad++
}
function exists(w,    p) {
	if (norm(w) in have || norm(dir "/" w) in have) return 1
	p = w; sub(/^(\.\.?\/)+/, "", p)
	if (p in tail) return 1
	return (w ".c") in have || (w ".S") in have || (dir "/" w ".c") in have || (p ".c") in tail
}
function check_path(w, incode, linux,    first, n, c, i, stem) {
	if (w ~ /^<.*>/) return
	# COMMIT:PATH, a file as it was in a commit (git show takes it)
	if (w ~ /^`?[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+:[^0-9]/) return
	gsub(/^[["'\''(]+/, "", w)
	sub(/^[^\/]*=/, "", w)
	sub(/#.*$/, "", w)
	gsub(/[]"'\'')>,;.:!]+$/, "", w)
	sub(/:[0-9][0-9,-]*$/, "", w)
	if (w == "" || w ~ /:\/\// || w ~ /^[\/~]/ || w ~ /^\.\/[^.]/ || w ~ /^-/) return
	if (w ~ /[*?<{$%|`\\]/ || index(w, "...")) return
	if (w ~ /^(build|results)[^\/]*\// && w !~ /^results\/[^\/]*\.md$/) return
	n = split(w, c, "/")
	for (i = 1; i <= n; i++) {
		stem = c[i]; sub(/\.[A-Za-z]+$/, "", stem)
		if (stem != "README" && stem != "CMakeLists" && stem ~ /(^|[-_.])[A-Z][A-Z0-9]+([-_.]|$)/) return
	}
	if (index(w, "/")) {
		if (linux) return
		first = c[1]
		if (w !~ ext && !(incode && (first in top || (dir "/" first) in have))) return
		if (norm(dir "/" w) == "/outside") return
		np++
		if (w ~ /^[^A-Za-z0-9_.]/ || exists(w)) return
		report("no such path: " w)
	} else if (w ~ ext && w ~ /^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$/) {
		np++
		if (!(w in base) && !(w in ismade)) report("no file named " w)
	}
}
function words(s, incode, linux,    n, a, i) {
	gsub(/\]\(/, " ", s)
	n = split(s, a, /[ \t]+/)
	for (i = 1; i <= n; i++) check_path(a[i], incode, linux)
}
{
	line = $0
	linux = (line ~ /Linux.s |linux-source/)
	if (line ~ /^[ \t]*(```|~~~)/) { fence = !fence; next }
	if (fence) { words(line, 1, linux); next }
	rest = line
	while (match(rest, /`[^`]+`/)) {
		span = substr(rest, RSTART + 1, RLENGTH - 2)
		words(substr(rest, 1, RSTART - 1), 0, linux)
		rest = substr(rest, RSTART + RLENGTH)
		if (span ~ /^[A-Za-z_][A-Za-z0-9_]*\(\)$/) {
			f = substr(span, 1, length(span) - 2)
			nf++
			if (!(f in def)) report("no function " span)
			continue
		}
		words(span, 1, linux)
	}
	words(rest, 0, linux)
}
END {
	printf "doc-refs: %d functions and %d paths checked, %d broken\n", nf, np, bad
	exit bad > 0
}' || rc=1
exit "$rc"
